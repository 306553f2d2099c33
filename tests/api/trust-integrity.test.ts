/**
 * Integrity under Payload's bulk operations and against hostile or slow peers:
 * - a bulk delete or update of series events through Payload's REST (the admin's list) does what it
 *   says, whatever the order of the ids (docs/api.md §16);
 * - image downloads of namespace writes: a `%` path, a server that drips; no write waits on another
 *   server inside its transaction (docs/api.md §6.4);
 * - webhooks: a receiver that drips is cut off and holds up no other endpoint (docs/api.md §20);
 * - imports: answers bounded as they stream, lists capped at a number of pages, a total deadline per
 *   request, subscriptions that do not wait on each other (docs/api.md §23, docs/operations.md).
 * The hostile servers are this file's own, on loopback (IMPORT_ALLOW_PRIVATE and WEBHOOK_ALLOW_PRIVATE
 * on the test server; a second instance with ALLOW_PRIVATE_IMAGE_URLS for images).
 */
import { readdir } from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import type { AddressInfo, Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { DateTime } from 'luxon'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, everyRole, NS, unique } from '../support/api'
import { runImportCli } from '../support/imports'
import { startSecondInstance, type Instance } from '../support/secondInstance'
import { api, eventBody, payloadDocs } from '../support/writeFixtures'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWP4z8AARwgWOgcA9TEL9UV+YsgAAAAASUVORK5CYII=',
  'base64',
)
const ZONE = 'Europe/Paris'
const WALL = 'yyyy-MM-dd HH:mm:ss'

let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

/** A local server whose routes the tests write; it counts requests by path and can cut every connection. */
async function hostileServer(
  routes: Record<string, (request: http.IncomingMessage, response: http.ServerResponse) => void>,
) {
  const hits: string[] = []
  const sockets = new Set<Socket>()
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://local').pathname
    hits.push(path)
    const route = routes[path]
    if (route) route(request, response)
    else response.writeHead(404).end()
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const cut = () => sockets.forEach((socket) => socket.destroy())
  const close = () => {
    cut()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return { base, hits, cut, close }
}

/** Answers 200 with `type` and then one byte a second, never ending (until the connection is cut). */
function drip(type: string) {
  return (_request: http.IncomingMessage, response: http.ServerResponse) => {
    response.writeHead(200, { 'Content-Type': type })
    const timer = setInterval(() => response.write(' '), 1000)
    response.on('close', () => clearInterval(timer))
  }
}

/** The milliseconds `work` took, and its result. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = Date.now()
  const result = await work()
  return { ms: Date.now() - started, result }
}

describe("series under Payload's bulk delete and update", () => {
  /** Next month's first Tuesday at 19:00 in Paris. */
  const FIRST = DateTime.now()
    .setZone(ZONE)
    .plus({ months: 1 })
    .set({ weekday: 2, hour: 19, minute: 0, second: 0, millisecond: 0 })

  /** A weekly series of four through the namespace: the parent's id, then its occurrences' ids in order. */
  async function series(): Promise<number[]> {
    const reply = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: unique('Bulk series '),
        start_date: FIRST.toFormat(WALL),
        end_date: FIRST.plus({ hours: 2 }).toFormat(WALL),
        timezone: ZONE,
        status: 'publish',
        recurrence: 'RRULE:FREQ=WEEKLY;COUNT=4',
      },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    const occurrences = await payloadDocs(
      'events',
      `where[parent][equals]=${reply.body.id}&sort=startLocal`,
    )
    expect(occurrences).toHaveLength(3)
    return [reply.body.id, ...occurrences.map((event) => event.id as number)]
  }

  const bulk = (method: 'DELETE' | 'PATCH', ids: number[], query = '', json?: unknown) =>
    call(`/api/events?where[id][in]=${ids.join(',')}${query}`, { method, token: admin, json })

  /** The events of these ids that still exist, with their status and series fields. */
  const existing = async (ids: number[]) =>
    (await payloadDocs('events', `where[id][in]=${ids.join(',')}&sort=startLocal`)).map(
      (event) => ({
        id: event.id,
        status: event.status,
        exception: Boolean(event.recurrenceException),
      }),
    )

  for (const [order, arrange] of [
    ['parent first', (ids: number[]) => ids],
    ['occurrences first', (ids: number[]) => [...ids.slice(1).reverse(), ids[0]!]],
  ] as const) {
    for (const query of ['', '&trash=true']) {
      it(`deletes a parent and its occurrences for good, ${order}${query ? ', with trash=true' : ''}, and says so`, async () => {
        const ids = await series()
        const reply = await bulk('DELETE', arrange(ids), query)
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        expect(reply.body.errors).toEqual([])
        expect(reply.body.docs.map((doc: { id: number }) => doc.id).sort()).toEqual([...ids].sort())
        expect(await existing(ids)).toEqual([])
        expect(await payloadDocs('events', `where[parent][equals]=${ids[0]}`)).toEqual([])
      })
    }

    it(`trashes a series and restores it in bulk, ${order}: every event follows, none becomes an exception`, async () => {
      const ids = await series()
      const trashed = await bulk('PATCH', arrange(ids), '', { status: 'trash' })
      expect(trashed.status, JSON.stringify(trashed.body)).toBe(200)
      expect(trashed.body.errors).toEqual([])
      expect(await existing(ids)).toEqual(
        ids.map((id) => ({ id, status: 'trash', exception: false })),
      )
      const restored = await bulk('PATCH', arrange(ids), '', { status: 'publish' })
      expect(restored.status, JSON.stringify(restored.body)).toBe(200)
      expect(restored.body.errors).toEqual([])
      expect(await existing(ids)).toEqual(
        ids.map((id) => ({ id, status: 'publish', exception: false })),
      )
      const parent = (await call(`/api/events/${ids[0]}?depth=0`, { token: admin })).body
      expect(parent.recurrence).toBe('RRULE:FREQ=WEEKLY;COUNT=4')
    })
  }

  it('deletes occurrences of two series without their parents: each is excluded from its rule and not made again', async () => {
    const [first, ...firstOccurrences] = await series()
    const [second, ...secondOccurrences] = await series()
    const gone = [firstOccurrences[1]!, secondOccurrences[0]!, secondOccurrences[2]!]
    const reply = await bulk('DELETE', gone)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.errors).toEqual([])
    expect(reply.body.docs).toHaveLength(3)
    // A save of each parent brings its series in line with its rule: the deleted days stay away.
    for (const parent of [first!, second!])
      expect(
        (
          await call(`/api/events/${parent}`, {
            method: 'PATCH',
            token: admin,
            json: { excerpt: 'again' },
          })
        ).status,
      ).toBe(200)
    const left = async (parent: number) =>
      (await payloadDocs('events', `where[parent][equals]=${parent}&sort=startLocal`)).map(
        (event) => event.id,
      )
    expect(await left(first!)).toEqual([firstOccurrences[0], firstOccurrences[2]])
    expect(await left(second!)).toEqual([secondOccurrences[1]])
    for (const parent of [first!, second!])
      expect(
        (await call(`/api/events/${parent}?depth=0`, { token: admin })).body.recurrence,
      ).toMatch(/EXDATE/)
  })
})

