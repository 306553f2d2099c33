/**
 * A statement the instance gives up on (DATABASE_DEADLINE_MS, docs/operations.md "Settings") ends in
 * PostgreSQL too: its backend, waiting for a row lock another holds, is gone within moments of the
 * 503 rather than keeping its connection slot and its place in the lock's queue until the lock is
 * released (the embedded cluster checks its clients every second, client_connection_check_interval).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique } from '../support/api'
import { testDatabase } from '../support/database'
import { startSecondInstance, type Instance } from '../support/secondInstance'

const DEADLINE_MS = 1_000
const db = testDatabase()
let instance: Instance
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
  instance = await startSecondInstance({ DATABASE_DEADLINE_MS: String(DEADLINE_MS) })
}, 200_000)

afterAll(async () => instance?.stop())

/** The backends that wait for a lock `holder` holds. */
async function waitingOn(holder: number): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>(
    'select pid from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
    [holder],
  )
  return rows.map((row) => row.pid)
}

describe('a write given up on while it waits for a row lock', () => {
  it('is answered 503, and its statement no longer waits in PostgreSQL once answered', async () => {
    const title = unique('Locked ')
    const created = await call(`${NS}/events`, {
      method: 'POST',
      token: admin,
      json: {
        title,
        status: 'publish',
        start_date: '2031-06-01 10:00:00',
        end_date: '2031-06-01 11:00:00',
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = created.body.id as number

    const locking = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await locking.connect()
    try {
      await locking.query('begin')
      await locking.query('select id from events where id = $1 for update', [id])
      const holder = (await locking.query<{ pid: number }>('select pg_backend_pid() as pid'))
        .rows[0]!.pid
      const answer = await fetch(`${instance.base}${NS}/events/${id}`, {
        method: 'POST',
        headers: { Authorization: `JWT ${admin}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: unique('Retitled ') }),
        signal: AbortSignal.timeout(60_000),
      })
      expect(answer.status).toBe(503)
      expect(answer.headers.get('Retry-After')).toBeTruthy()
      // The lock is still held: only the end of the given-up backend empties the queue behind it.
      let waiting = await waitingOn(holder)
      for (let tries = 0; waiting.length > 0 && tries < 20; tries++) {
        await sleep(250)
        waiting = await waitingOn(holder)
      }
      expect(waiting, 'backends still waiting for the lock 5 s after the 503').toEqual([])
    } finally {
      await locking.query('rollback').catch(() => undefined)
      await locking.end()
    }
    const read = await call(`${NS}/events/${id}`)
    expect(read.body.title).toBe(title)
  }, 90_000)
})
