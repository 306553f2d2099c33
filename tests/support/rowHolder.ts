/**
 * Another writer, as a test plays it: a transaction of hand-written SQL on its own connection that holds
 * a row while a write through a door waits for it, and changes what it likes before letting it go.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'

/**
 * Holds the row `locked` in the database at `databaseUrl` while `write` runs, runs `change` (a
 * statement and its values) once the write waits for that row, and answers what the write answered.
 */
export function changedWhileWaiting<T>(
  databaseUrl: string,
  locked: { table: string; id: number },
  change: [string, unknown[]],
  write: () => Promise<T>,
): Promise<T> {
  return heldWhileWaiting(
    databaseUrl,
    [`select id from ${locked.table} where id = $1 for update`, [locked.id]],
    write,
    async (holder) => void (await holder.query(...change)),
  )
}

/**
 * Takes `lock` (a statement and its values) in a transaction on a connection of its own while `work`
 * runs, runs `meanwhile` once a session of `work` waits for that lock (within `seconds`), lets it go
 * and answers what `work` answered: the test, not the scheduler, orders `meanwhile` before what
 * `work` does next.
 */
export async function heldWhileWaiting<T>(
  databaseUrl: string,
  lock: [string, unknown[]],
  work: () => Promise<T>,
  meanwhile: (holder: pg.Client) => Promise<void>,
  seconds = 5,
): Promise<T> {
  const holder = new pg.Client({ connectionString: databaseUrl })
  await holder.connect()
  try {
    await holder.query('begin')
    await holder.query(...lock)
    const pid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
    const answer = work()
    let ended = false
    answer.then(
      () => (ended = true),
      () => (ended = true),
    )
    for (const deadline = Date.now() + seconds * 1000; ;) {
      // pg_locks, not pg_stat_activity: the latter is read once per transaction, so it never shows a
      // session that connected after this one began (the backup's, in tests/api/backup.test.ts).
      const { rows } = await holder.query(
        'select 1 from pg_locks where not granted and $1 = any(pg_blocking_pids(pid))',
        [pid],
      )
      if (rows.length) break
      if (ended) throw new Error('the work ended without waiting for the lock')
      if (Date.now() > deadline) throw new Error('the work never waited for the lock')
      await sleep(25)
    }
    await meanwhile(holder)
    await holder.query('commit')
    return await answer
  } finally {
    await holder.query('rollback').catch(() => undefined)
    await holder.end()
  }
}
