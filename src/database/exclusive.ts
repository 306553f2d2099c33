import type { Payload } from 'payload'
import type pg from 'pg'
import { waitingWithoutDeadline } from './statementDeadline'

/**
 * Runs `work` while holding a PostgreSQL advisory lock named `name`, waiting for any other holder
 * first: instances of the app (and runs of a job) that share the database then do the work one after
 * the other. The lock lives on a connection of its own, so the work's own transaction is unaffected,
 * and it goes with that session if the instance dies.
 */
export async function exclusively<T>(
  payload: Payload,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  return ((await holding(payload, name, 'wait', work)) as { result: T }).result
}

/** `work` under the lock `name` if no one holds it now, else nothing: `{ ran: false }`. */
export async function unlessBusy<T>(
  payload: Payload,
  name: string,
  work: () => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  return holding(payload, name, 'try', work)
}

async function holding<T>(
  payload: Payload,
  name: string,
  mode: 'wait' | 'try',
  work: () => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  const pool = (payload.db as unknown as { pool: pg.Pool }).pool
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    // Another instance may hold the lock for a whole import: a wait, not a database that stopped answering.
    if (mode === 'wait')
      await waitingWithoutDeadline(client, () =>
        client.query('select pg_advisory_lock(hashtext($1))', [name]),
      )
    else {
      const { rows } = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock(hashtext($1)) as locked',
        [name],
      )
      if (!rows[0]?.locked) return { ran: false }
    }
    try {
      return { ran: true, result: await work() }
    } finally {
      await client
        .query('select pg_advisory_unlock(hashtext($1))', [name])
        .catch((error: Error) => {
          broken = error
        })
    }
  } finally {
    // A connection whose unlock failed may still hold the lock: the pool must not lend it again.
    client.release(broken)
  }
}