describe("Payload's bulk update and delete are whole", () => {
  const FIRST_DAY = DateTime.utc().plus({ months: 2 }).startOf('day').plus({ hours: 12 })

  /** Two published events a few days apart: the first ends before the third day, the second starts after it. */
  async function pair(): Promise<number[]> {
    const ids: number[] = []
    for (const day of [1, 5]) {
      const start = FIRST_DAY.plus({ days: day })
      const reply = await call('/api/events', {
        method: 'POST',
        token: admin,
        json: {
          title: unique('Whole bulk '),
          status: 'publish',
          start: start.toISO(),
          end: start.plus({ hours: 1 }).toISO(),
        },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      ids.push(reply.body.doc.id)
    }
    return ids
  }
  const starts = async (ids: number[]) =>
    (await payloadDocs('events', `where[id][in]=${ids.join(',')}&sort=id`)).map(
      (event) => event.start,
    )

  it('writes none of the items when one fails, and names the one that failed', async () => {
    const ids = await pair()
    const before = await starts(ids)
    // The third day is after the first event's end: its update fails, the second's would not.
    const reply = await call(`/api/events?where[id][in]=${ids.join(',')}`, {
      method: 'PATCH',
      token: admin,
      json: { start: FIRST_DAY.plus({ days: 3 }).toISO() },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(400)
    expect(await starts(ids)).toEqual(before)
    expect(reply.body.errors[0].message).toMatch(/^1 of 2 items could not be updated, so none was/)
    expect(reply.body.errors[0].data.errors.map((error: { id: number }) => error.id)).toEqual([
      ids[0],
    ])
  })

  it('writes none of the items selected when the caller may not write one of them, and says which', async () => {
    const { author } = await everyRole()
    const ids = await pair()
    const own = await call('/api/events', {
      method: 'POST',
      token: author.token,
      json: {
        title: unique('Whole bulk own '),
        status: 'draft',
        start: FIRST_DAY.plus({ days: 2 }).toISO(),
        end: FIRST_DAY.plus({ days: 2, hours: 1 }).toISO(),
      },
    })
    expect(own.status, JSON.stringify(own.body)).toBe(201)
    const selected = [own.body.doc.id as number, ids[0]!]
    for (const [method, json] of [
      ['PATCH', { title: unique('Retitled by the author ') }],
      ['DELETE', undefined],
    ] as const) {
      const reply = await call(`/api/events?where[id][in]=${selected.join(',')}`, {
        method,
        token: author.token,
        json,
      })
      expect({ method, status: reply.status }).toEqual({ method, status: 400 })
      expect(reply.body.errors[0].message).toMatch(
        /^1 of 2 items could not be (updated|deleted), so none was/,
      )
      expect(reply.body.errors[0].data.errors.map((error: { id: number }) => error.id)).toEqual([
        String(ids[0]),
      ])
      const mine = await call(`/api/events/${own.body.doc.id}?depth=0&draft=true`, {
        token: author.token,
      })
      expect(mine.status).toBe(200)
      expect(mine.body.title).toBe(own.body.doc.title)
    }
    // What the caller may write alone, and a search's "select all" (no ids named), are written.
    const alone = await call(`/api/events?where[id][in]=${own.body.doc.id}`, {
      method: 'PATCH',
      token: author.token,
      json: { title: unique('Retitled alone ') },
    })
    expect(alone.status, JSON.stringify(alone.body)).toBe(200)
  })

  it('deletes none of the items when one is locked by another account', async () => {
    const { editor } = await everyRole()
    const ids = await pair()
    const lock = await call('/api/payload-locked-documents', {
      method: 'POST',
      token: admin,
      json: { document: { relationTo: 'events', value: ids[0] } },
    })
    expect(lock.status, JSON.stringify(lock.body)).toBe(201)
    try {
      const reply = await call(`/api/events?where[id][in]=${ids.join(',')}`, {
        method: 'DELETE',
        token: editor.token,
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(400)
      expect(await starts(ids)).toHaveLength(2)
      expect(reply.body.errors[0].message).toMatch(
        /^1 of 2 items could not be deleted, so none was/,
      )
    } finally {
      await call(`/api/payload-locked-documents/${lock.body.doc.id}`, {
        method: 'DELETE',
        token: admin,
      })
    }
  })
})

describe('image downloads of namespace writes (second instance, ALLOW_PRIVATE_IMAGE_URLS=true)', () => {
  let instance: Instance
  let images: Awaited<ReturnType<typeof hostileServer>>

  beforeAll(async () => {
    images = await hostileServer({
      '/bad%zz.png': (_request, response) =>
        response.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
      '/drip.png': drip('image/png'),
    })
    instance = await startSecondInstance({ ALLOW_PRIVATE_IMAGE_URLS: 'true' })
  }, 200_000)

  afterAll(async () => {
    await images?.close()
    await instance?.stop()
  })

  const write = (image?: string) =>
    fetch(`${instance.base}${NS}/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `JWT ${admin}` },
      body: JSON.stringify(eventBody(image ? { image } : {})),
      signal: AbortSignal.timeout(40_000),
    }).then(async (response) => ({ status: response.status, body: await response.json() }))

  it('stores an image whose URL has a stray % in its path, and answers at once', async () => {
    const { ms, result } = await timed(() => write(`${images.base}/bad%zz.png`))
    expect(result.status, JSON.stringify(result.body)).toBe(201)
    expect(result.body.image.url).toMatch(/\/api\/media\/file\//)
    expect(ms).toBeLessThan(10_000)
  }, 60_000)

  it('leaves no image file behind when the write that downloaded it is refused', async () => {
    const media = path.join(process.env.DATA_DIR!, 'media')
    const files = async () => (await readdir(media).catch(() => [] as string[])).sort()
    const before = await files()
    const refused = await fetch(`${instance.base}${NS}/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `JWT ${admin}` },
      body: JSON.stringify(
        eventBody({
          image: `${images.base}/bad%zz.png`,
          recurrence: 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31',
        }),
      ),
    })
    expect(refused.status, await refused.text()).toBe(400)
    expect(await files()).toEqual(before)
  }, 60_000)

  it('refuses an image that drips after 10 s in all, while other writes go on', async () => {
    // More writes than the instance has database connections (10): none of them may hold one while it waits.
    const hostile = Array.from({ length: 12 }, () => timed(() => write(`${images.base}/drip.png`)))
    await sleep(1500)
    const plain = await timed(() => write())
    expect(plain.result.status, JSON.stringify(plain.result.body)).toBe(201)
    expect(plain.ms).toBeLessThan(5_000)
    for (const { ms, result } of await Promise.all(hostile)) {
      expect(result.status).toBe(400)
      expect(result.body.data.params.image).toMatch(/no complete answer within 10 s/)
      expect(ms).toBeLessThan(20_000)
    }
  }, 60_000)
})

describe('webhooks with a receiver that drips', () => {
  let peers: Awaited<ReturnType<typeof hostileServer>>
  const received: { id: number }[] = []
  const hooks: number[] = []

  beforeAll(async () => {
    peers = await hostileServer({
      '/drip': drip('text/plain'),
      '/good': (request, response) => {
        let raw = ''
        request.on('data', (chunk) => (raw += chunk))
        request.on('end', () => {
          received.push(JSON.parse(raw))
          response.writeHead(204).end()
        })
      },
    })
    for (const path of ['/drip', '/good']) {
      const reply = await call('/api/webhooks', {
        method: 'POST',
        token: admin,
        json: { url: `${peers.base}${path}`, types: ['category'] },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      hooks.push(reply.body.doc.id)
    }
  })

  afterAll(async () => {
    for (const id of hooks) await call(`/api/webhooks/${id}`, { method: 'DELETE', token: admin })
    await peers?.close()
  })

  const change = async () =>
    (await api('/categories', { method: 'POST', token: admin, json: { name: unique('hooked') } }))
      .body.id as number

  async function receivedWithin(id: number, ms: number): Promise<boolean> {
    for (const until = Date.now() + ms; Date.now() < until; await sleep(200))
      if (received.some((body) => body.id === id)) return true
    return false
  }

  it('delivers to the other endpoints at once, and cuts the dripping one off after 10 s in all', async () => {
    const first = await change()
    const pass = timed(() => call('/api/webhooks/deliver', { method: 'POST', token: admin }))
    expect(await receivedWithin(first, 5_000)).toBe(true)
    // A pass while the dripping delivery is still going on serves the good endpoint too.
    const second = await change()
    const another = call('/api/webhooks/deliver', { method: 'POST', token: admin })
    expect(await receivedWithin(second, 5_000)).toBe(true)
    const { ms, result } = await pass
    expect(result.status).toBe(200)
    expect(ms).toBeLessThan(16_000)
    expect((await another).status).toBe(200)
    // The dripping delivery (this pass's, or the queue's own) ends within its 10 s and is recorded.
    let lastError: string | null = null
    for (let attempt = 0; attempt < 60 && !lastError; attempt++, await sleep(250))
      lastError = (await call(`/api/webhooks/${hooks[0]}?depth=0`, { token: admin })).body.lastError
    expect(lastError).toMatch(/no complete answer within 10 s/)
  }, 60_000)
})

describe('imports from hostile sources', () => {
  let source: Awaited<ReturnType<typeof hostileServer>>
  let hugeSent = 0
  // Far beyond what the sockets' buffers on loopback take in (several MB under autotuning): an
  // answer sent whole was read whole.
  const HUGE = 64 * 1024 * 1024
  const word = unique('goodfeed')

  const index = (namespace: string) => ({
    namespace,
    routes: { [`/${namespace}/events`]: { endpoints: [{ methods: ['GET'], args: {} }] } },
  })

  beforeAll(async () => {
    source = await hostileServer({
      '/drip.ics': drip('text/calendar'),
      '/huge.ics': (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/calendar' })
        const chunk = Buffer.alloc(64 * 1024, 'x')
        const more = () => {
          while (hugeSent < HUGE) {
            hugeSent += chunk.length
            if (!response.write(chunk)) return void response.once('drain', more)
          }
          response.end()
        }
        response.on('close', () => response.removeAllListeners('drain'))
        more()
      },
      '/good.ics': (_request, response) =>
        response
          .writeHead(200, { 'Content-Type': 'text/calendar' })
          .end(
            [
              'BEGIN:VCALENDAR',
              'VERSION:2.0',
              'BEGIN:VEVENT',
              `UID:${word}@feed.test`,
              `SUMMARY:${word}`,
              'DTSTART:20310910T100000Z',
              'DTSTAMP:20261120T000000Z',
              'END:VEVENT',
              'END:VCALENDAR',
              '',
            ].join('\r\n'),
          ),
      // A site whose lists claim a billion pages, and one whose pages are fat.
      '/lying': (_request, response) =>
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify(index('lying/v1'))),
      '/lying/events': (_request, response) =>
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ events: [], total: 1e9, total_pages: 1e9 })),
      '/fat': (_request, response) =>
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify(index('fat/v1'))),
      '/fat/events': (_request, response) =>
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({
            events: [],
            total: 1000,
            total_pages: 1000,
            padding: 'x'.repeat(400 * 1024),
          }),
        ),
    })
  })

  afterAll(() => source?.close())

  const listed = (path: string) => source.hits.filter((hit) => hit === path).length

  it('gives up on a source that drips after IMPORT_REQUEST_SECONDS in all, and names the setting', async () => {
    const run = await runImportCli(['--ics', `${source.base}/drip.ics`], undefined, {
      IMPORT_REQUEST_SECONDS: '2',
    })
    expect(run.code, run.output).not.toBe(0)
    expect(run.output).toMatch(/no complete answer within 2 s \(IMPORT_REQUEST_SECONDS\)/)
  }, 120_000)

  it('refuses an answer over IMPORT_MAX_ANSWER_MB as it streams, without reading the rest', async () => {
    const run = await runImportCli(['--ics', `${source.base}/huge.ics`], undefined, {
      IMPORT_MAX_ANSWER_MB: '1',
    })
    expect(run.code, run.output).not.toBe(0)
    expect(run.output).toMatch(/the answer is larger than 1 MB \(IMPORT_MAX_ANSWER_MB\)/)
    expect(hugeSent).toBeLessThan(HUGE)
  }, 120_000)

  it('reads no more than IMPORT_MAX_PAGES pages of a list, whatever the source claims', async () => {
    const run = await runImportCli(['--from', `${source.base}/lying`], undefined, {
      IMPORT_MAX_PAGES: '3',
    })
    expect(run.output).toMatch(/more than 3 pages, the most a list is read to \(IMPORT_MAX_PAGES\)/)
    expect(listed('/lying/events')).toBe(3)
  }, 120_000)

  it('stops reading when a run has read IMPORT_MAX_RUN_MB, and says so', async () => {
    const run = await runImportCli(['--from', `${source.base}/fat`], undefined, {
      IMPORT_MAX_RUN_MB: '1',
    })
    expect(run.output).toMatch(/IMPORT_MAX_RUN_MB/)
    // 400 KB a page: the third page is cut off at the run's last bytes, and no page is asked for after it.
    expect(listed('/fat/events')).toBe(3)
  }, 120_000)

  it('imports a subscription while another one is still waiting on a source that drips', async () => {
    const subscribe = async (path: string) => {
      const saved = await call('/api/import-subscriptions', {
        method: 'POST',
        token: admin,
        json: { url: `${source.base}${path}`, format: 'ical', intervalHours: 24 },
      })
      expect(saved.status, JSON.stringify(saved.body)).toBe(201)
      return saved.body.doc.id as number
    }
    const statusOf = async (id: number) =>
      (await call(`/api/import-subscriptions/${id}?depth=0`, { token: admin })).body.lastStatus
    const slow = await subscribe('/drip.ics')
    const runs = [call('/api/payload-jobs/run?queue=calendar', { token: admin })]
    for (
      let attempt = 0;
      attempt < 50 && !(listed('/drip.ics') && (await statusOf(slow)) === 'running');
      attempt++
    )
      await sleep(200)
    expect(await statusOf(slow)).toBe('running')
    const good = await subscribe('/good.ics')
    runs.push(call('/api/payload-jobs/run?queue=calendar', { token: admin }))
    let done = false
    for (let attempt = 0; attempt < 75 && !done; attempt++) {
      await sleep(200)
      done = (await statusOf(good)) === 'done'
    }
    expect(done).toBe(true)
    expect(await statusOf(slow)).toBe('running')
    const imported = await api(`/events?search=${word}&start_date=2031-09-01&end_date=2031-09-30`, {
      token: admin,
    })
    expect(imported.body.events.map((event: { title: string }) => event.title)).toEqual([word])
    source.cut()
    await Promise.all(runs)
    for (const id of [slow, good])
      await call(`/api/import-subscriptions/${id}`, { method: 'DELETE', token: admin })
  }, 120_000)
})
