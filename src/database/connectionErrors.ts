import type { Payload } from 'payload'

type Client = { on: (event: 'error', listener: (error: Error) => void) => void }
type Pool = Client & { on: (event: 'connect', listener: (client: Client) => void) => void }

/**
 * When the database drops a connection (a crash, a restart, an administrator's terminate),
 * node-postgres emits `error` on the connection and, if it was idle, on the pool; an `error` event
 * nobody listens to is an uncaught exception, which ends a plain Node process. The pool has already
 * discarded an idle connection and opens a new one when needed: a warning is all it takes. A connection
 * lent out (a transaction) reports the failure to its borrower, whose query fails.
 */
export function handleConnectionErrors(payload: Payload): void {
  const pool = (payload.db as unknown as { pool?: Pool }).pool
  pool?.on('error', (error) => payload.logger.warn(`database connection lost: ${error.message}`))
  pool?.on('connect', (client) => client.on('error', () => undefined))
}
