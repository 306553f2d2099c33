import type { Config, Payload } from 'payload'
import type pg from 'pg'
import { boundStatements, NO_ANSWER } from './statementDeadline'

type Logger = Pick<Payload['logger'], 'warn'>

/** pg-pool's own lists (no public API tells them): every client it holds, and the idle ones. */
type PoolState = { _clients?: pg.PoolClient[]; _idle?: { client: pg.PoolClient }[] }

const guarded = new WeakSet<pg.Pool>()

/**
 * When the database drops a connection (a crash, a restart, an administrator's terminate),
 * node-postgres emits `error` on the connection, and on the pool when the connection was idle; an
 * `error` event nobody listens to is an uncaught exception. Every connection of the pool gets a
 * listener when it is opened, and those opened before this ran get theirs now.
 *
 * A connection that breaks while lent out goes back to the pool at once, as broken: its borrower may
 * never give it back (drizzle keeps the connection of a transaction whose BEGIN failed, Payload the
 * one it holds for good), and each one kept would be a connection the pool never opens again.
 * The borrower's own release then does nothing.
 */
function guardPool(pool: pg.Pool, logger: Logger): void {
  if (guarded.has(pool)) return
  guarded.add(pool)
  const state = pool as unknown as PoolState
  pool.on('error', (error) => logger.warn(`database connection lost: ${error.message}`))
  const guardClient = (client: pg.PoolClient) =>
    client.on('error', (error) => {
      const lentOut =
        state._clients?.includes(client) && !state._idle?.some((item) => item.client === client)
      if (!lentOut) return
      const release = client.release
      client.release = () => undefined
      release.call(client, error)
    })
  pool.on('connect', guardClient)
  for (const client of state._clients ?? []) guardClient(client)
}

/**
 * The `pg` module with a Pool whose connections are guarded from the moment they are opened, and
 * whose statements the database must answer within `deadlineMs` (0: no deadline).
 */
export function guardedPg(base: typeof pg, logger: Logger, deadlineMs: number): typeof pg {
  class GuardedPool extends base.Pool {
    constructor(config?: pg.PoolConfig) {
      super(config)
      guardPool(this, logger)
      boundStatements(this, deadlineMs, logger)
    }
  }
  return Object.create(base, { Pool: { value: GuardedPool } }) as typeof pg
}

/** Guards the pool of an app that installs the calendar with its own adapter (ours guards from the start). */
export function handleConnectionErrors(payload: Payload): void {
  const pool = (payload.db as unknown as { pool?: pg.Pool }).pool
  if (pool) guardPool(pool, payload.logger)
}

/** SQLSTATEs and socket codes of a database that is away: refused, reset, shutting down, starting, crashed. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTCONN',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  '53300',
])

/**
 * The same failures as messages, for wrappers that keep only the text: Payload's "cannot begin
 * transaction: ..." and APIError embed the original message and drop its code. A transaction that
 * cannot begin is never the request's doing: its only statement is BEGIN.
 */
const UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'connect ECONNREFUSED',
    // PostgreSQL removes its Unix socket's file when it stops: connecting then finds no file.
    'connect (ENOENT|EACCES) \\S*\\.s\\.PGSQL\\.',
    'read ECONNRESET',
    'write EPIPE',
    'not queryable',
    'terminating connection',
    'server closed the connection unexpectedly',
    'the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)',
    'too many clients already',
    'timeout exceeded when trying to connect',
    'cannot begin transaction',
    // PgBouncer's words (its SQLSTATE, 08P01, is also PostgreSQL's for a malformed message) when the
    // server behind it is away or it has no connection to lend in time.
    'server login has been failing',
    'pgbouncer cannot connect to server',
    'query_wait_timeout',
    'no more connections allowed',
    'server conn crashed',
    NO_ANSWER,
  ].join('|'),
  'i',
)

