/**
 * What an operator sees (docs/operations.md, "Metrics" and "Request ids"): `GET /metrics` in
 * Prometheus' text format, scraped over HTTP after a few requests, with counters by route pattern and
 * status that moved; who may scrape it; and each answer's `X-Request-Id`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, call, NS, unique } from '../support/api'
import { createVenue } from '../support/fixtures'
import { scrape, total, type Sample } from '../support/metrics'
import { startSecondInstance, type Instance } from '../support/secondInstance'

/** Long enough for a scheduled job's write or a notification that comes late on a busy machine. */
const POLL = { timeout: 10_000 }

async function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(url, { headers })
  await response.arrayBuffer()
  return response
}

describe('metrics', () => {
  it('counts and times requests by route pattern and status, never by the raw URL', async () => {
    const before = await scrape()
    const missing = `${BASE_URL}${NS}/events/987654321`
    for (let n = 0; n < 3; n++) expect((await get(missing)).status).toBe(404)
    expect((await get(`${BASE_URL}${NS}/categories?search=${unique('m')}`)).status).toBe(200)
    const after = await scrape()

    const notFound = { method: 'GET', route: '/events/{id}', status: '404' }
    expect(
      total(after, 'calendar_http_requests_total', notFound) -
        total(before, 'calendar_http_requests_total', notFound),
    ).toBeGreaterThanOrEqual(3)
    const timed = (samples: Sample[]) =>
      total(samples, 'calendar_http_request_duration_seconds_count', notFound)
    expect(timed(after) - timed(before)).toBeGreaterThanOrEqual(3)
    const listed = { method: 'GET', route: '/categories', status: '200' }
    expect(
      total(after, 'calendar_http_requests_total', listed) -
        total(before, 'calendar_http_requests_total', listed),
    ).toBeGreaterThanOrEqual(1)
    // A path of the namespace that no route has, and a request outside the namespace, each under one label.
    await get(`${BASE_URL}${NS}/no-such-route-${unique('r')}`)
    await get(`${BASE_URL}/api/health`)
    const last = await scrape()
    expect(
      total(last, 'calendar_http_requests_total', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1)
    expect(total(last, 'calendar_http_requests_total', { route: 'other' })).toBeGreaterThanOrEqual(
      1,
    )
    const routes = new Set(
      last
        .filter((sample) => sample.name === 'calendar_http_requests_total')
        .map((sample) => sample.labels.route),
    )
    for (const route of routes) expect(route).toMatch(/^(\/[\w.{}/-]*|unmatched|other)$/)
    expect([...routes].some((route) => route!.includes('987654321'))).toBe(false)
  })

  it('counts answer-cache misses and hits', async () => {
    const url = `${BASE_URL}${NS}/categories?search=${unique('c')}`
    const before = await scrape()
    await get(url)
    await get(url)
    const after = await scrape()
    const moved = (result: string) =>
      total(after, 'calendar_answer_cache_requests_total', { result }) -
      total(before, 'calendar_answer_cache_requests_total', { result })
    expect(moved('miss')).toBeGreaterThanOrEqual(1)
    expect(moved('hit')).toBeGreaterThanOrEqual(1)
  })

  it('show the bytes the answer caches hold, let go once another door has written', async () => {
    const held = (samples: Sample[], layer: string) =>
      total(samples, 'calendar_answer_cache_bytes', { layer })
    // Filled again until a scrape finds both held: a scheduled job may move the revision meanwhile.
    await expect
      .poll(async () => {
        await get(`${BASE_URL}${NS}/categories?search=${unique('b')}`)
        const samples = await scrape()
        return Math.min(held(samples, 'namespace'), held(samples, 'front_door'))
      }, POLL)
      .toBeGreaterThan(0)
    // Two writes through Payload's REST and no read: the namespace's cache lets go as the new
    // revision is pushed, the front door's at the next request of any kind (here the second write).
    const token = await asAdmin()
    const created = await call('/api/event-tags', {
      method: 'POST',
      token,
      json: { name: unique('held') },
    })
    expect(created.status).toBe(201)
    const deleted = await call(`/api/event-tags/${created.body.doc.id}`, {
      method: 'DELETE',
      token,
    })
    expect(deleted.status).toBe(200)
    await expect.poll(async () => held(await scrape(), 'namespace'), POLL).toBe(0)
    expect(held(await scrape(), 'front_door')).toBe(0)
  })

  it('reads the database pool and the backlog when scraped', async () => {
    const samples = await scrape()
    expect(total(samples, 'calendar_db_pool_connections')).toBeGreaterThanOrEqual(1)
    expect(total(samples, 'calendar_db_pool_connections')).toBeGreaterThanOrEqual(
      total(samples, 'calendar_db_pool_idle_connections'),
    )
    for (const name of [
      'calendar_db_pool_waiting_requests',
      'calendar_jobs_waiting',
      'calendar_jobs_failed',
      'calendar_webhooks_failing',
      'calendar_webhook_deliveries_failed',
    ])
      expect(samples.some((sample) => sample.name === name && sample.value >= 0)).toBe(true)
    // Shedding per lane, each shown from the start, and the write lane's turns.
    for (const state of ['running', 'waiting'])
      expect(
        samples.some(
          (sample) => sample.name === 'calendar_write_turns' && sample.labels.state === state,
        ),
      ).toBe(true)
    for (const lane of ['made', 'signed_in_write', 'write_turn'])
      expect(
        samples.some(
          (sample) => sample.name === 'calendar_shed_requests_total' && sample.labels.lane === lane,
        ),
      ).toBe(true)
  })

  it("show how long the server's thread kept ready work waiting since the previous scrape", async () => {
    await scrape()
    // Work that holds the thread: a burst of answers made while the scrape waits its turn.
    await Promise.all(
      Array.from({ length: 10 }, () => get(`${BASE_URL}${NS}/events?search=${unique('loop')}`)),
    )
    const delays = (await scrape()).filter(
      (sample) => sample.name === 'calendar_event_loop_delay_seconds',
    )
    expect(delays.map((sample) => sample.labels.quantile).sort()).toEqual(['0.5', '0.99', '1'])
    const at = (quantile: string) =>
      delays.find((sample) => sample.labels.quantile === quantile)!.value
    expect(at('0.5')).toBeGreaterThanOrEqual(0)
    expect(at('0.99')).toBeGreaterThanOrEqual(at('0.5'))
    expect(at('1')).toBeGreaterThanOrEqual(at('0.99'))
    expect(at('1')).toBeGreaterThan(0)
  })

  it('are refused, without METRICS_TOKEN, to a request a proxy forwarded', async () => {
    const response = await fetch(`${BASE_URL}/metrics`, {
      headers: { 'X-Forwarded-For': '203.0.113.9' },
    })
    expect(response.status).toBe(403)
    const body = await response.json()
    expect(body.code).toBe('rest_forbidden')
    expect(body.data.status).toBe(403)
  })
})

describe('metrics with METRICS_TOKEN on an instance with a read limit', () => {
  let instance: Instance
  const token = 'scrape-secret-1'

  beforeAll(async () => {
    instance = await startSecondInstance(
      {
        METRICS_TOKEN: token,
        RATE_LIMIT_READS_PER_MINUTE: '2',
        RATE_LIMIT_WRITES_PER_MINUTE: '0',
        RATE_LIMIT_LOGINS_PER_MINUTE: '0',
      },
      { keepErrors: true, keepLog: true },
    )
  }, 180_000)

  afterAll(async () => {
    await instance?.stop()
  })

  it('answer only the bearer of the token, and count the rate-limited requests', async () => {
    for (const headers of [{}, { Authorization: 'Bearer wrong' }] as Record<string, string>[]) {
      const refused = await fetch(`${instance.base}/metrics`, { headers })
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toBe('Bearer')
      expect((await refused.json()).code).toBe('rest_forbidden')
    }
    const statuses: number[] = []
    for (let n = 0; n < 3; n++)
      statuses.push(
        (await get(`${instance.base}${NS}/tags`, { 'X-Forwarded-For': '192.0.2.77' })).status,
      )
    expect(statuses).toEqual([200, 200, 429])
    const samples = await scrape(instance.base, { Authorization: `Bearer ${token}` })
    expect(total(samples, 'calendar_rate_limited_requests_total', { kind: 'read' })).toBe(1)
    expect(
      total(samples, 'calendar_http_requests_total', {
        method: 'GET',
        route: '/tags',
        status: '429',
      }),
    ).toBe(1)
    expect(
      total(samples, 'calendar_http_requests_total', {
        method: 'GET',
        route: '/tags',
        status: '200',
      }),
    ).toBe(2)
  })

  it("leave no warning of a leak in the instance's log while Payload and Next answer through the gate", async () => {
    const graphql = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ Venues(limit: 1) { totalDocs } }' }),
    }
    const venue = await createVenue({ name: `${unique('leak')} Fête` })
    // A namespace path with an escape goes through Next (src/proxy.ts), which pipes the answer and
    // listens for its close several times over.
    const asked: [string, RequestInit, number][] = [
      [`${instance.base}/api/venues?limit=1`, {}, 200],
      [`${instance.base}/api/graphql`, graphql, 200],
      [`${instance.base}${NS}/venues/by-slug/${encodeURIComponent(String(venue.slug))}`, {}, 200],
    ]
    // Each from an address of its own: the instance reads two a minute from one.
    for (const [at, [url, init, status]] of asked.entries()) {
      const headers = { ...init.headers, 'X-Forwarded-For': `192.0.2.${100 + at}` }
      const response = await fetch(url, { ...init, headers })
      expect(response.status, await response.text()).toBe(status)
    }
    // What the instance wrote meanwhile is in the pipe already; a round trip lets this process read it.
    expect((await get(`${instance.base}/api/health`)).status).toBe(200)
    expect(instance.errors()).not.toMatch(/MaxListenersExceededWarning|memory leak/)
  })

  it("logs a request's mistakes as information, not as the server's errors, each line with the request's id", async () => {
    const admin = await asAdmin()
    const venue = await createVenue({ name: unique('logged') })
    /**
     * A path, how it is asked (`anonymous`: without the administrator's token; `from`: the client's
     * address), the answer's status.
     */
    type Mistake = [
      string,
      RequestInit & { anonymous?: boolean; from?: string; type?: string },
      number,
    ]
    const guesser = '192.0.2.140'
    const guess = {
      method: 'POST',
      body: JSON.stringify({ email: 'nobody@example.org', password: 'wrong-guess' }),
      anonymous: true,
      from: guesser,
    }
    // The account's free failures on the guesser's address; a failed sign-in stays an error.
    const signIns: string[] = []
    for (let n = 0; n < 3; n++) {
      const failed = await fetch(`${instance.base}/api/users/login`, {
        ...guess,
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': guesser },
      })
      expect(failed.status).toBe(401)
      signIns.push(failed.headers.get('X-Request-Id')!)
    }
    const mistakes: Mistake[] = [
      ['/api/events/987654321', {}, 404],
      ['/api/events?where[id][equals]=1.5', {}, 400],
      [`/api/venues/${venue.id}`, { method: 'PATCH', body: '{"website":5}' }, 400],
      [`/api/venues/${venue.id}`, { method: 'PATCH', body: '{"name":"x"}', anonymous: true }, 403],
      ['/api/payload-preferences/x', { method: 'POST', body: '{"value":1}', anonymous: true }, 401],
      ['/api/users/login', guess, 429],
      // Named by no `loggingLevels`: a plain APIError of Payload's (an id it cannot read), busboy's
      // error for a multipart body cut short, a GraphQL error around a field's ValidationError.
      ['/api/events/abc', { method: 'PATCH', body: '{"title":"x"}' }, 400],
      [
        '/api/venues',
        {
          method: 'POST',
          body: '--x\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n{"name":"v"}',
          type: 'multipart/form-data; boundary=x',
        },
        400,
      ],
      [
        '/api/graphql',
        {
          method: 'POST',
          body: JSON.stringify({
            query: `mutation { updateVenue(id: ${venue.id}, data: { website: "not a web address" }) { id } }`,
          }),
        },
        200,
      ],
    ]
    const ids: string[] = []
    // Each from an address of its own unless given: the instance reads two a minute from one.
    for (const [at, [path, { anonymous, from, type, ...init }, status]] of mistakes.entries()) {
      const response = await fetch(`${instance.base}${path}`, {
        ...init,
        headers: {
          'Content-Type': type ?? 'application/json',
          'X-Forwarded-For': from ?? `192.0.2.${120 + at}`,
          ...(anonymous ? {} : { Authorization: `JWT ${admin}` }),
        },
      })
      expect(response.status, `${path}: ${await response.text()}`).toBe(status)
      ids.push(response.headers.get('X-Request-Id')!)
    }
    const lines = (await instance.settledLog())
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; requestId?: string; msg?: string })
    const ofRequest = (id: string) => lines.filter((line) => line.requestId === id)
    for (const [index, id] of ids.entries()) {
      const [path, { method }, status] = mistakes[index]!
      const named = `${method ?? 'GET'} ${path} (${status})`
      expect(ofRequest(id).length, `no line names ${named}, ${id}`).toBeGreaterThan(0)
      expect(
        ofRequest(id).map((line) => line.level),
        `${named}: ${JSON.stringify(ofRequest(id))}`,
      ).not.toContain(50)
    }
    for (const id of signIns) expect(ofRequest(id).map((line) => line.level)).toContain(50)
  })
})

