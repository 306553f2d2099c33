/**
 * The page body of event lists is a named prepared statement unless `DATABASE_PREPARED_STATEMENTS`
 * is `false`, for poolers that cannot keep them (docs/operations.md). An instance with it off is
 * reached through a link that kills the connection carrying any named statement's Bind: its lists
 * must come whole, every time. (With it on, tests/api/read-replicas.test.ts sees the Bind go.)
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WITHOUT_RATE_LIMITS } from '../../scripts/productionServer'
import { asAdmin, NS, unique } from '../support/api'
import { createEvent, qs } from '../support/fixtures'
import { PREPARED_BIND } from '../support/faultyLink'
import { startInstanceBehindLink, type LinkedInstance } from '../support/secondInstance'

const tag = unique('unnamed')
/**
 * Short for the test, long enough for any statement or new connection of this file's other tests on
 * a busy machine (it holds for the whole instance).
 */
const DEADLINE_MS = 8000
let unnamed: LinkedInstance

beforeAll(async () => {
  unnamed = await startInstanceBehindLink((linkUrl) => ({
    ...WITHOUT_RATE_LIMITS,
    DATABASE_URL: linkUrl,
    DATABASE_PREPARED_STATEMENTS: 'false',
    DATABASE_DEADLINE_MS: String(DEADLINE_MS),
  }))
  await createEvent({ title: `${tag} listed`, start: '2035-05-10T18:00:00.000Z' })
}, 180_000)

afterAll(async () => unnamed?.stop())

describe('DATABASE_PREPARED_STATEMENTS=false', () => {
  it('sends no named statement: lists and a single event come whole', async () => {
    unnamed.link.resetNextSend(PREPARED_BIND)
    // Each page size is an answer of its own, so each is made, not served from the answer caches.
    for (const perPage of [5, 6, 7, 8, 9, 10, 11]) {
      const reply = await fetch(
        `${unnamed.base}${NS}/events?${qs({ start_date: '2035-05-10', end_date: '2035-05-10', per_page: perPage })}`,
      )
      expect(reply.status).toBe(200)
      const body = await reply.json()
      expect(body.events.map((event: { title: string }) => event.title)).toContain(`${tag} listed`)
    }
    const listed = await (
      await fetch(
        `${unnamed.base}${NS}/events?${qs({ start_date: '2035-05-10', end_date: '2035-05-10' })}`,
      )
    ).json()
    const single = await fetch(`${unnamed.base}${NS}/events/${listed.events[0].id}`)
    expect(single.status).toBe(200)
  })
})

describe('a signed-in caller whose sign-in loses the database (all of this instance’s connections go through the link)', () => {
  it('is answered 503 with Retry-After by Payload’s REST and GraphQL, not as anonymous, and signed in again once it is back', async () => {
    const token = await asAdmin()
    const asAdministrator = (path: string, init: RequestInit = {}) =>
      fetch(`${unnamed.base}${path}`, {
        ...init,
        headers: { Authorization: `JWT ${token}`, 'Content-Type': 'application/json' },
      })
    const graphql = () =>
      asAdministrator('/api/graphql', {
        method: 'POST',
        body: JSON.stringify({ query: '{ meUser { user { id } } }' }),
      })
    const me = (await (await asAdministrator('/api/users/me')).json()) as { user: { id: number } }
    // A machine client signs in with an API key, which Payload's own strategy looks up: a user of
    // its own, so that no other test meets the key.
    const apiKey = randomUUID()
    const machine = await asAdministrator('/api/users', {
      method: 'POST',
      body: JSON.stringify({
        email: `${unique('machine')}@example.com`,
        password: randomUUID(),
        role: 'editor',
        enableAPIKey: true,
        apiKey,
      }),
    })
    expect(machine.status, await machine.clone().text()).toBe(201)
    const machineId = ((await machine.json()) as { doc: { id: number } }).doc.id
    const byKey = () =>
      fetch(`${unnamed.base}/api/users/me`, {
        headers: { Authorization: `users API-Key ${apiKey}` },
      })
    expect(((await (await byKey()).json()) as { user: { id: number } | null }).user?.id).toBe(
      machineId,
    )
    await unnamed.link.down()
    try {
      const answers = [
        await asAdministrator('/api/users/me'),
        await asAdministrator('/api/imports'),
        await graphql(),
        await byKey(),
        // A read sent as a POST: Payload signs in on a copy of the request's headers.
        await fetch(`${unnamed.base}/api/users/me`, {
          method: 'POST',
          headers: { Authorization: `JWT ${token}`, 'X-Payload-HTTP-Method-Override': 'GET' },
        }),
      ]
      expect(answers.map((answer) => [answer.status, answer.headers.get('Retry-After')])).toEqual([
        [503, '5'],
        [503, '5'],
        [503, '5'],
        [503, '5'],
        [503, '5'],
      ])
    } finally {
      await unnamed.link.up()
    }
    const again = await asAdministrator('/api/users/me')
    expect(again.status).toBe(200)
    expect(((await again.json()) as { user: { id: number } | null }).user?.id).toBe(me.user.id)
    expect(((await (await byKey()).json()) as { user: { id: number } | null }).user?.id).toBe(
      machineId,
    )
  }, 60_000)
})

