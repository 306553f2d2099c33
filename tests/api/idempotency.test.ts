/**
 * Idempotent writes (docs/api.md §19): a retried write with the same Idempotency-Key gets the first
 * answer again and writes nothing; the same key on another request is a 422; concurrent requests
 * with one key make one write; keys belong to their user and last 24 hours.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique, userWithRole, type TestUser } from '../support/api'
import { testDatabase } from '../support/database'
import { api, eventBody } from '../support/writeFixtures'

let admin: string
let editor: TestUser
const db = testDatabase()

beforeAll(async () => {
  admin = await asAdmin()
  editor = await userWithRole('editor')
})

const post = (key: string, body: Record<string, unknown>, token = admin) =>
  api('/events', { method: 'POST', token, json: body, headers: { 'Idempotency-Key': key } })

async function countTitled(title: string): Promise<number> {
  const { rows } = await db.query(
    `select count(*)::int as n from events_locales where title = $1`,
    [title],
  )
  return rows[0].n
}

describe('Idempotency-Key', () => {
  it('answers a retry with the first answer and writes nothing more', async () => {
    const key = unique('key-')
    const body = eventBody({ status: 'publish' })
    const first = await post(key, body)
    expect(first.status).toBe(201)
    expect(first.headers.get('Idempotent-Replayed')).toBeNull()
    const again = await post(key, body)
    expect(again.status).toBe(201)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(await countTitled(body.title as string)).toBe(1)
  })

  it('refuses the same key on a different request with a 422, writing nothing', async () => {
    const key = unique('key-')
    expect((await post(key, eventBody())).status).toBe(201)
    const other = eventBody()
    const reply = await post(key, other)
    expect(reply.status).toBe(422)
    expect(reply.body.code).toBe('rest_idempotency_mismatch')
    expect(reply.body.data.status).toBe(422)
    expect(await countTitled(other.title as string)).toBe(0)
  })

  it('takes the language as part of the request: the /fr/ root is not the English write, and is i18n_language=fr', async () => {
    const created = await api('/events', {
      method: 'POST',
      token: admin,
      json: eventBody({ status: 'publish' }),
    })
    expect(created.status).toBe(201)
    const key = unique('key-')
    const title = unique('Titre ')
    const patch = (path: string) =>
      call(path, {
        method: 'PATCH',
        token: admin,
        json: { title },
        headers: { 'Idempotency-Key': key },
      })
    const english = await patch(`${NS}/events/${created.body.id}`)
    expect(english.status).toBe(200)
    const french = await patch(`/fr${NS}/events/${created.body.id}`)
    expect(french.status, JSON.stringify(french.body)).toBe(422)
    expect(french.body.code).toBe('rest_idempotency_mismatch')
    const frenchKey = unique('key-')
    const byRoot = await call(`/fr${NS}/events/${created.body.id}`, {
      method: 'PATCH',
      token: admin,
      json: { title },
      headers: { 'Idempotency-Key': frenchKey },
    })
    expect(byRoot.status).toBe(200)
    const byParam = await call(`${NS}/events/${created.body.id}?i18n_language=fr`, {
      method: 'PATCH',
      token: admin,
      json: { title },
      headers: { 'Idempotency-Key': frenchKey },
    })
    expect(byParam.status, JSON.stringify(byParam.body)).toBe(200)
    expect(byParam.headers.get('Idempotent-Replayed')).toBe('true')
    expect((await api(`/events/${created.body.id}?i18n_language=fr`)).body.title).toBe(title)
  })

  it('makes exactly one write from concurrent requests with one key, and all get its answer', async () => {
    const key = unique('key-')
    const body = eventBody()
    const replies = await Promise.all(Array.from({ length: 6 }, () => post(key, body)))
    expect(replies.map((reply) => reply.status)).toEqual(Array(6).fill(201))
    expect(new Set(replies.map((reply) => reply.body.id)).size).toBe(1)
    expect(
      replies.filter((reply) => reply.headers.get('Idempotent-Replayed') === 'true'),
    ).toHaveLength(5)
    expect(await countTitled(body.title as string)).toBe(1)
  })

  it('replays a trash: the retry of a DELETE gets its 200, not the 410 of an event already in the trash', async () => {
    const created = await post(unique('key-'), eventBody())
    const key = unique('key-')
    const trash = () =>
      api(`/events/${created.body.id}`, {
        method: 'DELETE',
        token: admin,
        headers: { 'Idempotency-Key': key },
      })
    const first = await trash()
    expect(first.status).toBe(200)
    const again = await trash()
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    // Without the key, the same request is a new one.
    expect(
      (await api(`/events/${created.body.id}`, { method: 'DELETE', token: admin })).status,
    ).toBe(410)
  })

  it('gives the key back when the first request fails, so a retry runs', async () => {
    const created = await post(unique('key-'), eventBody())
    expect(
      (await api(`/events/${created.body.id}`, { method: 'DELETE', token: admin })).status,
    ).toBe(200)
    const key = unique('key-')
    const trash = () =>
      api(`/events/${created.body.id}`, {
        method: 'DELETE',
        token: admin,
        headers: { 'Idempotency-Key': key },
      })
    expect((await trash()).status).toBe(410)
    const { rows } = await db.query(`select 1 from calendar_idempotency where key = $1`, [key])
    expect(rows).toHaveLength(0)
    expect((await trash()).status).toBe(410)
  })

  it('keeps keys per user: another user with the same key makes its own write', async () => {
    const key = unique('key-')
    const body = eventBody({ status: 'draft' })
    const mine = await post(key, body)
    const theirs = await post(key, body, editor.token)
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get('Idempotent-Replayed')).toBeNull()
    expect(theirs.body.id).not.toBe(mine.body.id)
  })

  it('forgets a key after 24 hours', async () => {
    const key = unique('key-')
    expect((await post(key, eventBody())).status).toBe(201)
    await db.query(
      `update calendar_idempotency set created_at = now() - interval '25 hours' where key = $1`,
      [key],
    )
    const later = eventBody()
    const reply = await post(key, later)
    expect(reply.status).toBe(201)
    expect(reply.headers.get('Idempotent-Replayed')).toBeNull()
    expect(await countTitled(later.title as string)).toBe(1)
  })

  it('refuses a key that is not 1 to 255 printable ASCII characters with a 400 naming the header', async () => {
    const reply = await post('x'.repeat(256), eventBody())
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe('rest_invalid_param')
    expect(Object.keys(reply.body.data.params)).toEqual(['Idempotency-Key'])
  })

  it('works on PUT and PATCH, and browsers may send it across origins', async () => {
    const created = await post(unique('key-'), eventBody())
    for (const method of ['PUT', 'PATCH']) {
      const key = unique('key-')
      const update = () =>
        api(`/events/${created.body.id}`, {
          method,
          token: admin,
          json: { title: unique('T ') },
          headers: { 'Idempotency-Key': key },
        })
      const first = await update()
      expect(first.status).toBe(200)
      expect((await update()).status).toBe(422)
    }
    const preflight = await fetch(
      `${process.env.CAL_TEST_URL ?? 'http://127.0.0.1:3000'}/api/cal/events/v1/events`,
      {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://example.org',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'idempotency-key',
        },
      },
    )
    expect(preflight.headers.get('Access-Control-Allow-Headers') ?? '').toMatch(/idempotency-key/i)
  })
})