/**
 * Whether an error says the database is unavailable (the request may succeed when retried) rather
 * than that the request is wrong. Drivers, drizzle and Payload wrap the connection's error, so the
 * whole chain is searched (`errorChain`), wrappers that only repeat the message included.
 */
export function isConnectionLoss(error: unknown): boolean {
  return errorChain(error).some(
    (current) =>
      UNAVAILABLE_CODES.has(errorCode(current) ?? '') || UNAVAILABLE_MESSAGE.test(current.message),
  )
}

/**
 * An error and every error it wraps, outermost first: drivers, drizzle and Payload wrap the one that
 * tells what happened in `cause` (GraphQL what a resolver threw in `originalError`), and an
 * AggregateError holds several (a refused connection on every address of a host). Bounded, as a
 * chain may loop.
 */
export function errorChain(error: unknown): Error[] {
  const chain: Error[] = []
  const pending = [error]
  while (pending.length && chain.length < 32) {
    const current = pending.shift()
    if (!(current instanceof Error) || chain.includes(current)) continue
    chain.push(current)
    pending.push(current.cause, (current as { originalError?: unknown }).originalError)
    if (current instanceof AggregateError) pending.push(...current.errors)
  }
  return chain
}

/** An error's code (a SQLSTATE, a socket's `ECONNRESET`), when it has one. */
export function errorCode(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}

/** What Payload's REST and GraphQL say of a lost database. */
export const DATABASE_UNAVAILABLE = 'The database is unavailable; try again shortly.'

/** Seconds a client should wait before retrying a request the database could not serve. */
export const RETRY_AFTER_SECONDS = '5'

/**
 * PostgreSQL undid the transaction for another's sake: a deadlock (`40P01`) or a serialization
 * failure (`40001`). Nothing of it was written, and sending it again may succeed (docs/api.md §11).
 */
export function isWriteConflict(error: unknown): boolean {
  return errorChain(error).some((current) => CONFLICT_CODES.has(errorCode(current) ?? ''))
}

const CONFLICT_CODES = new Set(['40P01', '40001'])

/** Seconds a client should wait before sending again a write PostgreSQL undid for another's sake. */
export const CONFLICT_RETRY_AFTER_SECONDS = '1'

/** A hook of Payload's root `afterError`: how its REST answers a failure. */
export type AfterErrorHook = NonNullable<NonNullable<Config['hooks']>['afterError']>[number]

/**
 * An `afterError` hook that answers the failures `matches` picks with `status` and `message`, and
 * when to try again: the database lost (503) or a write undone for another's sake (409).
 */
const retryLater =
  (
    matches: (error: unknown) => boolean,
    status: number,
    retryAfter: string,
    message: string,
  ): AfterErrorHook =>
  ({ error, graphqlResult, req }) => {
    if (!matches(error)) return
    const headers = req.responseHeaders ?? new Headers()
    headers.set('Retry-After', retryAfter)
    req.responseHeaders = headers
    // GraphQL answers 200 and tells each error's status in its `extensions` (it said 500 here).
    if (graphqlResult)
      return {
        graphqlResult: {
          ...graphqlResult,
          message,
          extensions: { ...graphqlResult.extensions, statusCode: status },
        },
      }
    return { status, response: { errors: [{ message }] } }
  }

/**
 * Payload's own REST (`/api/events`, `/api/users/login`...) answers any failure as a 500; a lost
 * database is a 503 with `Retry-After` there too, as on the namespace (docs/api.md §11), so clients
 * and load balancers retry instead of giving up.
 */
export const databaseUnavailableAfterError = retryLater(
  isConnectionLoss,
  503,
  RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE,
)

/** Payload's REST answers a write PostgreSQL undid for another's sake as the namespace does: 409, to be sent again. */
export const writeConflictAfterError = retryLater(
  isWriteConflict,
  409,
  CONFLICT_RETRY_AFTER_SECONDS,
  'Another write to the same items ran at the same time; send it again.',
)
