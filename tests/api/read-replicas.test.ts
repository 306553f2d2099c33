/**
 * With read replicas (`DATABASE_READ_REPLICAS`), the namespace's own hand-written reads of a GET (a
 * list's page ids and its prepared body; a slug's lookup) go to a replica, as Payload's
 * reads do, and a write's go to the primary, so that its answer reads what it wrote
 * (docs/operations.md). The "replica" here is the test database reached through a link the test can
 * break: the connection that carries a chosen statement dies, so only a read sent there fails.
 */
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WITHOUT_RATE_LIMITS } from '../../scripts/productionServer'
import { asAdmin, call, NS, unique } from '../support/api'
import { createEvent, qs } from '../support/fixtures'
import { PREPARED_BIND } from '../support/faultyLink'
import { startInstanceBehindLink, type LinkedInstance } from '../support/secondInstance'

const tag = unique('replica')
let replicated: LinkedInstance

beforeAll(async () => {
  replicated = await startInstanceBehindLink((linkUrl) => ({
    ...WITHOUT_RATE_LIMITS,
    DATABASE_READ_REPLICAS: linkUrl,
    // Payload reads on the primary for 2 s after any write of the instance: no job runs to write.
    JOBS_AUTORUN: 'false',
  }))
  await createEvent({ title: `${tag} on the replica`, start: '2035-03-10T18:00:00.000Z' })
}, 180_000)

afterAll(async () => replicated?.stop())

describe('reads on read replicas', () => {
  const list = `${NS}/events?${qs({ start_date: '2035-03-10', end_date: '2035-03-10' })}`
  const get = async (path: string) => {
    const response = await fetch(`${replicated.base}${path}`)
    return { status: response.status, headers: response.headers, body: await response.json() }
  }

  it('serves a list from the replica', async () => {
    const reply = await get(list)
    expect(reply.status).toBe(200)
    expect(reply.body.events.map((event: { title: string }) => event.title)).toContain(
      `${tag} on the replica`,
    )
  })

  it('sends the page query to the replica: when the replica link dies under it, the list is a 503, and the next one is served', async () => {
    replicated.link.resetNextSend(PREPARED_BIND)
    const lost = await get(list)
    expect(lost.status).toBe(503)
    expect(lost.headers.get('Retry-After')).toBeTruthy()
    const again = await get(list)
    expect(again.status).toBe(200)
    expect(again.body.total).toBeGreaterThanOrEqual(1)
  })

  it("sends a GET's slug lookup to the replica, and a write's to the primary", async () => {
    const event = await createEvent({ title: `${tag} by slug`, start: '2035-03-11T18:00:00.000Z' })
    const bySlug = `${NS}/events/by-slug/${event.slug}`
    const slugLookup = /_parent_id as id from events_locales/
    replicated.link.resetNextSend(slugLookup)
    const written = await fetch(`${replicated.base}${bySlug}`, {
      method: 'PATCH',
      headers: { Authorization: `JWT ${await asAdmin()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: 'Written on the primary' }),
    })
    expect(written.status).toBe(200)
    // Just after its write the instance reads on the primary, which has it, as Payload's own reads
    // do for 2 s: the armed fault is not taken.
    const justWritten = await get(bySlug)
    expect(justWritten.status).toBe(200)
    expect(justWritten.body.description).toContain('Written on the primary')
    await sleep(2_500)
    // Neither read took the armed fault: the next slug lookup sent to the replica does.
    const lost = await get(bySlug)
    expect(lost.status).toBe(503)
    const again = await get(bySlug)
    expect(again.status).toBe(200)
    expect(again.body.description).toContain('Written on the primary')
  })

  it('decides the change feed where its log is, on the primary: a replica without the new event does not make it a delete', async () => {
    const since = await get(`${NS}/changes?since=now`)
    expect(since.status).toBe(200)
    const event = await createEvent({
      title: `${tag} in the feed`,
      start: '2035-03-12T18:00:00.000Z',
    })
    // Payload reads on the primary for 2 s after a write of the instance (a test before wrote through it).
    await sleep(2_500)
    // A read of the event sent to the replica is lost, as a replica that has not had it yet would lose it.
    replicated.link.resetNextSend(new RegExp(`from "events"[^]*\\b${event.id}\\b`))
    try {
      const feed = await get(`${NS}/changes?since=${since.body.next_cursor}&per_page=500`)
      expect(feed.status, JSON.stringify(feed.body)).toBe(200)
      const ofEvent = feed.body.changes.filter(
        (change: { type: string; id: number }) => change.type === 'event' && change.id === event.id,
      )
      expect(ofEvent.map((change: { action: string }) => change.action)).toEqual(['upsert'])
    } finally {
      replicated.link.resetNextSend(/(?!)/)
    }
  })

  it("answers a caller whose API key's lookup loses the replica 503, not as anonymous, and signs them in next time", async () => {
    const key = randomUUID()
    const created = await call('/api/users', {
      method: 'POST',
      token: await asAdmin(),
      json: {
        email: `${unique('machine')}@calendar.test`,
        password: `password-${randomUUID()}`,
        role: 'editor',
        enableAPIKey: true,
        apiKey: key,
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    // Past the 2 s after the instance's last write (the test above), when its reads go to the primary.
    await sleep(2_100)
    const me = async () => {
      const response = await fetch(`${replicated.base}/api/users/me`, {
        headers: { Authorization: `users API-Key ${key}` },
      })
      return { status: response.status, headers: response.headers, body: await response.json() }
    }
    replicated.link.resetNextSend(/api_key_index/)
    try {
      const lost = await me()
      expect(lost.status, JSON.stringify(lost.body)).toBe(503)
      expect(lost.headers.get('Retry-After')).toBeTruthy()
    } finally {
      replicated.link.resetNextSend(/(?!)/)
    }
    const again = await me()
    expect(again.status).toBe(200)
    expect(again.body.user?.id).toBe(created.body.doc.id)
  })

  it('has /api/health answer 503 naming the replica while it is down, and 200 once it is back', async () => {
    expect(await get('/api/health')).toMatchObject({
      status: 200,
      body: { status: 'ok', databases: { primary: 'ok', replicas: ['ok'] } },
    })
    await replicated.link.down()
    try {
      const down = await get('/api/health')
      expect(down.status).toBe(503)
      expect(down.headers.get('Retry-After')).toBeTruthy()
      expect(down.body).toEqual({
        status: 'unavailable',
        databases: { primary: 'ok', replicas: ['unavailable'] },
      })
    } finally {
      await replicated.link.up()
    }
    await expect.poll(async () => (await get('/api/health')).status, { timeout: 15_000 }).toBe(200)
  })
})
