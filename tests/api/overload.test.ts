/**
 * Load shedding (docs/operations.md): an instance with more requests in flight than it serves in its
 * queue bound answers new ones 503 rest_overloaded with Retry-After at once; health checks still get
 * through, kept answers are served whatever the load, and signed-in writes wait in a lane of their
 * own, where a flood of them is shed too, nothing of a refused write stored. Run on a second instance
 * with a tiny bound, so the flood does not slow the other tests' server. Its metrics count the refusals
 * per lane.
 */
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique } from '../support/api'
import { scrape, total } from '../support/metrics'
import { startSecondInstance, type Instance } from '../support/secondInstance'
import { resigned } from '../support/tokens'

let instance: Instance
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
  instance = await startSecondInstance({
    SHED_QUEUE_MS: '1',
    SHED_MIN_IN_FLIGHT: '4',
    QUERY_COUNT_HEADER: 'true',
  })
}, 150_000)

afterAll(async () => {
  await instance?.stop()
})

describe('an overloaded instance', () => {
  it('sheds reads at once with 503 rest_overloaded, and still answers health checks and signed-in writes', async () => {
    const started = Date.now()
    // Each a list of its own: reads of one URL wait for its one answer being made (the front door).
    const reads = Array.from({ length: 150 }, () =>
      fetch(`${instance.base}${NS}/events?per_page=20&search=${unique('shed')}`).then(
        async (response) => ({
          status: response.status,
          retryAfter: response.headers.get('Retry-After'),
          body: await response.json(),
          ms: Date.now() - started,
        }),
      ),
    )
    const health = fetch(`${instance.base}/api/health`).then((response) => response.status)
    const writes = Array.from({ length: 3 }, () =>
      fetch(`${instance.base}${NS}/events`, {
        method: 'POST',
        headers: { Authorization: `JWT ${admin}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: unique('Busy '),
          start_date: '2031-03-01 10:00:00',
          end_date: '2031-03-01 11:00:00',
        }),
      }).then((response) => response.status),
    )
    const answers = await Promise.all(reads)
    const shed = answers.filter((answer) => answer.status === 503)
    expect(shed.length).toBeGreaterThan(0)
    for (const answer of shed) {
      expect(answer.body.code).toBe('rest_overloaded')
      expect(answer.body.data.status).toBe(503)
      expect(Number(answer.retryAfter)).toBeGreaterThan(0)
    }
    expect(answers.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true)
    expect(answers.some((answer) => answer.status === 200)).toBe(true)
    expect(await health).toBe(200)
    expect(await Promise.all(writes)).toEqual([201, 201, 201])

    // Once the flood is over, the instance serves again, at once: nothing else is in flight.
    const after = await fetch(`${instance.base}${NS}/events?per_page=1`)
    expect(after.status, await after.text()).toBe(200)

    // Its metrics count every refusal, as shed in the lane of made requests and as 503s of the route; the writes, let in, none.
    const samples = await scrape(instance.base)
    expect(total(samples, 'calendar_shed_requests_total', { lane: 'made' })).toBe(shed.length)
    expect(
      samples.filter(
        (sample) =>
          sample.name === 'calendar_shed_requests_total' &&
          sample.labels.lane === 'signed_in_write',
      ),
    ).toEqual([
      { name: 'calendar_shed_requests_total', labels: { lane: 'signed_in_write' }, value: 0 },
    ])
    expect(
      total(samples, 'calendar_http_requests_total', {
        method: 'GET',
        route: '/events',
        status: '503',
      }),
    ).toBe(shed.length)
  })

  it('serves kept answers during a flood of answers to make, and refuses only those', async () => {
    const kept = `${instance.base}${NS}/events?per_page=3`
    const keptNow = async () => {
      const response = await fetch(kept)
      await response.arrayBuffer()
      return {
        answeredBy: response.headers.get('X-Answered-By'),
        etag: response.headers.get('ETag'),
      }
    }
    // Another test's write moves the content revision, and a kept answer is then made again: flood until one passes with none.
    for (let attempt = 0; ; attempt++) {
      let warm = await keptNow()
      for (let n = 0; warm.answeredBy !== 'front-door' && n < 20; n++) warm = await keptNow()
      expect(warm.answeredBy).toBe('front-door')
      const flood = Array.from({ length: 200 }, (_, n) =>
        fetch(
          n % 4 ? `${instance.base}${NS}/events?per_page=20&search=${unique('flood')}` : kept,
        ).then(async (response) => ({
          kept: n % 4 === 0,
          status: response.status,
          answeredBy: response.headers.get('X-Answered-By'),
          retryAfter: response.headers.get('Retry-After'),
          code: ((await response.json()) as { code?: string }).code,
        })),
      )
      const answers = await Promise.all(flood)
      if ((await keptNow()).etag !== warm.etag && attempt < 3) continue
      const made = answers.filter((answer) => !answer.kept)
      const shed = made.filter((answer) => answer.status === 503)
      expect(shed.length).toBeGreaterThan(0)
      for (const answer of shed) {
        expect(answer.code).toBe('rest_overloaded')
        expect(Number(answer.retryAfter)).toBeGreaterThan(0)
      }
      expect(made.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true)
      expect(
        answers.filter((answer) => answer.kept).map((answer) => [answer.status, answer.answeredBy]),
      ).toEqual(Array.from({ length: 50 }, () => [200, 'front-door']))
      return
    }
  })

  it('sheds a flood of signed-in writes too, and stores exactly the writes it acknowledged', async () => {
    const titles = Array.from({ length: 60 }, () => unique('Written '))
    const replies = await Promise.all(titles.map(write))
    const refused = replies.filter((reply) => reply.status === 503)
    expect(refused.length).toBeGreaterThan(0)
    for (const reply of refused) expect(reply.body.code).toBe('rest_overloaded')
    // Counted in the writes' own lanes, at the gate or at their turn (none was refused there before this flood).
    const samples = await scrape(instance.base)
    expect(
      total(samples, 'calendar_shed_requests_total', { lane: 'signed_in_write' }) +
        total(samples, 'calendar_shed_requests_total', { lane: 'write_turn' }),
    ).toBe(refused.length)
    expect(replies.every((reply) => reply.status === 201 || reply.status === 503)).toBe(true)
    await expectStoredAsAcknowledged(titles, replies)
  })
})

describe('the signed-in writes’ lane', () => {
  it('takes only a token Payload would accept: an expired or not-yet-valid one waits with the made requests', async () => {
    const held = await holdMadeLane()
    try {
      const now = Math.floor(Date.now() / 1000)
      const refused = await Promise.all([
        resigned(admin, { iat: now - 60, exp: now - 1 }),
        resigned(admin, { nbf: now + 600 }),
      ])
      for (const token of refused) {
        const reply = await emptyWrite({ Authorization: `JWT ${token}` })
        expect(reply.status, token).toBe(503)
        expect(reply.body.code).toBe('rest_overloaded')
      }
      // The token they were made from goes its own way: past the gate, to the body's check.
      const signedIn = await emptyWrite({ Authorization: `JWT ${admin}` })
      expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(400)
    } finally {
      for (const request of held) request.destroy()
    }
  })
})

/** A create with no fields: refused 400 by the namespace once past the gate, nothing stored. */
async function emptyWrite(headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(`${instance.base}${NS}/events`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: '{}',
  })
  return { status: response.status, body: (await response.json()) as Reply['body'] }
}

/**
 * Anonymous writes whose bodies never end, as many as the made lane lets in below its measured rate
 * (`SHED_MIN_IN_FLIGHT`): in flight until destroyed, so the lane refuses every other made request.
 */
async function holdMadeLane(): Promise<http.ClientRequest[]> {
  const { hostname, port } = new URL(instance.base)
  const held = Array.from({ length: 4 }, () => {
    const request = http.request({
      hostname,
      port,
      method: 'POST',
      path: `${NS}/events`,
      headers: { 'Content-Type': 'application/json', 'Content-Length': '100' },
    })
    request.on('error', () => undefined)
    request.write('{')
    return request
  })
  for (let tries = 0; (await emptyWrite({})).status !== 503; tries++)
    if (tries > 50) throw new Error('the made lane never filled')
  return held
}

type Reply = { status: number; body: { id?: number; code?: string } }

function write(title: string): Promise<Reply> {
  return fetch(`${instance.base}${NS}/events`, {
    method: 'POST',
    headers: { Authorization: `JWT ${admin}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title,
      status: 'publish',
      start_date: '2031-04-01 10:00:00',
      end_date: '2031-04-01 11:00:00',
    }),
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as Reply['body'],
  }))
}

/** Each write answered 201 is stored once, under its id; each refused is not stored at all. */
async function expectStoredAsAcknowledged(titles: string[], replies: Reply[]): Promise<void> {
  expect(replies.every((reply) => reply.status === 201 || reply.status === 503)).toBe(true)
  for (const [index, reply] of replies.entries()) {
    const found = await call(
      `${NS}/events?search=${encodeURIComponent(titles[index]!)}&status=any&start_date=2031-03-31&end_date=2031-04-02`,
      { token: admin },
    )
    expect(found.status).toBe(200)
    expect(found.body.events.map((event: { id: number }) => event.id)).toEqual(
      reply.status === 201 ? [reply.body.id] : [],
    )
  }
}
