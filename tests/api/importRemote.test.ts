/**
 * Importing from a live calendar site over its REST API v1 (docs/api.md §23.5). The site is a second
 * instance of this service on a database of its own, filled through its namespace with every field,
 * two languages, a series with an exception, and protected, private, draft and scheduled items; the
 * import runs through `npm run import -- --from` and through the admin's Imports (jobs queue): without
 * credentials, with them, again (unchanged), after a change (updated), killed then resumed (no
 * duplicates). Bad sources are a local HTTP server saying the wrong things.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DateTime } from 'luxon'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique, userWithRole } from '../support/api'
import { importCounts, queuedImport, runImportCli } from '../support/imports'
import { startSecondInstance, type Instance } from '../support/secondInstance'
import { siteClient } from '../support/siteClient'
import { api } from '../support/writeFixtures'

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWP4z8AARwgWOgcA9TEL9UV+YsgAAAAASUVORK5CYII='
const WALL = 'yyyy-MM-dd HH:mm:ss'
const ZONE = 'Europe/Paris'

let site: Instance
let siteToken: string
let root: string
let admin: string
const word = unique('remote')
const ids: Record<string, number> = {}
/** The series' first Tuesday, 19:00 in Paris, two months ahead (well within the horizon). */
const FIRST = DateTime.now()
  .setZone(ZONE)
  .plus({ months: 2 })
  .set({ weekday: 2, hour: 19, minute: 0, second: 0, millisecond: 0 })

const { onSite, write, signIn } = siteClient(() => site)

async function fillSite(): Promise<void> {
  siteToken = await signIn({ email: 'site@calendar.test', password: 'site-password-1' })
  const form = new FormData()
  form.append('file', new Blob([Buffer.from(PNG, 'base64')], { type: 'image/png' }), `${word}.png`)
  form.append('_payload', JSON.stringify({ alt: word }))
  const media = await onSite('/api/media', { method: 'POST', body: form })
  expect(media.status, JSON.stringify(media.body)).toBe(201)
  ids.media = media.body.doc.id

  ids.music = (await write('/categories', { name: `${word} Music`, description: 'All music' })).id
  ids.jazz = (
    await write('/categories', { name: `${word} Jazz`, parent: ids.music, slug: `${word}-jazz` })
  ).id
  await write(
    `/categories/${ids.jazz}`,
    { i18n_language: 'fr', name: `${word} Jazz FR`, description: 'Tout le jazz' },
    'PATCH',
  )
  ids.evening = (await write('/tags', { name: `${word} Evening` })).id
  ids.hall = (
    await write('/venues', {
      venue: `${word} Hall`,
      description: '<p>A <em>fine</em> hall.</p>',
      excerpt: 'By the river',
      address: '1 Quai',
      city: 'Lyon',
      country: 'France',
      province: 'Auvergne-Rhône-Alpes',
      zip: '69001',
      phone: '+33 4 00 00 00 00',
      website: 'https://hall.example.org/',
      geo_lat: 45.76,
      geo_lng: 4.83,
      show_map: true,
      show_map_link: false,
      image: ids.media,
      status: 'publish',
    })
  ).id
  await write(
    `/venues/${ids.hall}`,
    { i18n_language: 'fr', venue: `${word} Salle`, description: '<p>Une belle salle.</p>' },
    'PATCH',
  )
  ids.ensemble = (
    await write('/organizers', {
      organizer: `${word} Ensemble`,
      email: 'ensemble@example.org',
      phone: '123',
      website: 'https://ensemble.example.org/',
      status: 'publish',
    })
  ).id

  const jazz = await write('/events', {
    title: `${word} Jazz Night`,
    description: '<p>An evening of <strong>jazz</strong>.</p>',
    excerpt: 'Jazz in the courtyard',
    slug: `${word}-jazz-night`,
    start_date: '2031-06-12 19:30:00',
    end_date: '2031-06-12 23:00:00',
    timezone: ZONE,
    cost: ['10€', '20€'],
    website: 'https://jazz.example.org/',
    show_map: false,
    show_map_link: true,
    sticky: true,
    featured: true,
    categories: [ids.jazz],
    tags: [ids.evening],
    venue: ids.hall,
    organizer: [ids.ensemble],
    image: ids.media,
    status: 'publish',
    date_utc: '2026-01-02 03:04:05',
  })
  ids.jazzNight = jazz.id
  await write(
    `/events/${jazz.id}`,
    {
      i18n_language: 'fr',
      title: `${word} Soirée jazz`,
      description: '<p>Une soirée de jazz.</p>',
      slug: `${word}-soiree-jazz`,
    },
    'PATCH',
  )
  // The currency code is not a namespace write field: Payload's REST sets it.
  expect(
    (await onSite(`/api/events/${jazz.id}`, { method: 'PATCH', json: { currencyCode: 'EUR' } }))
      .status,
  ).toBe(200)

  ids.harvest = (
    await write('/events', {
      title: `${word} Harvest`,
      start_date: '2031-06-15',
      end_date: '2031-06-15',
      all_day: true,
      timezone: 'America/New_York',
      status: 'publish',
    })
  ).id
  const series = await write('/events', {
    title: `${word} Weekly`,
    start_date: FIRST.toFormat(WALL),
    end_date: FIRST.plus({ hours: 2 }).toFormat(WALL),
    timezone: ZONE,
    status: 'publish',
    recurrence: 'RRULE:FREQ=WEEKLY;COUNT=4',
  })
  ids.series = series.id
  const occurrences = await onSite(
    `${NS}/events?post_parent=${series.id}&start_date=2020-01-01&end_date=2040-01-01`,
  )
  expect(occurrences.body.events).toHaveLength(3)
  ids.exception = occurrences.body.events[1].id
  await write(
    `/events/${ids.exception}`,
    { title: `${word} Weekly (moved to the cellar)` },
    'PATCH',
  )

  const single = (title: string, extra: Record<string, unknown>) =>
    write('/events', {
      title: `${word} ${title}`,
      start_date: '2031-07-01 10:00:00',
      end_date: '2031-07-01 11:00:00',
      timezone: ZONE,
      ...extra,
    })
  ids.protected = (
    await single('Protected', {
      status: 'publish',
      password: 'sesame',
      description: '<p>Secret content</p>',
    })
  ).id
  ids.private = (await single('Private', { status: 'private' })).id
  ids.draft = (await single('Draft', { status: 'draft' })).id
  ids.scheduled = (
    await single('Scheduled', { status: 'future', date_utc: '2030-01-01 00:00:00' })
  ).id
}

