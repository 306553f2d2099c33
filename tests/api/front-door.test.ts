/**
 * The front door (docs/performance.md): an anonymous answer the namespace has made is served again by
 * the HTTP server in front of Next, at the same revision only, with the headers and body the namespace
 * sent; signed-in callers, cookies and conditional requests always reach the namespace, and a write
 * is seen by the next read. The test server reports its query counts, so kept answers say
 * `X-Answered-By: front-door`.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { asAdmin, BASE_URL, NS, unique } from '../support/api'
import { createEvent, qs } from '../support/fixtures'

/** Headers that belong to one response or one request, not to the answer. */
const PER_RESPONSE = [
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'x-query-count',
  'x-answered-by',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-request-id',
]

type Read = {
  status: number
  headers: Record<string, string>
  body: string
  front: boolean
  queries: number
  requestId: string | null
}

async function read(path: string, headers: Record<string, string> = {}): Promise<Read> {
  const response = await fetch(`${BASE_URL}${path}`, { headers })
  const all = Object.fromEntries(
    [...response.headers].filter(([name]) => !PER_RESPONSE.includes(name)),
  )
  return {
    status: response.status,
    headers: all,
    body: await response.text(),
    front: response.headers.get('X-Answered-By') === 'front-door',
    queries: Number(response.headers.get('X-Query-Count')),
    requestId: response.headers.get('X-Request-Id'),
  }
}

/** Headers Next adds for its admin (docs/performance.md, "Made answers without Next"). */
const NEXT_ONLY = ['accept-ch', 'critical-ch']
const NEXT_VARY = new Set([
  'Sec-CH-Prefers-Color-Scheme',
  'rsc',
  'next-router-state-tree',
  'next-router-prefetch',
  'next-router-segment-prefetch',
])
const withoutNextVary = (vary: string) =>
  vary
    .split(', ')
    .filter((name) => !NEXT_VARY.has(name))
    .join(', ')

/** A list of this test's own events, on a URL nobody else reads. */
function listOf(tag: string, extra: Record<string, string> = {}): string {
  return `${NS}/events?${qs({ search: tag, start_date: '2035-03-01', end_date: '2035-03-31', ...extra })}`
}

const titlesOf = (reply: Read) =>
  (JSON.parse(reply.body) as { events: { title: string }[] }).events.map((event) => event.title)

/**
 * The front door keeps an answer only while its instance knows the revision PostgreSQL pushes: an
 * instance starts listening at its first namespace read and knows the revision some time later. On a
 * server just started, the tests wait until a repeated anonymous read is served by the front door.
 */
beforeAll(async () => {
  const path = listOf(unique('listening'))
  await vi.waitFor(async () => expect((await read(path)).front).toBe(true), {
    timeout: 30_000,
    interval: 100,
  })
})

