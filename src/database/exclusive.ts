import { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'
import type pg from 'pg'
import { requestQuery } from './rawQuery'
import { waitingWithoutDeadline } from './statementDeadline'

/**
 * Runs `work` while holding a PostgreSQL advisory lock named `name`, waiting for any other holder
 * first: instances of the app (and runs of a job) that share the database then do the work one after
 * the other. The lock lives in a transaction of its own, on a connection of its own, so the work's
 * own transaction is unaffected, and it goes with that connection if the instance dies.
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
  let open = false
  try {
    // A transaction's lock, held by a transaction left open on this connection: behind a pooler in
    // transaction mode a session's lock stayed on whichever server connection took it, its unlock
    // went to another, and the lock was held for good. Read committed whatever the server's default,
    // so that the open transaction, which writes nothing, keeps no snapshot that holds back vacuum;
    // and no idle timeout of the server's ends it, and its lock, while the work still runs (a
    // pooler's own, PgBouncer's `idle_transaction_timeout`, is the operator's: docs/operations.md).
    await client.query('begin isolation level read committed')
    open = true
    await client.query('set local idle_in_transaction_session_timeout = 0')
    // Another instance may hold the lock for a whole import: a wait, not a database that stopped answering.
    if (mode === 'wait')
      await waitingWithoutDeadline(client, () =>
        client.query('select pg_advisory_xact_lock(hashtext($1))', [name]),
      )
    else {
      const { rows } = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_xact_lock(hashtext($1)) as locked',
        [name],
      )
      if (!rows[0]?.locked) {
        await client.query('rollback')
        open = false
        return { ran: false }
      }
    }
    try {
      return { ran: true, result: await work() }
    } finally {
      await client.query('commit').then(
        () => (open = false),
        () => undefined,
      )
    }
  } finally {
    // A connection whose transaction did not end may still hold the lock: the pool must not lend it again.
    client.release(open ? new Error("The lock's transaction did not end.") : undefined)
  }
}

/**
 * Holds the lock named `key` to the end of the request's transaction. A check against stored data
 * and the write it decides (a slug or a name no other item has, a category's place in its tree),
 * which no constraint of the schema makes whole, then take turns with any other write of the same
 * key: the second waits for the first's commit and reads what it wrote. Outside a transaction (the
 * admin's form checking a value as it is typed) there is no write to take turns with.
 */
export async function holdUntilCommit(req: PayloadRequest, key: string): Promise<void> {
  if (req.transactionID === undefined) return
  await requestQuery(
    req,
    sql`select pg_advisory_xact_lock(hashtext('calendar_keys'), hashtext(${key}))`,
  )
}
