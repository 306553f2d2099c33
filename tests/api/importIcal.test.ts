/**
 * Importing iCalendar (docs/api.md §23.6, §23.7): a Google-style feed (a series with an excluded day, a
 * moved and a cancelled instance; all-day and UTC events), Outlook's Windows zones and floating times
 * through the admin's Imports (upload), this service's own `.ics` by URL, bad input, and a subscription
 * run by the jobs queue that trashes the events leaving its feed.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { afterQueueRuns, asAdmin, BASE_URL, call, NS, unique, userWithRole } from '../support/api'
import { eventsMatching, importCounts, queuedImport, runImportCli } from '../support/imports'
import { api, createEventAs, siteTimezone } from '../support/writeFixtures'

const fixtureFile = (name: string) => path.join(import.meta.dirname, '..', 'fixtures', name)
const fixture = (name: string) => readFileSync(fixtureFile(name), 'utf8')

let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

describe('npm run import -- --ics (a Google feed)', () => {
  it('makes the series this service’s series, with its excluded, moved and cancelled days; all-day and UTC events; places, people and categories', async () => {
    const run = await runImportCli(['--ics', fixtureFile('google.ics')])
    expect(run.code, run.output).toBe(0)
    // The moved instance updates the occurrence its series made on that day.
    expect(importCounts(run.output, 'event'), run.output).toEqual([3, 1, 0, 0])
    expect(importCounts(run.output, 'venue'), run.output).toEqual([2, 0, 0, 0])
    expect(importCounts(run.output, 'organizer'), run.output).toEqual([1, 0, 0, 0])

    const [first, ...later] = await eventsMatching('ICS Fixture Chess')
    expect(first).toMatchObject({
      title: 'ICS Fixture Chess Club',
      start_date: '2027-03-03 18:30:00',
      end_date: '2027-03-03 20:00:00',
      utc_start_date: '2027-03-03 23:30:00',
      timezone: 'America/New_York',
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=WE\nEXDATE:20270317T183000,20270324T183000',
      website: 'https://chess.example.org/club',
      description: '<p>Weekly <strong>chess</strong> club.<br />Bring a board.</p>',
    })
    expect(first.venue).toMatchObject({
      venue: 'ICS Fixture Library',
      address: '476 Fifth Avenue, New York, NY 10018, USA',
      geo_lat: 40.7532,
      geo_lng: -73.9822,
    })
    expect(first.organizer.map((organizer: any) => [organizer.organizer, organizer.email])).toEqual(
      [['ICS Fixture Chess Society', 'chess@example.org']],
    )
    expect(first.categories.map((term: any) => term.name).sort()).toEqual([
      'ICS Fixture Clubs',
      'ICS Fixture Games',
    ])
    // Mar 10 moved to Thursday the 11th (still EST); Mar 17 excluded; Mar 24 cancelled; COUNT=6 ends on Apr 7. After the DST change (Mar 14) 18:30 stays 18:30, an hour earlier in UTC.
    expect(later.map((event) => [event.title, event.start_date, event.utc_start_date])).toEqual([
      ['ICS Fixture Chess Club (Thursday)', '2027-03-11 19:00:00', '2027-03-12 00:00:00'],
      ['ICS Fixture Chess Club', '2027-03-31 18:30:00', '2027-03-31 22:30:00'],
      ['ICS Fixture Chess Club', '2027-04-07 18:30:00', '2027-04-07 22:30:00'],
    ])
    const moved = await call(`/api/events/${later[0].id}?depth=0`, { token: admin })
    expect(moved.body).toMatchObject({ parent: first.id, recurrenceException: true })

    const [fair] = await eventsMatching('ICS Fixture Book Fair')
    expect(fair).toMatchObject({
      all_day: true,
      start_date: '2027-04-10 00:00:00',
      end_date: '2027-04-11 23:59:59',
      timezone: 'America/New_York',
    })
    expect(fair.description).toBe('<p>Two days of books.</p>\n<p>Free entry.</p>')
    const [talk] = await eventsMatching('ICS Fixture Talk')
    expect(talk).toMatchObject({
      start_date: '2027-04-15 17:00:00',
      end_date: '2027-04-15 18:30:00',
      timezone: 'UTC',
    })
    expect(talk.venue.venue).toBe('ICS Fixture Hall')
    expect(await eventsMatching('ICS Fixture Cancelled')).toEqual([])
  })

  it('again changes nothing; a changed event is updated under its UID, not duplicated', async () => {
    const again = await runImportCli(['--ics', fixtureFile('google.ics')])
    expect(importCounts(again.output, 'event'), again.output).toEqual([0, 0, 4, 0])
    const changed = path.join(tmpdir(), `${unique('ics')}.ics`)
    writeFileSync(
      changed,
      fixture('google.ics').replace(
        'SUMMARY:ICS Fixture Talk',
        'SUMMARY:ICS Fixture Talk (room 2)',
      ),
    )
    const run = await runImportCli(['--ics', changed])
    expect(importCounts(run.output, 'event'), run.output).toEqual([0, 1, 3, 0])
    expect((await eventsMatching('ICS Fixture Talk')).map((event) => event.title)).toEqual([
      'ICS Fixture Talk (room 2)',
    ])
  })
})

describe('the admin’s Imports screen (an uploaded .ics)', () => {
  it('reads Outlook’s Windows zone names, a zone only its VTIMEZONE defines, and floating times on the site’s clock', async () => {
    const form = new FormData()
    form.append(
      'file',
      new Blob([fixture('outlook.ics')], { type: 'text/calendar' }),
      `${unique('outlook')}.ics`,
    )
    form.append('_payload', JSON.stringify({ source: 'ical' }))
    const run = await queuedImport(form)
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'done', created: 4, failed: 0 })
    const [meeting] = await eventsMatching('ICS Fixture Board Meeting')
    expect(meeting).toMatchObject({
      start_date: '2027-06-15 14:00:00',
      utc_start_date: '2027-06-15 12:00:00',
      timezone: 'Europe/Berlin',
    })
    expect(meeting.venue.venue).toBe('ICS Fixture Boardroom')
    const [call_] = await eventsMatching('ICS Fixture Custom Zone Call')
    expect(call_).toMatchObject({ start_date: '2027-06-16 04:00:00', timezone: 'UTC' })
    const [breakfast] = await eventsMatching('ICS Fixture Floating Breakfast')
    expect(breakfast).toMatchObject({
      start_date: '2027-06-17 08:00:00',
      timezone: await siteTimezone(),
      status: 'private',
    })
  })
})

describe('an uploaded .ics with items no record could quote', () => {
  it('records each bad item with a bounded label and its reason, and the run as done with the rest imported', async () => {
    const fine = unique('ICS Fine ')
    const vevent = (uid: string, summary: string, ...lines: string[]) => [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `SUMMARY:${summary}`,
      'DTSTART:20310105T100000Z',
      'DTEND:20310105T110000Z',
      ...lines,
      'END:VEVENT',
    ]
    const form = new FormData()
    form.append(
      'file',
      new Blob(
        [
          [
            'BEGIN:VCALENDAR',
            ...vevent(unique('long-'), 'B'.repeat(41_000)),
            ...vevent(unique('nul-'), 'before\u0000after'),
            ...vevent(unique('rule-'), 'Bad rule', 'RRULE:FREQ=YEARLY;BYMONTH=13'),
            ...vevent(unique('fine-'), fine),
            'END:VCALENDAR',
            '',
          ].join('\r\n'),
        ],
        { type: 'text/calendar' },
      ),
      `${unique('hostile')}.ics`,
    )
    form.append('_payload', JSON.stringify({ source: 'ical' }))
    const run = await queuedImport(form)
    expect(run, JSON.stringify(run).slice(0, 2000)).toMatchObject({
      status: 'done',
      created: 1,
      failed: 3,
    })
    const failures = (run as unknown as { failures: { item: string; reason: string }[] }).failures
    expect(failures.map((failure) => failure.item.slice(0, 14))).toEqual([
      'event VEVENT 1',
      'event VEVENT 2',
      'event VEVENT 3',
    ])
    for (const failure of failures) {
      expect(failure.item.length).toBeLessThanOrEqual(200)
      expect(failure.item).not.toContain('\u0000')
      expect(failure.reason.length).toBeGreaterThan(0)
    }
    expect(await eventsMatching(fine)).toHaveLength(1)
  })
})

describe('this service’s own .ics', () => {
  it('imported by URL into the site that wrote it, finds every event by its UID and changes nothing', async () => {
    const word = unique('icsown')
    const category = (
      await api('/categories', { method: 'POST', token: admin, json: { name: `${word} Talks` } })
    ).body
    const venue = (
      await api('/venues', {
        method: 'POST',
        token: admin,
        json: {
          venue: `${word} Hall`,
          address: '1 Quai',
          city: 'Lyon',
          geo_lat: 45.76,
          geo_lng: 4.83,
          status: 'publish',
        },
      })
    ).body
    const organizer = (
      await api('/organizers', {
        method: 'POST',
        token: admin,
        json: { organizer: `${word} Host`, email: 'host@example.org', status: 'publish' },
      })
    ).body
    const single = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: `${word} Lecture`,
        description: '<p>About <em>time</em>.</p>',
        start_date: '2027-05-04 18:00:00',
        end_date: '2027-05-04 19:30:00',
        timezone: 'Europe/Paris',
        venue: venue.id,
        organizer: [organizer.id],
        categories: [category.id],
        status: 'publish',
      },
    })
    expect(single.status, JSON.stringify(single.body)).toBe(201)
    const series = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: `${word} Weekly`,
        start_date: '2027-05-05 10:00:00',
        end_date: '2027-05-05 11:00:00',
        timezone: 'Europe/Paris',
        status: 'publish',
        recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3',
      },
    })
    const [, second] = await eventsMatching(`${word} Weekly`)
    expect(
      (
        await api(`/events/${second.id}`, {
          method: 'PATCH',
          token: admin,
          json: { title: `${word} Weekly (special)` },
        })
      ).status,
    ).toBe(200)

    const feed = `${BASE_URL}${NS}/events.ics?search=${word}&start_date=2027-01-01&end_date=2027-12-31`
    const run = await runImportCli(['--ics', feed, '--auth', `JWT ${admin}`])
    expect(run.code, run.output).toBe(0)
    expect(importCounts(run.output, 'event'), run.output).toEqual([0, 0, 3, 0])
    expect(importCounts(run.output, 'venue'), run.output).toEqual([0, 0, 1, 0])
    expect(importCounts(run.output, 'organizer'), run.output).toEqual([0, 0, 1, 0])
    const ids = (await eventsMatching(word)).map((event) => event.id)
    expect(ids).toHaveLength(4)
    expect(ids).toEqual(expect.arrayContaining([single.body.id, series.body.id, second.id]))
  })
})

describe('iCalendar that cannot be read', () => {
  it('an HTML page instead of a feed, a URL nothing answers at', async () => {
    const html = path.join(tmpdir(), `${unique('html')}.ics`)
    writeFileSync(html, '<!doctype html><html><body>Sign in</body></html>')
    const page = await runImportCli(['--ics', html])
    expect(page.code, page.output).toBe(2)
    expect(page.output).toContain('Not iCalendar: an HTML page')
    const away = await runImportCli(['--ics', 'http://127.0.0.1:1/calendar.ics'])
    expect(away.code, away.output).toBe(2)
    expect(away.output).toContain(
      'GET http://127.0.0.1:1/calendar.ics: nothing answers at 127.0.0.1:1 (connection refused)',
    )
  })
})

describe('import subscriptions', () => {
  let server: Server
  let feed: string
  const word = unique('icssub')
  const vevent = (n: number, name = word) =>
    [
      'BEGIN:VEVENT',
      `UID:${name}-${n}@feed.test`,
      `SUMMARY:${name} Event ${n}`,
      `DTSTART:2027-09-0${n}T100000Z`.replace(/-/g, ''),
      'DTSTAMP:20261120T000000Z',
      'END:VEVENT',
    ].join('\r\n')
  let events = [1, 2, 3]
  /** What `/takeover.ics` serves. */
  let takeover: string[] = []

  beforeAll(async () => {
    server = createServer((request, response) => {
      // `/<name>.ics` is a feed of its own, of three events named for it; `/feed.ics` follows `events`.
      const name = /^\/(\w+)\.ics$/.exec(request.url ?? '')?.[1]
      const feedEvents =
        name === 'takeover'
          ? takeover
          : name && name !== 'feed'
            ? [1, 2, 3].map((n) => vevent(n, name))
            : events.map((n) => vevent(n))
      response
        .writeHead(200, { 'Content-Type': 'text/calendar' })
        .end(['BEGIN:VCALENDAR', 'VERSION:2.0', ...feedEvents, 'END:VCALENDAR', ''].join('\r\n'))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    feed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.ics`
  })

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  /** Turning a subscription off and on queues its run at once, as a new one's. */
  async function runAgain(id: number): Promise<void> {
    for (const active of [false, true])
      await call(`/api/import-subscriptions/${id}`, {
        method: 'PATCH',
        token: admin,
        json: { active },
      })
  }

  /** Runs the jobs queue until the subscription has run since `before` (the server's own polling may take the job first). */
  async function runQueue(id: number, before: string | null = null): Promise<any> {
    let record: any
    await afterQueueRuns(
      admin,
      async () =>
        (record = (await call(`/api/import-subscriptions/${id}?depth=0`, { token: admin })).body),
      120_000,
    ).toSatisfy(
      (run: any) =>
        run.lastRunAt !== before && (run.lastStatus === 'done' || run.lastStatus === 'failed'),
    )
    return record
  }

  it('imports its feed when saved, with its default categories; a later run trashes the events that left the feed', async () => {
    const category = (
      await api('/categories', { method: 'POST', token: admin, json: { name: `${word} Imported` } })
    ).body
    const saved = await call('/api/import-subscriptions', {
      method: 'POST',
      token: admin,
      json: {
        url: feed,
        format: 'ical',
        intervalHours: 6,
        defaultCategories: [category.id],
        createdStatus: 'publish',
      },
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    const id = saved.body.doc.id as number
    const first = await runQueue(id)
    expect(first, JSON.stringify(first)).toMatchObject({
      lastStatus: 'done',
      created: 3,
      trashed: 0,
      failed: 0,
    })
    const imported = await eventsMatching(word)
    expect(imported.map((event) => event.title)).toEqual([1, 2, 3].map((n) => `${word} Event ${n}`))
    for (const event of imported)
      expect(event.categories.map((term: any) => term.id)).toEqual([category.id])

    events = [1, 3]
    const before = first.lastRunAt as string
    await runAgain(id)
    const second = await runQueue(id, before)
    expect(second, JSON.stringify(second)).toMatchObject({
      lastStatus: 'done',
      created: 0,
      unchanged: 2,
      trashed: 1,
      failed: 0,
    })
    expect((await eventsMatching(word)).map((event) => event.title)).toEqual([
      `${word} Event 1`,
      `${word} Event 3`,
    ])
    const gone = imported.find((event) => event.title === `${word} Event 2`)
    expect((await call(`/api/events/${gone.id}?depth=0`, { token: admin })).body.status).toBe(
      'trash',
    )

    // Back in the feed: back from the trash, the same event.
    events = [1, 2, 3]
    await runAgain(id)
    const third = await runQueue(id, second.lastRunAt)
    expect(third, JSON.stringify(third)).toMatchObject({
      lastStatus: 'done',
      created: 0,
      updated: 1,
      unchanged: 2,
      trashed: 0,
    })
    expect((await call(`/api/events/${gone.id}?depth=0`, { token: admin })).body.status).toBe(
      'publish',
    )
  })

  it('never takes one of this site’s events for the feed’s own, though its UID names it: the feed can neither rewrite nor trash it', async () => {
    const title = unique('Local gala')
    const local = await createEventAs(admin, {
      title,
      status: 'publish',
      start_date: '2027-10-02 19:00:00',
      end_date: '2027-10-02 21:00:00',
    })
    const file = await fetch(`${BASE_URL}${NS}/events/${local.id}.ics`)
    const uid = /^UID:(.+)$/m.exec(await file.text())?.[1]?.trim()
    expect(uid).toMatch(new RegExp(`^${local.id}@`))
    takeover = [
      ['BEGIN:VEVENT', `UID:${uid}`, `SUMMARY:${word} Taken over`],
      ['DTSTART:20271002T170000Z', 'DTSTAMP:20261120T000000Z', 'END:VEVENT'],
    ].flat()
    const saved = await call('/api/import-subscriptions', {
      method: 'POST',
      token: admin,
      json: { url: feed.replace('feed.ics', 'takeover.ics'), format: 'ical', intervalHours: 6 },
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    const id = saved.body.doc.id as number
    const first = await runQueue(id)
    expect(first, JSON.stringify(first)).toMatchObject({
      lastStatus: 'done',
      created: 1,
      updated: 0,
    })
    const read = async () => (await call(`/api/events/${local.id}?depth=0`, { token: admin })).body
    expect(await read()).toMatchObject({ title, status: 'publish' })

    // Left out of the feed: its own copy goes to the trash, this site's event stays.
    takeover = []
    await runAgain(id)
    const second = await runQueue(id, first.lastRunAt)
    expect(second, JSON.stringify(second)).toMatchObject({ lastStatus: 'done', trashed: 1 })
    expect(await read()).toMatchObject({ title, status: 'publish' })
  })

  it('imports a subscription once though it was turned off and on before its first run', async () => {
    // The jobs runner polls at each minute's start and may run the first save's import before the
    // other saves: the second would then rightly queue a run after it. The saves go clear of it.
    const toNextMinute = 60_000 - (Date.now() % 60_000)
    if (toNextMinute < 15_000)
      await new Promise((resolve) => setTimeout(resolve, toNextMinute + 1_000))
    const name = unique('icsonce')
    const saved = await call('/api/import-subscriptions', {
      method: 'POST',
      token: admin,
      json: {
        url: feed.replace('/feed.ics', `/${name}.ics`),
        format: 'ical',
        intervalHours: 6,
        createdStatus: 'publish',
      },
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    const id = saved.body.doc.id as number
    // Each save that turns it on queues a first run: the second finds the first already done.
    await runAgain(id)
    const first = await runQueue(id)
    expect((await call('/api/payload-jobs/run?queue=calendar', { token: admin })).status).toBe(200)
    const after = (await call(`/api/import-subscriptions/${id}?depth=0`, { token: admin })).body
    expect(after, JSON.stringify(after)).toMatchObject({
      lastStatus: 'done',
      lastRunAt: first.lastRunAt,
      created: 3,
      unchanged: 0,
    })
  })

  it('is for administrators only, and a feed that fails is recorded with its reason', async () => {
    const editor = await userWithRole('editor')
    expect((await call('/api/import-subscriptions', { token: editor.token })).status).toBe(403)
    expect(
      (
        await call('/api/import-subscriptions', {
          method: 'POST',
          token: editor.token,
          json: { url: feed },
        })
      ).status,
    ).toBe(403)
    const saved = await call('/api/import-subscriptions', {
      method: 'POST',
      token: admin,
      json: { url: 'http://127.0.0.1:1/none.ics', intervalHours: 1 },
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    const record = await runQueue(saved.body.doc.id)
    expect(record).toMatchObject({ lastStatus: 'failed' })
    expect(record.error).toContain('nothing answers at 127.0.0.1:1')
  })
})
