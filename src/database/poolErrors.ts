import type { Payload } from 'payload'

type EventSource = { on: (event: 'error', listener: (error: Error) => void) => void }

/**
 * When the database drops an idle pooled connection (a crash, a restart, an administrator's
 * terminate), node-postgres emits `error` on the pool; without a listener that is an uncaught
 * exception, which ends a plain Node process. The pool has already discarded the connection and opens
 * a new one when needed: a warning is all it takes.
 */
export function logPoolErrors(payload: Payload): void {
  const pool = (payload.db as unknown as { pool?: EventSource }).pool
  pool?.on('error', (error) => payload.logger.warn(`database connection lost: ${error.message}`))
}