describe('the front door', () => {
  it('serves an anonymous answer again without a query, with the status, headers and body the namespace sent', async () => {
    const tag = unique('front')
    await createEvent({ title: `${tag} concert`, start: '2035-03-10T18:00:00.000Z' })
    const variants: Record<string, string>[] = [
      {},
      { Origin: 'https://www.example.org', 'Accept-Encoding': 'gzip' },
    ]
    for (const headers of variants) {
      const path = listOf(tag)
      // The second variant's first read is made from the namespace's own cache: other headers, same answer.
      const first = await read(path, headers)
      expect(first.front).toBe(false)
      const again = await read(path, headers)
      expect(again.front, JSON.stringify(headers)).toBe(true)
      expect(again.queries).toBe(0)
      expect(again.status).toBe(first.status)
      expect(again.headers).toEqual(first.headers)
      // Each answer carries its own request's id, a kept one too.
      expect(again.requestId).toMatch(/^[0-9a-f-]{36}$/)
      expect(again.requestId).not.toBe(first.requestId)
      expect(again.body).toBe(first.body)
      expect(titlesOf(again)).toEqual([`${tag} concert`])
    }
  })

  it('keeps answers apart by the headers that shape them: another origin is answered by the namespace first', async () => {
    const tag = unique('origin')
    await createEvent({ title: `${tag} talk`, start: '2035-03-11T18:00:00.000Z' })
    const path = listOf(tag)
    await read(path, { Origin: 'https://one.example.org' })
    expect((await read(path, { Origin: 'https://one.example.org' })).front).toBe(true)
    const other = await read(path, { Origin: 'https://two.example.org' })
    expect(other.front).toBe(false)
    expect(titlesOf(other)).toEqual([`${tag} talk`])
  })

  it('serves the next read after a write from the namespace, with the write in it', async () => {
    const tag = unique('fresh')
    const event = await createEvent({ title: `${tag} before`, start: '2035-03-12T18:00:00.000Z' })
    const path = listOf(tag)
    await read(path)
    expect((await read(path)).front).toBe(true)
    const renamed = await fetch(`${BASE_URL}/api/events/${event.id}`, {
      method: 'PATCH',
      headers: { Authorization: `JWT ${await asAdmin()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: `${tag} after` }),
    })
    expect(renamed.status).toBe(200)
    const next = await read(path)
    expect(next.front).toBe(false)
    expect(titlesOf(next)).toEqual([`${tag} after`])
  })

  it('never serves a kept anonymous answer to a signed-in caller, by header or by cookie, nor to a conditional request', async () => {
    const tag = unique('private')
    await createEvent({ title: `${tag} public`, start: '2035-03-13T18:00:00.000Z' })
    await createEvent({ title: `${tag} draft`, start: '2035-03-14T18:00:00.000Z', status: 'draft' })
    // Editors see every status but trash without asking; anonymous callers see what is published.
    const path = listOf(tag)
    const anonymous = await read(path)
    expect((await read(path)).front).toBe(true)
    expect(titlesOf(anonymous)).toEqual([`${tag} public`])

    const token = await asAdmin()
    const signedIn = await read(path, { Authorization: `JWT ${token}` })
    expect(signedIn.front).toBe(false)
    expect(signedIn.headers['cache-control']).toMatch(/private/)
    expect(titlesOf(signedIn)).toEqual([`${tag} public`, `${tag} draft`])
    // Whatever a cookie is for, the namespace decides what it unlocks.
    expect((await read(path, { Cookie: `payload-token=${token}` })).front).toBe(false)
    const conditional = await fetch(`${BASE_URL}${path}`, {
      headers: { 'If-None-Match': anonymous.headers.etag! },
    })
    expect(conditional.status).toBe(304)
    expect(conditional.headers.get('X-Answered-By')).not.toBe('front-door')
  })

  // As after every write, when every kept answer is gone and a popular page is read again at once.
  it('answers a crowd reading a URL at once with one answer made: the others wait for it and are served it', async () => {
    const tag = unique('crowd')
    await createEvent({ title: `${tag} show`, start: '2035-03-15T18:00:00.000Z' })
    const path = listOf(tag)
    const replies = await Promise.all(Array.from({ length: 24 }, () => read(path)))
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200))
    expect(new Set(replies.map((reply) => reply.body)).size).toBe(1)
    expect(titlesOf(replies[0]!)).toEqual([`${tag} show`])
    expect(replies.filter((reply) => !reply.front)).toHaveLength(1)
  })

  it('lets a crowd reading a URL whose answer is not kept through, each answered', async () => {
    const path = `${NS}/events/${2_000_000_000 - Math.floor(Math.random() * 1000)}`
    const replies = await Promise.all(Array.from({ length: 24 }, () => read(path)))
    for (const reply of replies) {
      expect(reply.status).toBe(404)
      expect(reply.front).toBe(false)
      expect(JSON.parse(reply.body).code).toBe('rest-event-not-found')
    }
  })

  it('leaves errors and writes to the namespace', async () => {
    const bad = `${NS}/events?${qs({ per_page: 'many', search: unique('bad') })}`
    for (let n = 0; n < 2; n++) {
      const reply = await read(bad)
      expect(reply.status).toBe(400)
      expect(reply.front).toBe(false)
      expect(JSON.parse(reply.body).code).toBe('rest_invalid_param')
    }
  })
  it("answers a HEAD with the Content-Length of its GET's body, anonymous (its GET kept) and signed in", async () => {
    const tag = unique('head')
    await createEvent({ title: `${tag} café ☕ — قهوة`, start: '2035-03-15T18:00:00.000Z' })
    const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer()).length
    const head = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${BASE_URL}${path}`, { method: 'HEAD', headers })
    const kept = listOf(tag)
    await read(kept)
    const keptGet = await fetch(`${BASE_URL}${kept}`)
    expect(keptGet.headers.get('X-Answered-By')).toBe('front-door')
    // The front door keeps GETs only: the namespace makes the HEAD, without Next.
    const keptHead = await head(kept)
    expect(keptHead.headers.get('X-Answered-By')).toBe('namespace')
    expect(keptHead.status).toBe(200)
    expect(keptHead.headers.get('Content-Length')).toBe(String(await bytesOf(keptGet)))
    // Signed in: never kept, made for each request.
    const token = await asAdmin()
    const signedIn = { Authorization: `JWT ${token}` }
    const madeGet = await fetch(`${BASE_URL}${kept}`, { headers: signedIn })
    const madeHead = await head(kept, signedIn)
    expect(madeHead.headers.get('X-Answered-By')).toBe('namespace')
    expect(madeHead.status).toBe(200)
    expect(madeHead.headers.get('Content-Length')).toBe(String(await bytesOf(madeGet)))
    expect(await madeHead.text()).toBe('')
  })

  it("hands the namespace's other requests to it without Next, and everything else to Next", async () => {
    const tag = unique('direct')
    const event = await createEvent({ title: `${tag} recital`, start: '2035-03-12T18:00:00.000Z' })
    const token = await asAdmin()
    const answeredBy = (response: Response) => response.headers.get('X-Answered-By')
    const made = await fetch(`${BASE_URL}${listOf(tag)}`)
    expect(answeredBy(made)).toBe('namespace')
    expect(titlesOf({ body: await made.text() } as Read)).toEqual([`${tag} recital`])
    const signedIn = await fetch(`${BASE_URL}${NS}/events/${event.id}`, {
      headers: { Authorization: `JWT ${token}` },
    })
    expect(answeredBy(signedIn)).toBe('namespace')
    expect((await signedIn.json()).title).toBe(`${tag} recital`)
    const french = await fetch(`${BASE_URL}/fr${NS}/events/${event.id}`)
    expect(answeredBy(french)).toBe('namespace')
    expect(french.status).toBe(200)
    const head = await fetch(`${BASE_URL}${NS}/events/${event.id}`, {
      method: 'HEAD',
      headers: { Authorization: `JWT ${token}` },
    })
    expect(answeredBy(head)).toBe('namespace')
    expect(head.status).toBe(200)
    expect(head.headers.get('ETag')).toBe(signedIn.headers.get('ETag'))
    expect(await head.text()).toBe('')
    // An encoded character: Next's own handling of the path comes first, and the namespace answers as ever.
    const encoded = await fetch(`${BASE_URL}${NS}/events/by-slug/${tag}%2Dgone`)
    expect(answeredBy(encoded)).toBeNull()
    expect(encoded.status).toBe(400)
    expect((await encoded.json()).data.params.slug).toBe('No event has this slug.')
    const write = await fetch(`${BASE_URL}${NS}/events/${event.id}`, {
      method: 'POST',
      headers: { Authorization: `JWT ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: 'Written without Next' }),
    })
    expect(answeredBy(write)).toBe('namespace')
    expect(write.status).toBe(200)
    expect((await write.json()).description).toContain('Written without Next')
    // A POST that asks to be read as a GET: Payload's router turns it into one, through Next.
    const readByPost = await fetch(`${BASE_URL}${NS}/events/${event.id}`, {
      method: 'POST',
      headers: { 'X-HTTP-Method-Override': 'GET', 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(answeredBy(readByPost)).toBeNull()
    expect(readByPost.status).toBe(200)
    expect((await readByPost.json()).title).toBe(`${tag} recital`)
    // Outside the namespace: Payload's own REST API, through Next.
    const payloadRest = await fetch(`${BASE_URL}/api/events/${event.id}`, {
      headers: { Authorization: `JWT ${token}` },
    })
    expect(answeredBy(payloadRest)).toBeNull()
    expect(payloadRest.status).toBe(200)
  })
  it("answers without Next with the headers Payload's router gives, and leaves the routes it lists first to it", async () => {
    const tag = unique('router')
    const event = await createEvent({ title: `${tag} quartet`, start: '2035-04-02T18:00:00.000Z' })
    const slug = String(event.slug)
    const headers = { Origin: 'https://website.example' }
    const direct = await fetch(`${BASE_URL}${NS}/events/by-slug/${slug}`, { headers })
    expect(direct.headers.get('X-Answered-By')).toBe('namespace')
    // An encoded character in the path takes it through Next and Payload's router.
    const routed = await fetch(`${BASE_URL}${NS}/events/by-slug/${slug.replace(/-/g, '%2D')}`, {
      headers,
    })
    expect(routed.headers.get('X-Answered-By')).toBeNull()
    expect(direct.status).toBe(200)
    expect(await direct.text()).toBe(await routed.text())
    expect(direct.headers.get('Access-Control-Allow-Methods')).toBeTruthy()
    for (const name of [
      'Access-Control-Allow-Origin',
      'Access-Control-Allow-Credentials',
      'Access-Control-Allow-Methods',
      'Access-Control-Allow-Headers',
      'Access-Control-Expose-Headers',
      'Content-Type',
      'Cache-Control',
    ])
      expect(direct.headers.get(name), name).toBe(routed.headers.get(name))
    // The API reference is an endpoint Payload tries before the namespace's own.
    const reference = await fetch(`${BASE_URL}${NS}/reference`)
    expect(reference.status).toBe(200)
    expect(reference.headers.get('Content-Type')).toMatch(/^text\/html/)
  })
  it('sends a made answer, its HEAD, its 304 and an error with the headers and bytes Next and Payload send', async () => {
    const tag = unique('bytes')
    // Its slug ASCII (a path with encoded characters goes through Next), its title not.
    const slug = `${tag}-cafe`
    await createEvent({ title: `${tag} café ☕ — قهوة`, slug, start: '2035-04-09T18:00:00.000Z' })
    const headers = { Origin: 'https://website.example' }
    /**
     * A slug's event without Next and, the slug encoded, through Next and Payload's router, each with
     * `extra` headers of its own. Next adds its headers for the admin (docs/performance.md, "Made
     * answers without Next"); the revision's ETag names the URL, which differs.
     */
    const bothDoors = async (
      slugged: string,
      extra: (door: string) => HeadersInit = () => ({}),
    ) => {
      const path = `${BASE_URL}${NS}/events/by-slug/`
      const ask = (door: string, at: string, method = 'GET') =>
        fetch(`${path}${at}`, { method, headers: { ...headers, ...extra(door) } })
      const doors = async (method?: string) => {
        const direct = await ask('direct', slugged, method)
        const routed = await ask('routed', slugged.replace(/-/g, '%2D'), method)
        expect(direct.headers.get('X-Answered-By')).toBe('namespace')
        expect(routed.headers.get('X-Answered-By')).toBeNull()
        const [directBody, routedBody] = await Promise.all(
          [direct, routed].map(async (r) => Buffer.from(await r.arrayBuffer())),
        )
        expect(directBody!.equals(routedBody!)).toBe(true)
        expect(direct.status).toBe(routed.status)
        const kept = (response: Response) =>
          [...response.headers]
            .filter(([name]) => ![...PER_RESPONSE, ...NEXT_ONLY, 'etag'].includes(name))
            .map(([name, value]) => [name, name === 'vary' ? withoutNextVary(value) : value])
            .filter(([, value]) => value !== '')
        expect(kept(direct)).toEqual(kept(routed))
        return { direct, routed, body: directBody!.toString(), bytes: directBody!.length }
      }
      const get = await doors()
      const head = await doors('HEAD')
      // A HEAD says how long its GET's body is (docs/api.md §14.1).
      for (const { direct } of [get, head]) {
        const length = direct.headers.get('Content-Length')
        expect(length === null ? 0 : Number(length)).toBe(get.bytes)
      }
      return { get, head }
    }
    const made = await bothDoors(slug)
    expect(made.get.direct.status).toBe(200)
    // Content-Length counts bytes, not characters.
    expect(made.get.body).toContain('café ☕ — قهوة')
    expect(Number(made.get.direct.headers.get('Content-Length'))).toBe(
      Buffer.byteLength(made.get.body),
    )
    expect(made.head.direct.status).toBe(200)
    expect(made.head.body).toBe('')
    const tags = {
      direct: made.get.direct.headers.get('ETag')!,
      routed: made.get.routed.headers.get('ETag')!,
    }
    const unchanged = await bothDoors(slug, (door) => ({
      'If-None-Match': tags[door as keyof typeof tags],
    }))
    expect(unchanged.get.direct.status).toBe(304)
    const missing = await bothDoors(`${tag}-none`)
    expect(missing.get.direct.status).toBe(400)
    expect(JSON.parse(missing.get.body).data.params.slug).toBe('No event has this slug.')
  })
})
