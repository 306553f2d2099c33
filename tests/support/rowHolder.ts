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
export async function changedWhileWaiting<T>(
  databaseUrl: string,
  locked: { table: string; id: number },
  change: [string, unknown[]],
  write: () => Promise<T>,
): Promise<T> {
  const holder = new pg.Client({ connectionString: databaseUrl })
  await holder.connect()
  try {
    await holder.query('begin')
    await holder.query(`select id from ${locked.table} where id = $1 for update`, [locked.id])
    const pid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
    const answer = write()
    for (let tries = 0; ; tries++) {
      const { rows } = await holder.query(
        'select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
        [pid],
      )
      if (rows.length) break
      if (tries > 200) throw new Error('the write never waited for the lock')
      await sleep(25)
    }
    await holder.query(...change)
    await holder.query('commit')
    return await answer
  } finally {
    await holder.query('rollback').catch(() => undefined)
    await holder.end()
  }
}