describe('request ids', () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

  it('are made for every answer, the namespace, a kept answer, Payload and errors alike', async () => {
    const kept = `${BASE_URL}${NS}/categories?search=${unique('k')}`
    const urls = [
      kept,
      kept,
      `${BASE_URL}${NS}/events/987654321`,
      `${BASE_URL}/api/health`,
      `${BASE_URL}/api/users/me`,
    ]
    const ids: string[] = []
    for (const url of urls) {
      const id = (await get(url)).headers.get('x-request-id')
      expect(id).toMatch(uuid)
      ids.push(id!)
    }
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('are readable by a browser script on another origin, on made and kept answers', async () => {
    const url = `${BASE_URL}${NS}/categories?search=${unique('x')}`
    for (let round = 0; round < 2; round++) {
      const exposed = ((await get(url)).headers.get('access-control-expose-headers') ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
      expect(exposed).toContain('x-request-id')
    }
  })

  it('keep a short safe id the caller sent, and replace any other', async () => {
    const url = `${BASE_URL}${NS}/categories?search=${unique('i')}`
    // The second is a kept answer: it must carry its own request's id, not the first one's.
    expect(
      (await get(url, { 'X-Request-Id': 'proxy-1a2b.3c:4' })).headers.get('x-request-id'),
    ).toBe('proxy-1a2b.3c:4')
    expect((await get(url, { 'X-Request-Id': 'proxy-5e6f' })).headers.get('x-request-id')).toBe(
      'proxy-5e6f',
    )
    for (const unsafe of ['a b', 'x'.repeat(65), '<script>', 'id"}'])
      expect((await get(url, { 'X-Request-Id': unsafe })).headers.get('x-request-id')).toMatch(uuid)
  })
})
