/**
 * The write lane (docs/operations.md, "Load shedding"; docs/performance.md, "A write lane that does
 * not wait on the network"): a namespace write takes one of `WRITE_CONCURRENCY` turns only for its
 * database part, after its images are downloaded; while the instance sheds, a write that would wait
 * past its deadline for a turn is refused 503 `rest_overloaded` with Retry-After and nothing of it is
 * stored; the deadline counts from the write's arrival, and a refused write costs no rate-limit token.
 * Run on a second instance with one turn and a write limit; a write is held in its turn by a row lock
 * this file takes on the test database, another before its turn by a lock on the venues, and a slow
 * image comes from a server of this file's own.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique } from '../support/api'
import { scrape, total } from '../support/metrics'
import { startSecondInstance, type Instance } from '../support/secondInstance'
import { testDatabase } from '../support/database'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWP4z8AARwgWOgcA9TEL9UV+YsgAAAAASUVORK5CYII=',
  'base64',
)
/** How long the image server takes to answer. */
const IMAGE_DELAY_MS = 4_000

let instance: Instance
let images: http.Server
let imageBase: string
let admin: string
/** The admin's write bucket: other files of the lane write as other callers. */
let adminWrites: string
let held: number
/** A venue for writes that name one. */
let venue: number

type Reply = {
  status: number
  retryAfter: string | null
  body: { id?: number; code?: string; data?: { status?: number }; image?: unknown }
  at: number
}