beforeAll(async () => {
  admin = await asAdmin()
  site = await startSecondInstance({}, { ownDatabase: true })
  root = `${site.base}${NS}`
  await fillSite()
}, 300_000)

afterAll(async () => {
  await site?.stop()
})

/** The events of this test on the main server, every status. */
async function listed(): Promise<any[]> {
  const reply = await api(
    `/events?search=${word}&start_date=2020-01-01&end_date=2040-01-01&per_page=50&status=publish,future,draft,pending,private`,
    {
      token: admin,
    },
  )
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.events
}

/** By title (a series' events share theirs: the first is kept). */
async function imported(): Promise<Map<string, any>> {
  const events = await listed()
  return new Map(events.reverse().map((event) => [event.title, event]))
}

const titles = async () => (await listed()).map((event) => event.title).sort()

// Each run starts the CLI (tsx, Payload) afresh: a minute or more when the machine is busy.
describe('npm run import -- --from (a site of this service)', { timeout: 180_000 }, () => {
  it('without credentials copies what is public, every field and both languages, and names what it could not read', async () => {
    const run = await runImportCli(['--from', root])
    expect(run.code, run.output).toBe(1)
    expect(run.output).toMatch(/event\s+\[#+\] \d+\/\d+/)
    expect(run.output).toMatch(
      /failed: event \d+ \(.* Protected\): password-protected: the site withholds its content/,
    )
    // The series' later events are made by its first event here, then compared: the exception is updated.
    expect(importCounts(run.output, 'event'), run.output).toEqual([3, 1, 2, 1])

    const events = await imported()
    expect(await titles()).toEqual(
      [
        `${word} Harvest`,
        `${word} Jazz Night`,
        `${word} Weekly`,
        `${word} Weekly`,
        `${word} Weekly`,
        `${word} Weekly (moved to the cellar)`,
      ].sort(),
    )
    const jazz = events.get(`${word} Jazz Night`)
    expect(jazz).toMatchObject({
      slug: `${word}-jazz-night`,
      status: 'publish',
      start_date: '2031-06-12 19:30:00',
      end_date: '2031-06-12 23:00:00',
      utc_start_date: '2031-06-12 17:30:00',
      timezone: ZONE,
      all_day: false,
      website: 'https://jazz.example.org/',
      show_map: false,
      show_map_link: true,
      sticky: true,
      featured: true,
      date_utc: '2026-01-02 03:04:05',
      description: '<p>An evening of <strong>jazz</strong>.</p>',
    })
    expect(jazz.excerpt).toContain('Jazz in the courtyard')
    expect(jazz.cost_details).toMatchObject({
      currency_symbol: '€',
      currency_position: 'postfix',
      currency_code: 'EUR',
      values: ['10', '20'],
    })
    expect(jazz.image.url).toMatch(new RegExp(`^${process.env.CAL_TEST_URL ?? 'http'}`))
    expect(jazz.categories.map((term: any) => term.name)).toEqual([`${word} Jazz`])
    expect(jazz.tags.map((term: any) => term.name)).toEqual([`${word} Evening`])
    expect(jazz.venue).toMatchObject({
      venue: `${word} Hall`,
      address: '1 Quai',
      city: 'Lyon',
      country: 'France',
      province: 'Auvergne-Rhône-Alpes',
      zip: '69001',
      geo_lat: 45.76,
      geo_lng: 4.83,
      show_map: true,
      show_map_link: false,
      website: 'https://hall.example.org/',
    })
    expect(jazz.venue.image.url).toBeTruthy()
    expect(jazz.organizer.map((organizer: any) => [organizer.organizer, organizer.email])).toEqual([
      [`${word} Ensemble`, 'ensemble@example.org'],
    ])

    const french = (await api(`/events/${jazz.id}?i18n_language=fr`)).body
    expect(french).toMatchObject({
      title: `${word} Soirée jazz`,
      slug: `${word}-soiree-jazz`,
      description: '<p>Une soirée de jazz.</p>',
    })
    expect(french.venue.venue).toBe(`${word} Salle`)
    expect(french.categories.map((term: any) => term.name)).toEqual([`${word} Jazz FR`])
    const category = (await api(`/categories/${jazz.categories[0].id}`)).body
    expect(category.parent).toBeGreaterThan(0)
    expect((await api(`/categories/${category.parent}`)).body.name).toBe(`${word} Music`)

    const harvest = events.get(`${word} Harvest`)
    expect(harvest).toMatchObject({
      all_day: true,
      start_date: '2031-06-15 00:00:00',
      end_date: '2031-06-15 23:59:59',
      timezone: 'America/New_York',
    })

    // The series is this service's series again: the first event with its rule, the exception an exception.
    const first = (await listed()).find(
      (event) => event.title === `${word} Weekly` && event.recurrence,
    )
    expect(first.recurrence).toBe('RRULE:FREQ=WEEKLY;COUNT=4')
    const later = (
      await api(`/events?post_parent=${first.id}&start_date=2020-01-01&end_date=2040-01-01`, {
        token: admin,
      })
    ).body.events
    expect(later.map((event: any) => event.title)).toEqual([
      `${word} Weekly`,
      `${word} Weekly (moved to the cellar)`,
      `${word} Weekly`,
    ])
    const exception = await call(`/api/events/${later[1].id}?depth=0`, { token: admin })
    expect(exception.body.recurrenceException).toBe(true)
  })

  it('with credentials also copies private, draft, scheduled and protected items with their passwords; again: every item unchanged', async () => {
    const run = await runImportCli(['--from', root, '--auth', `JWT ${siteToken}`])
    expect(run.code, run.output).toBe(0)
    expect(importCounts(run.output, 'event'), run.output).toEqual([4, 0, 6, 0])
    const events = await imported()
    expect(events.get(`${word} Private`)?.status).toBe('private')
    expect(events.get(`${word} Draft`)?.status).toBe('draft')
    expect(events.get(`${word} Scheduled`)).toMatchObject({
      status: 'future',
      date_utc: '2030-01-01 00:00:00',
    })
    const protectedId = events.get(`${word} Protected`).id
    expect((await api(`/events/${protectedId}`)).status).toBe(403)
    const unlocked = await api(`/events/${protectedId}?password=sesame`)
    expect(unlocked.status).toBe(200)
    expect(unlocked.body.description).toBe('<p>Secret content</p>')

    const again = await queuedImport({
      source: 'site',
      sourceUrl: root,
      credentials: `JWT ${siteToken}`,
    })
    expect(again, JSON.stringify(again.failures)).toMatchObject({
      status: 'done',
      created: 0,
      updated: 0,
      failed: 0,
    })
    expect(again.unchanged).toBe(again.total)
  })

  it('keeps the credentials from anyone but administrators', async () => {
    const saved = await call('/api/imports', {
      method: 'POST',
      token: admin,
      json: {
        source: 'site',
        sourceUrl: 'http://127.0.0.1:1/api',
        credentials: 'user:secret',
        status: 'done',
      },
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    expect(
      (await call(`/api/imports/${saved.body.doc.id}`, { token: admin })).body.credentials,
    ).toBe('user:secret')
    const editor = await userWithRole('editor')
    expect((await call(`/api/imports/${saved.body.doc.id}`, { token: editor.token })).status).toBe(
      403,
    )
    expect(
      (await call(`/api/imports?where[id][equals]=${saved.body.doc.id}`, { token: editor.token }))
        .status,
    ).toBe(403)
  })

  it('updates what changed on the site, in either language', async () => {
    await write(`/events/${ids.jazzNight}`, { excerpt: 'Jazz under the plane trees' }, 'PATCH')
    await write(
      `/venues/${ids.hall}`,
      { i18n_language: 'fr', description: '<p>Une salle rénovée.</p>' },
      'PATCH',
    )
    const run = await runImportCli(['--from', root, '--auth', `JWT ${siteToken}`])
    expect(run.code, run.output).toBe(0)
    expect(importCounts(run.output, 'event'), run.output).toEqual([0, 1, 9, 0])
    expect(importCounts(run.output, 'venue'), run.output).toEqual([0, 1, 0, 0])
    const jazz = (await imported()).get(`${word} Jazz Night`)
    expect(jazz.excerpt).toContain('Jazz under the plane trees')
    expect((await api(`/venues/${jazz.venue.id}?i18n_language=fr`)).body.description).toBe(
      '<p>Une salle rénovée.</p>',
    )
  })

  it("takes a local category or tag of the same name among the same siblings as the site's, never making a second", async () => {
    const [category, tag] = [`${word} Blues`, `${word} Late`]
    const siteBlues = (await write('/categories', { name: category, parent: ids.music })).id
    const siteLate = (await write('/tags', { name: tag })).id
    await write(
      `/events/${ids.jazzNight}`,
      { categories: [ids.jazz, siteBlues], tags: [ids.evening, siteLate] },
      'PATCH',
    )
    const localMusic = (
      await api(`/categories?search=${encodeURIComponent(`${word} Music`)}&hide_empty=false`)
    ).body.categories.find((term: { name: string }) => term.name === `${word} Music`)
    const localBlues = (
      await api('/categories', {
        method: 'POST',
        token: admin,
        json: { name: category.toUpperCase(), parent: localMusic.id },
      })
    ).body.id
    const localLate = (await api('/tags', { method: 'POST', token: admin, json: { name: tag } }))
      .body.id
    const run = await runImportCli(['--from', root, '--auth', `JWT ${siteToken}`])
    expect(run.code, run.output).toBe(0)
    for (const kind of ['category', 'tag', 'event']) {
      const [created, , , failed] = importCounts(run.output, kind)!
      expect([created, failed], `${kind}: ${run.output}`).toEqual([0, 0])
    }
    const jazz = (await imported()).get(`${word} Jazz Night`)
    expect(jazz.categories.map((term: { id: number }) => term.id)).toContain(localBlues)
    expect(jazz.tags.map((term: { id: number }) => term.id)).toContain(localLate)
    for (const [route, name] of [
      ['categories', category],
      ['tags', tag],
    ] as const) {
      const found = (await api(`/${route}?search=${encodeURIComponent(name)}&hide_empty=false`))
        .body[route]
      expect(
        found.filter((term: { name: string }) => term.name.toLowerCase() === name.toLowerCase()),
      ).toHaveLength(1)
    }
  })

  it('killed midway, then run again, completes without duplicates', async () => {
    const bulk = unique('remotebulk')
    for (let i = 0; i < 80; i++) {
      await write('/events', {
        title: `${bulk} ${String(i).padStart(2, '0')}`,
        start_date: `2032-03-01 ${String(8 + (i % 12)).padStart(2, '0')}:00:00`,
        end_date: '2032-03-01 21:00:00',
        status: 'publish',
      })
    }
    const count = async () =>
      (
        await api(`/events?search=${bulk}&start_date=2032-01-01&end_date=2032-12-31&per_page=1`, {
          token: admin,
        })
      ).body.total as number
    // Killed by what it has written: at 70 events a second, its line a second comes too late.
    const killed = await runImportCli(['--from', root], async () => (await count()) > 10)
    expect(killed.signal, killed.output).toBe('SIGKILL')
    const partial = await count()
    expect(partial).toBeGreaterThan(0)
    expect(partial).toBeLessThan(80)
    const resumed = await runImportCli(['--from', root])
    expect(resumed.code, resumed.output).toBe(1)
    expect(await count()).toBe(80)
    const events = importCounts(resumed.output, 'event')!
    expect(events[0]).toBe(80 - partial)
  })
})

describe('sources that cannot be read', () => {
  let server: Server
  let base: string
  const routes: Record<string, (response: import('node:http').ServerResponse) => void> = {
    '/html': (response) =>
      response
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!doctype html><html><body>Welcome</body></html>'),
    '/shape': (response) =>
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"hello":"world"}'),
    '/broken': (response) =>
      response
        .writeHead(500, { 'Content-Type': 'application/json' })
        .end('{"code":"oops","message":"Something broke"}'),
    '/fake/v1': (response) =>
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          namespace: 'fake/v1',
          routes: { '/fake/v1/events': { endpoints: [{ methods: ['GET'], args: {} }] } },
        }),
      ),
    '/fake/v1/events': (response) =>
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          events: [
            {
              id: 1,
              title: `${word} Fake good`,
              start_date: '2031-08-01 10:00:00',
              end_date: '2031-08-01 11:00:00',
              timezone: 'UTC',
              all_day: false,
              featured: false,
            },
            {
              id: 2,
              title: `${word} Fake bad`,
              start_date: 'tomorrow',
              all_day: false,
              featured: false,
            },
            {
              id: 4,
              title: `${word} Fake trashed`,
              status: 'trash',
              start_date: '2031-08-02 10:00:00',
              end_date: '2031-08-02 11:00:00',
              timezone: 'UTC',
              all_day: false,
              featured: false,
            },
          ],
          total: 4,
          total_pages: 2,
        }),
      ),
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x')
      const route = url.searchParams.get('page') === '2' ? undefined : routes[url.pathname]
      if (route) route(response)
      else response.writeHead(500).end('no')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const failsWith = async (url: string, message: RegExp, env: Record<string, string> = {}) => {
    const run = await runImportCli(['--from', url], undefined, env)
    expect(run.code, run.output).toBe(2)
    expect(run.output).toMatch(message)
  }

  it('unreachable', () =>
    failsWith(
      'http://127.0.0.1:1/api/cal/events/v1',
      /GET http:\/\/127\.0\.0\.1:1\/api\/cal\/events\/v1: nothing answers at 127\.0\.0\.1:1/,
    ))
  it('an HTML page', () => failsWith(`${base}/html`, /answered an HTML page, not JSON/))
  it('JSON of another shape', () => failsWith(`${base}/shape`, /not a REST API namespace index/))
  it('an HTTP error', () =>
    failsWith(`${base}/broken`, /HTTP 500 Internal Server Error: Something broke \(oops\)/))
  it('a private address while the guard is on', () =>
    failsWith(
      root,
      /127\.0\.0\.1:\d+ is a private, loopback or link-local address, which is refused/,
      { IMPORT_ALLOW_PRIVATE: 'false' },
    ))

  it('an item without dates and a page that fails are reported by name; the rest is imported', async () => {
    const run = await runImportCli(['--from', `${base}/fake/v1`])
    expect(run.code, run.output).toBe(1)
    expect(run.output).toMatch(
      /failed: event 2 \(.* Fake bad\): start_date and end_date must be "YYYY-MM-DD HH:MM:SS"/,
    )
    expect(run.output).toMatch(/failed: event page 2: GET .*page=2.*: HTTP 500/)
    expect((await imported()).get(`${word} Fake good`)).toMatchObject({
      start_date: '2031-08-01 10:00:00',
      timezone: 'UTC',
    })
    // A trashed item the site lists unasked is not copied without --trash (docs/api.md §23.5).
    const trashed = await api(
      `/events?search=${encodeURIComponent(`${word} Fake trashed`)}&start_date=2031-08-01&end_date=2031-08-03&status=trash`,
      { token: admin },
    )
    expect(trashed.body.events).toEqual([])
  })
})
