import type pg from 'pg'

/** node-postgres' own fields (no public API tells them): the statement a connection waits on, its socket. */
type ClientState = {
  _activeQuery?: object | null
  connection?: { stream?: { destroy: (error: Error) => void } }
}
type PoolState = { _clients?: pg.PoolClient[]; ended?: boolean }

/** Connections whose waits are meant to be long: an advisory lock held for another's whole import. */
const unboundedClients = new WeakSet<pg.ClientBase>()

/** Running migrations (a schema change of a large table may take minutes): deadlines wait meanwhile. */
let suspended = 0

/** The message a connection given up on fails its statement with (`connectionErrors.ts` reads it as a lost database). */
export const NO_ANSWER = 'the database did not answer within'

/**
 * Gives up on a connection whose statement the database has not answered within `deadlineMs`: its
 * socket is closed, so the statement fails as a lost connection does, the request answers 503 with
 * `Retry-After` (docs/api.md §11), and the pool opens a new connection for the next one. Without it a
 * database that stops answering without closing anything (a frozen server, a network dropping
 * packets) kept every request waiting for good. Read off the connections every quarter of the
 * deadline, at most every second, rather than a timer for each statement: a statement is given up
 * on between `deadlineMs` and `deadlineMs` plus that period after it was first seen waiting.
 * The sweep stops once the pool has ended.
 */
export function boundStatements(
  pool: pg.Pool,
  deadlineMs: number,
  logger: { warn: (message: string) => void },
): void {
  if (deadlineMs <= 0) return
  const seen = new WeakMap<pg.PoolClient, { statement: object; since: number }>()
  const sweep = () => {
    if ((pool as unknown as PoolState).ended) return clearInterval(timer)
    const now = Date.now()
    for (const client of (pool as unknown as PoolState)._clients ?? []) {
      const state = client as unknown as ClientState
      const statement = state._activeQuery
      if (!statement || suspended || unboundedClients.has(client)) {
        seen.delete(client)
        continue
      }
      const waiting = seen.get(client)
      if (waiting?.statement !== statement) seen.set(client, { statement, since: now })
      else if (now - waiting.since >= deadlineMs) {
        seen.delete(client)
        const error = Object.assign(new Error(`${NO_ANSWER} ${deadlineMs} ms`), {
          code: 'ETIMEDOUT',
        })
        logger.warn(`database: ${error.message}; its connection is closed (DATABASE_DEADLINE_MS)`)
        state.connection?.stream?.destroy(error)
      }
    }
  }
  const timer = setInterval(sweep, Math.max(50, Math.min(1000, deadlineMs / 4))).unref()
}

/** Runs `work`, whose statements on `client` may wait as long as they need (for a lock another instance holds). */
export async function waitingWithoutDeadline<T>(
  client: pg.ClientBase,
  work: () => Promise<T>,
): Promise<T> {
  unboundedClients.add(client)
  try {
    return await work()
  } finally {
    unboundedClients.delete(client)
  }
}

/** Runs `work` (the migrations) with no deadline on any statement. */
export async function withoutDeadlines<T>(work: () => Promise<T>): Promise<T> {
  suspended++
  try {
    return await work()
  } finally {
    suspended--
  }
}
