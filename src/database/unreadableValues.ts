import { APIError, type Payload, type PayloadRequest, type Where } from 'payload'
import { QUERY_ERROR } from '../calendar/access/refusedQuery'
import { errorChain, errorCode, type AfterErrorHook } from './connectionErrors'
import { translateQueryErrors } from './queryErrors'

/**
 * Payload's REST reads an id from the path with `parseFloat` and hands `where` values to its adapter
 * as given, so `/api/events/abc`, `/api/events/99999999999999`, `?where[id][equals]=1.5`,
 * `?where[featured][equals]=maybe` or `?limit=1.5` reached PostgreSQL, whose refusal Payload
 * answered as a 500 and logged as the server's failure; `?where[id][near]=1,2` failed in the
 * adapter's query building the same way. These are the request's mistakes, and every door that goes
 * through Payload (its REST and GraphQL, the admin, the local API) now says so, as the namespace
 * does for its own parameters (docs/api.md §2.1, §11).
 */

const UNREADABLE_MESSAGE =
  "A value in the request cannot be read as its field's type, or its operator does not apply to the field."
const NO_SUCH_LINK = 'A value in the request links to an item that does not exist.'
const EMPTY_REQUIRED = 'A value in the request leaves empty a field that must have one.'

/**
 * A value of the request that its field cannot hold: 400, logged as information (`loggingLevels`).
 * Named as Payload's `QueryError` (the bundler renames classes: the name is set by hand), which the
 * admin's list view renders as an empty list: a filter such as `id` equal to `1.5` blanked the page.
 */
export class UnreadableValue extends APIError {
  constructor(message = UNREADABLE_MESSAGE) {
    super(message, 400, null, true)
    this.name = QUERY_ERROR
  }
}

/**
 * What is wrong with a request's value that PostgreSQL refused, if that is why a statement failed: a
 * data exception (class 22: `abc` or `1.5` as an integer, a number past an integer's range, `maybe`
 * as a boolean, a 13th month), an operator the type lacks (42883: `contains` on an id), a value of
 * another type (42804), a link to an item that does not exist (23503: `organizers: [-1]`), or
 * null where the column takes none (23502: `createdAt: null`).
 */
function refusedValue(error: unknown): string | undefined {
  for (const current of errorChain(error)) {
    if (current instanceof UnreadableValue) return current.message
    const code = errorCode(current) ?? ''
    if (code.startsWith('22') || code === '42883' || code === '42804') return UNREADABLE_MESSAGE
    if (code === '23503') return NO_SUCH_LINK
    if (code === '23502') return EMPTY_REQUIRED
  }
  return undefined
}

/** Whether `where` names an operator the adapter has no SQL for on an ordinary column (`near` on an id, `all`). */
function namesMissingOperator(where: unknown, operators: Record<string, unknown>): boolean {
  if (Array.isArray(where)) return where.some((part) => namesMissingOperator(part, operators))
  if (!where || typeof where !== 'object') return false
  return Object.entries(where as Where).some(([key, value]) =>
    key === 'and' || key === 'or'
      ? namesMissingOperator(value, operators)
      : Boolean(value) &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.keys(value).some((operator) => !(operator in operators)),
  )
}

/**
 * Payload's adapter answers a statement that failed on a request's value with `UnreadableValue`. The
 * statement has failed, so the transaction it ran in is rolled back as for any other error: nothing
 * is half written.
 */
export function refuseUnreadableValues(payload: Payload): void {
  const operators =
    (payload.db as unknown as { operators?: Record<string, unknown> }).operators ?? {}
  translateQueryErrors(payload, (error, args) => {
    if (error instanceof TypeError && namesMissingOperator(args?.where, operators))
      return new UnreadableValue()
    const refused = refusedValue(error)
    return refused ? new UnreadableValue(refused) : error
  })
}

/** The largest id of the calendar's collections: PostgreSQL `serial`, 1 to 2³¹ − 1. */
const LARGEST_ID = 2 ** 31 - 1

/** Whether an id, as a number or as a path's text (`12`, not `012` or `1e1`), can name a stored item. */
export function isStoredId(id: unknown): boolean {
  if (typeof id === 'string' && !/^[1-9]\d{0,9}$/.test(id)) return false
  const number = Number(id)
  return Number.isInteger(number) && number >= 1 && number <= LARGEST_ID
}

/** Whether a route's id (`/api/events/abc`, `/api/events/versions/1.5`) cannot name a stored item. */
function namesNoItem(req: Partial<PayloadRequest>): boolean {
  const id = req.routeParams?.id
  return typeof id === 'string' && !isStoredId(id)
}

/**
 * Payload's REST answer to an unreadable value: an item named by an id that cannot name one is not
 * found (404), anything else is the request's mistake (400), whichever statement met it first: the
 * adapter's, or a hook's own SQL before it.
 */
export const unreadableValueAfterError: AfterErrorHook = ({ error, req }) => {
  const refused = refusedValue(error)
  if (!refused) return
  const missing = namesNoItem(req)
  return {
    status: missing ? 404 : 400,
    response: { errors: [{ message: missing ? req.t('general:notFound') : refused }] },
  }
}
