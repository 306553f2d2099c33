import type { Payload } from 'payload'
import type pg from 'pg'

/**
 * Runs `work` while holding a PostgreSQL advisory lock named `name`, waiting for any other holder
 * first: instances of the app (and runs of a job) that share the database then do the work one after
 * the other. The lock lives on a connection of its own, so the work's own transaction is unaffected,
 * and it goes with that session if the instance dies.
 */
export async function exclusively<T>(payload: Payload, name: string, work: () => Promise<T>): Promise<T> {
  const pool = (payload.db as unknown as { pool: pg.Pool }).pool
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [name])
    try {
      return await work()
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [name]).catch((error: Error) => {
        broken = error
      })
    }
  } finally {
    // A connection whose unlock failed may still hold the lock: the pool must not lend it again.
    client.release(broken)
  }
}
