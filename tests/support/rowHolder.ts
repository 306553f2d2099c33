/**
 * Another writer, as a test plays it: a transaction of hand-written SQL on its own connection that holds
 * a row while writes through a door wait for it, and changes what it likes before letting it go.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'

type Statement = [string, unknown[]]

const rowLock = (locked: { table: string; id: number }): Statement => [
  `select id from ${locked.table} where id = $1 for update`,
  [locked.id],
]

/**
 * Runs `work` while a transaction takes `lock` in the database at `databaseUrl`; `work` gets the
 * holder's connection and its process id, and commits when it is done.
 */
async function holding<T>(
  databaseUrl: string,
  lock: Statement,
  work: (holder: pg.Client, pid: number) => Promise<T>,
): Promise<T> {
  const holder = new pg.Client({ connectionString: databaseUrl })
  await holder.connect()
  try {
    await holder.query('begin')
    await holder.query(...lock)
    const pid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
    return await work(holder, pid)
  } finally {
    await holder.query('rollback').catch(() => undefined)
    await holder.end()
  }
}

/**
 * Waits until `query` answers a row (what a write waits for has been reached), within `seconds`, or
 * until `ended` says the work is over without it. The queries read pg_locks, not pg_stat_activity:
 * the latter is read once per transaction, so it never shows a session that connected after the
 * holder's began (the backup's, in tests/api/backup.test.ts).
 */
async function until(
  holder: pg.Client,
  what: string,
  [query, values]: Statement,
  { seconds = 5, ended = () => false }: { seconds?: number; ended?: () => boolean } = {},
) {
  for (const deadline = Date.now() + seconds * 1000; ;) {
    if ((await holder.query(query, values)).rows.length) return
    if (ended()) throw new Error(`${what}: the work ended first`)
    if (Date.now() > deadline) throw new Error(what)
    await sleep(25)
  }
}

/**
 * Holds the row `locked` in the database at `databaseUrl` while `write` runs, runs `change` (a
 * statement and its values) once the write waits for that row, and answers what the write answered.
 */
export function changedWhileWaiting<T>(
  databaseUrl: string,
  locked: { table: string; id: number },
  change: Statement,
  write: () => Promise<T>,
): Promise<T> {
  return heldWhileWaiting(
    databaseUrl,
    rowLock(locked),
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
  lock: Statement,
  work: () => Promise<T>,
  meanwhile: (holder: pg.Client) => Promise<void>,
  seconds = 5,
): Promise<T> {
  return holding(databaseUrl, lock, async (holder, pid) => {
    const answer = work()
    let ended = false
    answer.then(
      () => (ended = true),
      () => (ended = true),
    )
    await until(
      holder,
      'the work never waited for the lock',
      ['select 1 from pg_locks where not granted and $1 = any(pg_blocking_pids(pid))', [pid]],
      { seconds, ended: () => ended },
    )
    await meanwhile(holder)
    await holder.query('commit')
    return await answer
  })
}

/**
 * Holds the row `locked` while `first` starts, then, once it waits for that row, `second`; lets the
 * row go once `second` waits for a lock too (that row, or one `first` holds): the writes meet in
 * this order, not the scheduler's. Answers what each answered.
 */
export async function queuedBehindRow<T>(
  databaseUrl: string,
  locked: { table: string; id: number },
  first: () => Promise<T>,
  second: () => Promise<T>,
): Promise<[T, T]> {
  return holding(databaseUrl, rowLock(locked), async (holder) => {
    const answers: Promise<T>[] = []
    for (const write of [first, second]) {
      answers.push(write())
      await until(holder, `write ${answers.length} never waited for a lock`, [
        'select 1 from (select distinct pid from pg_locks where not granted) waiting having count(*) >= $1',
        [answers.length],
      ])
    }
    await holder.query('commit')
    const [one, two] = await Promise.all(answers)
    return [one!, two!]
  })
}