function write(path: string, json: Record<string, unknown>): Promise<Reply> {
  return fetch(`${instance.base}${NS}${path}`, {
    method: 'POST',
    headers: { Authorization: `JWT ${admin}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(json),
    signal: AbortSignal.timeout(60_000),
  }).then(async (response) => ({
    status: response.status,
    retryAfter: response.headers.get('Retry-After'),
    body: (await response.json()) as Reply['body'],
    at: Date.now(),
  }))
}

const newEvent = (title: string, extra: Record<string, unknown> = {}) =>
  write('/events', {
    title,
    status: 'publish',
    start_date: '2031-05-01 10:00:00',
    end_date: '2031-05-01 11:00:00',
    ...extra,
  })

/** The lane's gauge, once it reads `value`. */
async function turnsReach(state: 'running' | 'waiting', value: number): Promise<void> {
  for (let tries = 0; ; tries++) {
    const now = total(await scrape(instance.base), 'calendar_write_turns', { state })
    if (now === value) return
    if (tries > 100) expect(now, `calendar_write_turns{state="${state}"}`).toBe(value)
    await sleep(200)
  }
}

/** Writes the write lane has refused so far, as /metrics counts them. */
const turnRefusals = async () =>
  total(await scrape(instance.base), 'calendar_shed_requests_total', { lane: 'write_turn' })

/** Holds `held`'s row locked from the test database, and starts a retitle of it: a write that takes the one turn and waits in it. */
async function holdTheTurn() {
  const locking = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await locking.connect()
  await locking.query('begin')
  await locking.query('select id from events where id = $1 for update', [held])
  const holder = write(`/events/${held}`, { title: unique('Held ') })
  await turnsReach('running', 1)
  let released: Promise<number> | undefined
  const release = () =>
    (released ??= (async () => {
      const releasedAt = Date.now()
      await locking.query('rollback')
      await locking.end()
      return releasedAt
    })())
  return { holder, release }
}

/** The file's connection for what only SQL reads; holding locks takes connections of their own. */
const db = testDatabase()

/** The write bucket of this file's one writer, as PostgreSQL holds it. */
async function writeBucket(): Promise<{ tokens: number; updated_at: Date }> {
  const { rows } = await db.query(
    `select tokens, updated_at from calendar_rate_buckets where subject = $1`,
    [adminWrites],
  )
  expect(rows).toHaveLength(1)
  return rows[0]
}

/** A site that reads the namespace from visitors' browsers. */
const ORIGIN = 'https://site.example.org'

/**
 * A flood of lists no cache keeps, from a site's visitors: the gate refuses some, each readable by
 * the browser (the CORS headers of the namespace's own answers), and the instance sheds for the next 10 s.
 */
async function flood(): Promise<void> {
  const reads = await Promise.all(
    Array.from({ length: 40 }, () =>
      fetch(`${instance.base}${NS}/events?search=${unique('flood')}`, {
        headers: { Origin: ORIGIN },
      }).then(async (response) => {
        await response.arrayBuffer()
        return `${response.status} ${response.headers.get('Access-Control-Allow-Origin')}`
      }),
    ),
  )
  expect(reads).toContain('503 *')
  expect(reads.filter((read) => read.startsWith('503') && read !== '503 *')).toEqual([])
}

/**
 * A flood, then until the held turn has lasted past the deadline (300 ms): a write now would wait
 * past it, and is foreseen so before it takes a token or its body is read. Sooner, whether it is
 * foreseen depends on the machine's pace (CI once sent such a write on to its turn, which gave its
 * token back when refused).
 */
async function floodPastTheHeldTurn(): Promise<void> {
  await flood()
  await sleep(500)
}

/** Locks the venues from the test database: a write naming a venue waits in its validation, before its turn. */
async function lockVenues() {
  const locking = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await locking.connect()
  await locking.query('begin')
  await locking.query('lock table venues in access exclusive mode')
  let released: Promise<number> | undefined
  return () =>
    (released ??= (async () => {
      const releasedAt = Date.now()
      await locking.query('rollback')
      await locking.end()
      return releasedAt
    })())
}

/** Once a request waits on the venues `lockVenues` holds: a write there has taken its token and begun its validation. */
async function someoneWaitsOnVenues(): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await db.query(
            `select count(*)::int as n from pg_locks where relation = 'venues'::regclass and not granted`,
          )
        ).rows[0].n,
      { timeout: 20_000, interval: 50 },
    )
    .toBeGreaterThan(0)
}

async function stored(title: string): Promise<number[]> {
  const found = await call(
    `${NS}/events?search=${encodeURIComponent(title)}&status=any&start_date=2031-04-30&end_date=2031-05-02`,
    { token: admin },
  )
  expect(found.status).toBe(200)
  return found.body.events.map((event: { id: number }) => event.id)
}

beforeAll(async () => {
  admin = await asAdmin()
  const me = await call('/api/users/me', { token: admin })
  adminWrites = `write:user:${(me.body.user as { id: number }).id}`
  images = http.createServer((_request, response) => {
    setTimeout(
      () => response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
      IMAGE_DELAY_MS,
    )
  })
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
  instance = await startSecondInstance({
    WRITE_CONCURRENCY: '1',
    SHED_QUEUE_MS: '300',
    SHED_MIN_IN_FLIGHT: '2',
    ALLOW_PRIVATE_IMAGE_URLS: 'true',
    RATE_LIMIT_WRITES_PER_MINUTE: '600',
  })
  const created = await newEvent(unique('Lane '))
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  held = created.body.id!
  const place = await call(`${NS}/venues`, {
    method: 'POST',
    token: admin,
    json: { venue: unique('Lane venue ') },
  })
  expect(place.status, JSON.stringify(place.body)).toBe(201)
  venue = place.body.id as number
}, 200_000)

afterAll(async () => {
  await instance?.stop()
  await new Promise((resolve) => images?.close(resolve))
})

describe('the write lane, one turn', () => {
  it('shows its turns in /metrics, none taken when idle', async () => {
    const samples = await scrape(instance.base)
    expect(total(samples, 'calendar_write_turns', { state: 'running' })).toBe(0)
    expect(total(samples, 'calendar_write_turns', { state: 'waiting' })).toBe(0)
    expect(
      samples.filter(
        (sample) =>
          sample.name === 'calendar_shed_requests_total' && sample.labels.lane === 'write_turn',
      ),
    ).toHaveLength(1)
  })

  it('takes no turn while a write downloads its image: another write is served meanwhile', async () => {
    const started = Date.now()
    const withImage = newEvent(unique('Slow image '), { image: `${imageBase}/slow.png` })
    await sleep(500)
    const plain = await newEvent(unique('Beside '))
    expect(plain.status, JSON.stringify(plain.body)).toBe(201)
    expect(plain.at - started).toBeLessThan(IMAGE_DELAY_MS)
    const imaged = await withImage
    expect(imaged.status, JSON.stringify(imaged.body)).toBe(201)
    expect(imaged.body.image).toBeTruthy()
    expect(imaged.at - started).toBeGreaterThanOrEqual(IMAGE_DELAY_MS)
  }, 60_000)

  it('lets a second write wait while the first holds the turn, then serves it', async () => {
    const { holder, release } = await holdTheTurn()
    const title = unique('Waiting ')
    const waiting = newEvent(title)
    await turnsReach('waiting', 1)
    await sleep(1_000)
    // Its database part has not begun: nothing of it is stored while it waits.
    expect(await stored(title)).toEqual([])
    const releasedAt = await release()
    const [first, second] = await Promise.all([holder, waiting])
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(second.status, JSON.stringify(second.body)).toBe(201)
    expect(second.at).toBeGreaterThanOrEqual(releasedAt)
    expect(await stored(title)).toEqual([second.body.id])
    await turnsReach('running', 0)
  }, 60_000)

  it('refuses, while the instance sheds, a write that would wait past the deadline: 503 with Retry-After, nothing stored, no token taken', async () => {
    const { holder, release } = await holdTheTurn()
    try {
      await floodPastTheHeldTurn()
      const bucket = await writeBucket()
      const title = unique('Refused ')
      const refused = await newEvent(title)
      expect(refused.status).toBe(503)
      expect(refused.body.code).toBe('rest_overloaded')
      expect(refused.body.data?.status).toBe(503)
      expect(Number(refused.retryAfter)).toBeGreaterThan(0)
      // Refused before it took a token: the caller's bucket is as it was.
      expect(await writeBucket()).toEqual(bucket)
      const samples = await scrape(instance.base)
      expect(total(samples, 'calendar_shed_requests_total', { lane: 'write_turn' })).toBe(1)
      expect(total(samples, 'calendar_write_turns', { state: 'waiting' })).toBe(0)
      await release()
      expect((await holder).status).toBe(200)
      expect(await stored(title)).toEqual([])
    } finally {
      await release()
    }
  }, 60_000)

  it('refuses such a write before it reads its body: a write whose body is still coming is answered at once', async () => {
    const { holder, release } = await holdTheTurn()
    try {
      await floodPastTheHeldTurn()
      const before = await turnRefusals()
      const url = new URL(`${instance.base}${NS}/events`)
      const sending = http.request(url, {
        method: 'POST',
        headers: {
          Authorization: `JWT ${admin}`,
          'Content-Type': 'application/json',
          'Content-Length': '1000',
          Origin: ORIGIN,
        },
      })
      // A tenth of the body it announced, and nothing more while the answer is awaited.
      sending.write(`{"title": "${'x'.repeat(80)}`)
      const answered = new Promise<{ status: number; body: string; cors: unknown }>(
        (resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error('no answer while the body is unsent')),
            5_000,
          )
          sending.on('error', reject)
          sending.on('response', (response) => {
            let body = ''
            response.setEncoding('utf8')
            response.on('data', (chunk: string) => (body += chunk))
            response.on('end', () => {
              clearTimeout(timer)
              resolve({
                status: response.statusCode ?? 0,
                body,
                cors: response.headers['access-control-allow-origin'],
              })
            })
          })
        },
      )
      // Its socket goes either way: a write left waiting for its body would hold the instance.
      const reply = await answered.finally(() => sending.destroy())
      expect(reply.status).toBe(503)
      expect(JSON.parse(reply.body).code).toBe('rest_overloaded')
      expect(reply.cors).toBe('*')
      expect(await turnRefusals()).toBe(before + 1)
      await release()
      expect((await holder).status).toBe(200)
    } finally {
      await release()
    }
  }, 60_000)

  it('refuses in the namespace, while the instance sheds, a write by API key, which the gate does not tell from others', async () => {
    const apiKey = unique('key')
    const created = await call('/api/users', {
      method: 'POST',
      token: admin,
      json: {
        email: `${unique('keyed')}@calendar.test`,
        password: `password-${apiKey}`,
        role: 'editor',
        enableAPIKey: true,
        apiKey,
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const { holder, release } = await holdTheTurn()
    try {
      await floodPastTheHeldTurn()
      const before = await turnRefusals()
      const title = unique('By key ')
      const refused = await fetch(`${instance.base}${NS}/events`, {
        method: 'POST',
        headers: {
          Authorization: `users API-Key ${apiKey}`,
          'Content-Type': 'application/json',
          Origin: ORIGIN,
        },
        body: JSON.stringify({
          title,
          status: 'publish',
          start_date: '2031-05-01 10:00:00',
          end_date: '2031-05-01 11:00:00',
        }),
      })
      expect(refused.status).toBe(503)
      expect(((await refused.json()) as Reply['body']).code).toBe('rest_overloaded')
      expect(refused.headers.get('Access-Control-Allow-Origin')).toBe('*')
      expect(await turnRefusals()).toBe(before + 1)
      await release()
      expect((await holder).status).toBe(200)
      expect(await stored(title)).toEqual([])
    } finally {
      await release()
    }
  }, 60_000)

  it('refuses, while the instance sheds, a write that would wait past the deadline within the deadline of its arrival, whatever holds it up before its turn', async () => {
    const { holder, release } = await holdTheTurn()
    const releaseVenues = await lockVenues()
    try {
      await flood()
      const title = unique('Held up ')
      const sent = Date.now()
      const refused = newEvent(title, { venue })
      await sleep(2_000)
      const releasedAt = await releaseVenues()
      const reply = await refused
      expect(reply.status).toBe(503)
      expect(reply.body.code).toBe('rest_overloaded')
      // Refused on arrival, not once the venues' lock let its validation go on.
      expect(reply.at).toBeLessThan(releasedAt)
      expect(reply.at - sent).toBeLessThan(2_000)
      await release()
      expect((await holder).status).toBe(200)
      expect(await stored(title)).toEqual([])
    } finally {
      await releaseVenues()
      await release()
    }
  }, 60_000)

  it('gives back the token of a write refused at its turn, after its validation took longer than the deadline', async () => {
    await flood()
    const releaseVenues = await lockVenues()
    let holding: Awaited<ReturnType<typeof holdTheTurn>> | undefined
    try {
      // The turn is free as it arrives: it takes its token, then waits on the venues in its validation.
      const title = unique('Late ')
      const late = newEvent(title, { venue })
      await someoneWaitsOnVenues()
      holding = await holdTheTurn()
      const bucket = await writeBucket()
      await releaseVenues()
      const reply = await late
      expect(reply.status).toBe(503)
      expect(reply.body.code).toBe('rest_overloaded')
      // Its token is back: the bucket holds one more than after the holder's take, its clock unmoved.
      expect(await writeBucket()).toEqual({ ...bucket, tokens: Math.min(600, bucket.tokens + 1) })
      await holding.release()
      expect((await holding.holder).status).toBe(200)
      expect(await stored(title)).toEqual([])
    } finally {
      await releaseVenues()
      await holding?.release()
    }
  }, 60_000)
})
