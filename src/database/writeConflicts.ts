import type { Payload, PayloadRequest } from 'payload'
import { errorChain, errorCode, isWriteConflict } from './connectionErrors'
import { translateQueryErrors } from './queryErrors'

/**
 * The write conflict (`isWriteConflict`: a deadlock, a serialization failure) that undid a request's
 * transaction, remembered on the request where its statement failed. Payload's bulk update and delete
 * keep only each item's message ("Failed query: …", which carries no code): a bulk edit PostgreSQL
 * undid as a deadlock was answered 400 "Something went wrong.", which no client sends again, where
 * any other door answers 409 with `Retry-After` (docs/api.md §11, "Writes that collide").
 */
const MET = 'calendarWriteConflict'

type Met = { transaction: PayloadRequest['transactionID']; error: unknown }

/**
 * What a statement of `req` that failed with `error` throws: a write conflict, remembered on the
 * request; in place of PostgreSQL's refusal of any statement after it in the undone transaction
 * (25P02, "current transaction is aborted"), that conflict again. A bulk delete's last statement
 * (its items' preferences) failed so, after its items had kept only their messages, and the bulk
 * was answered 500.
 */
export function thrownFor(req: Partial<PayloadRequest> | undefined, error: unknown): unknown {
  if (!req?.context || req.transactionID === undefined) return error
  if (isWriteConflict(error))
    req.context[MET] = { transaction: req.transactionID, error } satisfies Met
  else if (errorChain(error).some((current) => errorCode(current) === ABORTED))
    return writeConflictOf(req) ?? error
  return error
}

/** PostgreSQL's refusal of a statement in a transaction an earlier failure undid. */
const ABORTED = '25P02'

/**
 * The write conflict that undid the request's current transaction, if one did; or the one that undid
 * a transaction the request no longer has: a nested operation that met the refusal (a hook's find)
 * rolls the shared transaction back and takes it off the request (Payload's `killTransaction`), so
 * a bulk write's items may end with no transaction left to name.
 */
export function writeConflictOf(req: Partial<PayloadRequest>): unknown {
  const met = req.context?.[MET] as Met | undefined
  return met && (met.transaction === req.transactionID || req.transactionID === undefined)
    ? met.error
    : undefined
}

/** Every adapter method that runs SQL for a request remembers a write conflict it meets. */
export function rememberWriteConflicts(payload: Payload): void {
  translateQueryErrors(payload, (error, args) => thrownFor(args?.req, error))
}
