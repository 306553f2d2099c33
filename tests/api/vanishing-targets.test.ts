/**
 * A namespace write whose item another writer deletes after the route found it, while the write waits
 * for its turn (docs/api.md §11, "Writes at once"), is answered as a write to an id no item has: the
 * resource's own 404 or 400 naming `id` (it said `rest_invalid_request`, "Not Found").
 */
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique, type Reply } from '../support/api'
import { createCategory, createEvent } from '../support/fixtures'

let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

/**
 * Holds the row `locked` of `table` while `write` runs, deletes the row `gone` once the write waits
 * for that lock, and answers what the write answered.
 */
async function deletedWhileWaiting(
  locked: { table: string; id: number },
  gone: { table: string; id: number },
  write: () => Promise<Reply>,
): Promise<Reply> {
  const holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
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
    await holder.query(`delete from ${gone.table} where id = $1`, [gone.id])
    await holder.query('commit')
    return await answer
  } finally {
    await holder.query('rollback').catch(() => undefined)
    await holder.end()
  }
}

const post = (path: string, json: Record<string, unknown>) => () =>
  call(`${NS}${path}`, { method: 'POST', token: admin, json })

describe('a write whose item is deleted while it waits for its turn', () => {
  it('on an event is the 404 of an event that does not exist', async () => {
    const { id } = await createEvent({ title: unique('Vanishing ') })
    const events = { table: 'events', id }
    const answer = await deletedWhileWaiting(events, events, post(`/events/${id}`, { title: 'x' }))
    expect(answer.status, JSON.stringify(answer.body)).toBe(404)
    expect(answer.body).toMatchObject({
      code: 'rest-event-not-found',
      message: `Event with ID ${id} does not exist.`,
    })
  })

  it('on a category is the 400 naming its id', async () => {
    const { id } = await createCategory({ name: unique('vanishing') })
    const row = { table: 'event_categories', id }
    const answer = await deletedWhileWaiting(
      row,
      row,
      post(`/categories/${id}`, { description: 'x' }),
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { id: expect.any(String) } },
    })
  })

  it('deleting a category whose child holds it back is the 400 naming its id', async () => {
    const parent = await createCategory({ name: unique('vanishing parent') })
    const child = await createCategory({ name: unique('held child'), parent: parent.id })
    const answer = await deletedWhileWaiting(
      { table: 'event_categories', id: child.id },
      { table: 'event_categories', id: parent.id },
      () => call(`${NS}/categories/${parent.id}?force=true`, { method: 'DELETE', token: admin }),
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { id: expect.any(String) } },
    })
  })
})