describe('a database that stops answering without closing anything', () => {
  it('has /api/health answer 503 with Retry-After within its deadline, and 200 once it answers again', async () => {
    // The health check's statement is held on its way: the database never sees it, and says nothing.
    unnamed.link.holdNextSend(/select 1\0/)
    try {
      const frozen = await fetch(`${unnamed.base}/api/health`)
      expect([frozen.status, frozen.headers.get('Retry-After')]).toEqual([503, '5'])
    } finally {
      unnamed.link.release()
    }
    await expect
      .poll(async () => (await fetch(`${unnamed.base}/api/health`)).status, { timeout: 10_000 })
      .toBe(200)
  }, 60_000)

  it('answers 503 with Retry-After within DATABASE_DEADLINE_MS on every door, not never, and serves again once it answers', async () => {
    const token = await asAdmin()
    const query = qs({ start_date: '2035-05-10', end_date: '2035-05-10', search: unique('frozen') })
    // Bounded, so that a door that waits for good fails the test and the link is thawed after it.
    // A door may lose a statement or two of its own in turn before its 503 (a sign-in, its retry, the read).
    const signal = () => AbortSignal.timeout(80_000)
    const doors = {
      namespace: () => fetch(`${unnamed.base}${NS}/events?${query}`, { signal: signal() }),
      namespaceSignedIn: () =>
        fetch(`${unnamed.base}${NS}/events?${query}&status=draft`, {
          headers: { Authorization: `JWT ${token}` },
          signal: signal(),
        }),
      payloadRest: () =>
        fetch(`${unnamed.base}/api/events?limit=3&where[title][like]=${unique('frozen')}`, {
          headers: { Authorization: `JWT ${token}` },
          signal: signal(),
        }),
      graphql: () =>
        fetch(`${unnamed.base}/api/graphql`, {
          signal: signal(),
          method: 'POST',
          headers: { Authorization: `JWT ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ query: '{ Events(limit: 2) { totalDocs } }' }),
        }),
      // Payload's admin sent a signed-in editor to its sign-in form, as if their session had ended.
      admin: () =>
        fetch(`${unnamed.base}/admin/collections/events`, {
          // As a browser sends a page's navigation, so that Payload's CSRF rules read the cookie.
          headers: { Cookie: `payload-token=${token}`, 'Sec-Fetch-Site': 'same-origin' },
          redirect: 'manual',
          signal: signal(),
        }),
    }
    unnamed.link.freeze()
    try {
      const answers = await Promise.all(
        Object.entries(doors).map(async ([door, ask]) => {
          const asked = Date.now()
          const answer = await ask()
          // One deadline and the sweep's period, with room for a busy machine; a signed-in caller's
          // strategies each waited a deadline of their own (three for Payload's doors, six for the
          // namespace's second sign-in) before the first one's loss ended the others.
          const inTime = Date.now() - asked < 2 * DEADLINE_MS
          return [door, answer.status, answer.headers.get('Retry-After'), inTime]
        }),
      )
      expect(answers).toEqual([
        ['namespace', 503, '5', true],
        ['namespaceSignedIn', 503, '5', true],
        ['payloadRest', 503, '5', true],
        ['graphql', 503, '5', true],
        ['admin', 503, '5', true],
      ])
    } finally {
      unnamed.link.thaw()
    }
    for (const [door, ask] of Object.entries(doors))
      await expect
        .poll(async () => [door, (await ask()).status], { timeout: 15_000 })
        .toEqual([door, 200])
  }, 150_000)
})
