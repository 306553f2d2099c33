/**
 * iCalendar feeds and files (docs/api.md §22): `/events.ics` holds what `/events` lists,
 * `/events/{id}.ics` one event (a series' first event: the series). Every answer is read back with
 * ical.js, a parser that owes nothing to the writer; series are expanded there and compared with the
 * namespace's own occurrences.
 */
import ICAL from 'ical.js'
import { DateTime } from 'luxon'
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, call, NS, unique, userWithRole, type Reply } from '../support/api'
import {
  changeSettings,
  createCategory,
  createEvent,
  createOrganizer,
  createTag,
  createVenue,
  restoreSettings,
  translateEvent,
} from '../support/fixtures'
import { expectError } from '../support/expectations'
import { api } from '../support/writeFixtures'

const ZONE = 'Europe/Paris'
const WALL = 'yyyy-MM-dd HH:mm:ss'
const HOST = new URL(BASE_URL).host
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

/** A GET under the namespace whose answer is iCalendar: the status, headers and text, checked for the media type. */
async function ics(
  path: string,
  options: { token?: string; headers?: Record<string, string>; root?: string } = {},
): Promise<Reply<string>> {
  const reply = await call<string>(`${options.root ?? ''}${NS}${path}`, {
    token: options.token,
    headers: options.headers,
  })
  if (reply.status === 200) {
    expect(reply.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    expect(typeof reply.body).toBe('string')
  }
  return reply
}

/** The document as ical.js reads it, its VTIMEZONEs registered so that times convert to instants. */
function parse(text: string): ICAL.Component {
  const calendar = new ICAL.Component(ICAL.parse(text))
  expect(calendar.name).toBe('vcalendar')
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  return calendar
}

const vevents = (calendar: ICAL.Component) => calendar.getAllSubcomponents('vevent')
const byUid = (calendar: ICAL.Component, id: number) =>
  vevents(calendar).filter((vevent) => vevent.getFirstPropertyValue('uid') === `${id}@${HOST}`)
const instant = (time: ICAL.Time) => time.toJSDate().toISOString()
// A property's value as ical.js decorates it (text, Time, numbers): the tests know which.
const value = (vevent: ICAL.Component, name: string): any => vevent.getFirstPropertyValue(name)

/** What the namespace's JSON says of an event, as an instant: `utc_start_date` is UTC on the wall clock. */
const utc = (wall: string) =>
  DateTime.fromFormat(wall, WALL, { zone: 'utc' }).toJSDate().toISOString()

/** Every occurrence of a series as ical.js expands it (exceptions applied): start, end and title. */
function expand(calendar: ICAL.Component, parentId: number) {
  const [master, ...exceptions] = byUid(calendar, parentId).sort(
    (a, b) => Number(a.hasProperty('recurrence-id')) - Number(b.hasProperty('recurrence-id')),
  )
  expect(master!.hasProperty('rrule')).toBe(true)
  const event = new ICAL.Event(master, { exceptions })
  const iterator = event.iterator()
  const found: { start: string; end: string; title: string }[] = []
  for (let next = iterator.next(); next && found.length < 200; next = iterator.next()) {
    const details = event.getOccurrenceDetails(next)
    found.push({
      start: instant(details.startDate),
      end: instant(details.endDate),
      title: details.item.summary,
    })
  }
  return found
}

/** Next week's Tuesday at 19:00 in Paris: a weekly series from there crosses a change of offset within 31 weeks. */
const FIRST = DateTime.now()
  .setZone(ZONE)
  .plus({ weeks: 1 })
  .set({ weekday: 2, hour: 19, minute: 0, second: 0, millisecond: 0 })
const window = `start_date=${FIRST.minus({ days: 1 }).toISODate()}&end_date=${FIRST.plus({ years: 1 }).toISODate()}`

async function createSeries(title: string, weeks: number, extra: Record<string, unknown> = {}) {
  const reply = await api('/events', {
    method: 'POST',
    token: admin,
    json: {
      title,
      start_date: FIRST.toFormat(WALL),
      end_date: FIRST.plus({ hours: 2 }).toFormat(WALL),
      timezone: ZONE,
      status: 'publish',
      recurrence: `RRULE:FREQ=WEEKLY;COUNT=${weeks}`,
      ...extra,
    },
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

/** The series' events as the namespace lists them to this caller, in order. */
async function listed(search: string, token?: string, query = window) {
  const reply = await api(`/events?search=${encodeURIComponent(search)}&${query}&per_page=50`, {
    token,
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.events as any[]
}

describe('the feed: GET /events.ics', () => {
  let tag: string
  let ids: number[]
  let venueName: string

  beforeAll(async () => {
    tag = unique('feed')
    venueName = `${tag} Hall`
    const venue = await createVenue({
      name: venueName,
      address: '1 Quay Street',
      city: 'Lyon',
      zip: '69001',
      country: 'France',
      geoLat: 45.76,
      geoLng: 4.83,
    })
    const organizer = await createOrganizer({
      name: `${tag} Company`,
      email: 'company@example.org',
    })
    const category = await createCategory({ name: `${tag} Theatre` })
    const first = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: `${tag} Opening night`,
        description:
          '<p>An <strong>evening</strong> of theatre.</p>\n<ul>\n<li>Act one</li>\n<li>Act two</li>\n</ul>',
        start_date: FIRST.toFormat(WALL),
        end_date: FIRST.plus({ hours: 3 }).toFormat(WALL),
        timezone: ZONE,
        status: 'publish',
        venue: venue.id,
        organizer: [organizer.id],
        categories: [category.id],
      },
    })
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    const second = await createEvent({
      title: `${tag} Matinee`,
      start: FIRST.plus({ days: 1, hours: -5 }).toUTC().toISO()!,
      timezone: 'America/New_York',
    })
    ids = [first.body.id, second.id]
  })

  it('holds the events the list gives, each a VEVENT that ical.js reads, with the list’s times', async () => {
    const reply = await ics(`/events.ics?search=${tag}`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate')
    expect(reply.headers.get('etag')).toMatch(/^"[\w-]+"$/)
    const calendar = parse(reply.body)
    const json = await listed(tag, undefined, '')
    expect(json.map((event) => event.id).sort()).toEqual([...ids].sort())
    expect(vevents(calendar)).toHaveLength(2)
    for (const event of json) {
      const [vevent] = byUid(calendar, event.id)
      expect(vevent, `event ${event.id}`).toBeDefined()
      const read = new ICAL.Event(vevent)
      expect(read.summary).toBe(event.title)
      expect(instant(read.startDate)).toBe(utc(event.utc_start_date))
      expect(instant(read.endDate)).toBe(utc(event.utc_end_date))
      expect(read.startDate.zone?.tzid).toBe(event.timezone)
      expect(value(vevent!, 'url')).toBe(event.url)
      for (const name of ['dtstamp', 'last-modified', 'sequence'])
        expect(vevent!.hasProperty(name), name).toBe(true)
    }
    // A VTIMEZONE for each zone used, from the tz database.
    const zones = calendar
      .getAllSubcomponents('vtimezone')
      .map((zone) => zone.getFirstPropertyValue('tzid'))
    expect(zones.sort()).toEqual(['America/New_York', ZONE])
  })

  it('writes the description as text and HTML, the venue, its coordinates, categories, organizer and status', async () => {
    const calendar = parse((await ics(`/events.ics?search=${tag}`)).body)
    const [vevent] = byUid(calendar, ids[0]!)
    expect(value(vevent!, 'description')).toBe('An evening of theatre.\n\n * Act one\n * Act two')
    expect(value(vevent!, 'x-alt-desc')).toContain('<strong>evening</strong>')
    expect(vevent!.getFirstProperty('x-alt-desc')!.getParameter('fmttype')).toBe('text/html')
    expect(value(vevent!, 'location')).toBe(`${venueName}\n1 Quay Street, Lyon, 69001, France`)
    expect(value(vevent!, 'geo')).toEqual([45.76, 4.83])
    expect(value(vevent!, 'categories')).toBe(`${tag} Theatre`)
    const organizer = vevent!.getFirstProperty('organizer')!
    expect(organizer.getFirstValue()).toBe('mailto:company@example.org')
    expect(organizer.getParameter('cn')).toBe(`${tag} Company`)
    expect(value(vevent!, 'status')).toBe('CONFIRMED')
    expect(value(vevent!, 'dtstart').toString()).toBe(FIRST.toFormat("yyyy-MM-dd'T'HH:mm:ss"))
  })

  it('answers a bad parameter with the list’s 400, in JSON', async () => {
    for (const query of [
      'start_date=someday',
      'categories=no-such-category',
      'featured=maybe',
      'geoloc_lat=1',
    ]) {
      const feed = await call(`${NS}/events.ics?${query}`)
      const list = await call(`${NS}/events?${query}`)
      expect(feed.status, query).toBe(400)
      expect(feed.headers.get('content-type')).toContain('application/json')
      expect(feed.body).toEqual(list.body)
    }
  })

  it('has a strong ETag: If-None-Match answers 304 without a body', async () => {
    const first = await ics(`/events.ics?search=${tag}`)
    const etag = first.headers.get('etag')!
    const again = await call(`${NS}/events.ics?search=${tag}`, {
      headers: { 'If-None-Match': etag },
    })
    expect(again.status).toBe(304)
    expect(again.body).toBeNull()
    expect(again.headers.get('etag')).toBe(etag)
    expect((await ics(`/events.ics?search=${tag}`)).body).toBe(first.body)
  })

  it('speaks the language of its root and of i18n_language', async () => {
    await translateEvent(ids[0]!, 'fr', { title: `${tag} Soirée d’ouverture` })
    for (const reply of [
      await ics(`/events.ics?search=${tag}`, { root: '/fr' }),
      await ics(`/events.ics?search=${tag}&i18n_language=fr`),
    ]) {
      expect(reply.status).toBe(200)
      const [vevent] = byUid(parse(reply.body), ids[0]!)
      expect(value(vevent!, 'summary')).toBe(`${tag} Soirée d’ouverture`)
      expect(value(vevent!, 'url')).toContain('/fr/event/')
      expect(value(vevent!, 'uid')).toBe(`${ids[0]}@${HOST}`)
    }
  })

  it('holds at most icalMaxEvents events of the list', async () => {
    const previous = await changeSettings({ icalMaxEvents: 1 })
    try {
      const calendar = parse((await ics(`/events.ics?search=${tag}`)).body)
      expect(vevents(calendar).map((vevent) => value(vevent, 'uid'))).toEqual([`${ids[0]}@${HOST}`])
    } finally {
      await restoreSettings(previous)
    }
  })
})

describe('text on the wire', () => {
  it('escapes commas, semicolons, backslashes and newlines, folds lines at 75 octets with CRLF, and keeps Unicode', async () => {
    const tag = unique('wire')
    const title = `${tag} Jazz, blues; a \\ backslash — مرحبا بالعالم في ليلة الجاز 🎷🎉 and a long tail to fold`
    const excerpt = 'First line, with a comma; a semicolon\nSecond line \\ مرحبا 🎺'
    const event = await createEvent({ title, excerpt })
    const reply = await ics(`/events/${event.id}.ics`)
    expect(reply.status).toBe(200)
    const text = reply.body
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true)
    // Every content line ends with CRLF, the last one too (RFC 5545 §3.1).
    expect(text.endsWith('\r\nEND:VCALENDAR\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    const lines = text.split('\r\n')
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75)
    const unfolded = text.replace(/\r\n /g, '')
    expect(unfolded).toContain(`SUMMARY:${tag} Jazz\\, blues\\; a \\\\ backslash — مرحبا`)
    expect(unfolded).toContain(
      'DESCRIPTION:First line\\, with a comma\\; a semicolon\\nSecond line \\\\ مرحبا 🎺',
    )
    expect(lines.some((line) => line.startsWith(' '))).toBe(true)
    const [vevent] = vevents(parse(text))
    expect(value(vevent!, 'summary')).toBe(title)
    expect(value(vevent!, 'description')).toBe(excerpt)
  })

  it('writes coordinates on the equator and the prime meridian', async () => {
    const venue = await createVenue({ name: unique('Libreville '), geoLat: 0, geoLng: 9.45 })
    const meridian = await createVenue({ name: unique('Greenwich '), geoLat: 51.48, geoLng: 0 })
    for (const [where, geo] of [
      [venue, [0, 9.45]],
      [meridian, [51.48, 0]],
    ] as const) {
      const event = await createEvent({ title: unique('Geo '), venue: where.id })
      const text = (await ics(`/events/${event.id}.ics`)).body
      expect(text).toContain(`\r\nGEO:${geo.join(';')}\r\n`)
      expect(value(vevents(parse(text))[0]!, 'geo')).toEqual(geo)
    }
  })

  it('writes all-day events as dates, the end exclusive', async () => {
    const start = DateTime.fromISO('2031-03-10', { zone: ZONE })
    const event = await createEvent({
      title: unique('All day '),
      allDay: true,
      timezone: ZONE,
      start: start.toUTC().toISO()!,
      end: start.plus({ days: 1, hours: 12 }).toUTC().toISO()!,
    })
    const text = (await ics(`/events/${event.id}.ics`)).body
    expect(text).toContain('DTSTART;VALUE=DATE:20310310\r\n')
    expect(text).toContain('DTEND;VALUE=DATE:20310312\r\n')
    const [vevent] = vevents(parse(text))
    expect(new ICAL.Event(vevent).startDate.isDate).toBe(true)
  })

  it('writes wall clocks right on the days the zone changes its offset, either side of the change', async () => {
    // Paris went to summer time at 01:00Z on 29 March 2026 and back at 01:00Z on 25 October: each event
    // starts before the change and ends after it, on the same UTC day. (02:30 on 25 October is read
    // twice by Paris' clocks, once in each offset, so only the first is read back with ical.js.)
    for (const [start, end, wallStart, wallEnd, readBack] of [
      [
        '2026-03-29T00:30:00.000Z',
        '2026-03-29T01:30:00.000Z',
        '20260329T013000',
        '20260329T033000',
        true,
      ],
      [
        '2026-10-25T00:30:00.000Z',
        '2026-10-25T02:30:00.000Z',
        '20261025T023000',
        '20261025T033000',
        false,
      ],
    ] as const) {
      const event = await createEvent({
        title: unique('Change of offset '),
        timezone: ZONE,
        start,
        end,
      })
      const text = (await ics(`/events/${event.id}.ics`)).body
      expect(text).toContain(`DTSTART;TZID=${ZONE}:${wallStart}\r\n`)
      expect(text).toContain(`DTEND;TZID=${ZONE}:${wallEnd}\r\n`)
      if (readBack) {
        const read = new ICAL.Event(vevents(parse(text))[0]!)
        expect([instant(read.startDate), instant(read.endDate)]).toEqual([start, end])
      }
    }
  })
})

describe('series', () => {
  let title: string
  let parent: any
  let events: any[]

  beforeAll(async () => {
    title = unique('Series ')
    parent = await createSeries(title, 31)
    events = await listed(title, admin)
    expect(events).toHaveLength(31)
    // An exception: a later start and a title of its own.
    const moved = events[3]
    const edited = await api(`/events/${moved.id}`, {
      method: 'POST',
      token: admin,
      json: {
        title: `${title} special`,
        start_date: FIRST.plus({ weeks: 3, hours: 1 }).toFormat(WALL),
        end_date: FIRST.plus({ weeks: 3, hours: 3 }).toFormat(WALL),
      },
    })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    // A trashed occurrence: its day leaves the rule (EXDATE).
    expect((await api(`/events/${events[5].id}`, { method: 'DELETE', token: admin })).status).toBe(
      200,
    )
    // A private one: the administrator sees it, anonymous readers do not.
    expect(
      (
        await api(`/events/${events[7].id}`, {
          method: 'POST',
          token: admin,
          json: { status: 'private' },
        })
      ).status,
    ).toBe(200)
  })

  it('is one VEVENT with its rule, and ical.js expands it into the namespace’s occurrences, across the change of offset', async () => {
    for (const token of [undefined, admin]) {
      const json = await listed(title, token)
      const calendar = parse(
        (await ics(`/events.ics?search=${encodeURIComponent(title)}&${window}`, { token })).body,
      )
      const own = byUid(calendar, parent.id)
      expect(own.filter((vevent) => vevent.hasProperty('rrule'))).toHaveLength(1)
      expect(vevents(calendar)).toHaveLength(own.length)
      const expanded = expand(calendar, parent.id)
      expect(expanded).toEqual(
        json.map((event) => ({
          start: utc(event.utc_start_date),
          end: utc(event.utc_end_date),
          title: event.title,
        })),
      )
      // The rule's events keep their wall clock while their UTC time moves with the offset.
      const regular = json.filter((event) => event.title === title)
      expect(new Set(regular.map((event) => event.start_date.slice(11)))).toEqual(
        new Set(['19:00:00']),
      )
      expect(new Set(regular.map((event) => event.utc_start_date.slice(11))).size).toBe(2)
    }
    expect((await listed(title)).length).toBe(29)
    expect((await listed(title, admin)).length).toBe(30)
  })

  it('writes the exception with RECURRENCE-ID, the rule’s start on its day', async () => {
    const calendar = parse(
      (await ics(`/events.ics?search=${encodeURIComponent(title)}&${window}`)).body,
    )
    const [exception] = byUid(calendar, parent.id).filter((vevent) =>
      vevent.hasProperty('recurrence-id'),
    )
    expect(value(exception!, 'summary')).toBe(`${title} special`)
    expect(instant(value(exception!, 'recurrence-id'))).toBe(
      FIRST.plus({ weeks: 3 }).toUTC().toJSDate().toISOString(),
    )
    expect(exception!.getFirstProperty('recurrence-id')!.getParameter('tzid')).toBe(ZONE)
    const [master] = byUid(calendar, parent.id).filter((vevent) => vevent.hasProperty('rrule'))
    expect(master!.getFirstProperty('exdate')!.getParameter('tzid')).toBe(ZONE)
  })

  it('comes whole, once, when the window holds later events but not the first', async () => {
    const later = `start_date=${FIRST.plus({ weeks: 10 }).toISODate()}&end_date=${FIRST.plus({ weeks: 12 }).toISODate()}`
    expect(await listed(title, undefined, later)).toHaveLength(3)
    const calendar = parse(
      (await ics(`/events.ics?search=${encodeURIComponent(title)}&${later}`)).body,
    )
    const [master] = byUid(calendar, parent.id).filter((vevent) => vevent.hasProperty('rrule'))
    expect(instant(value(master!, 'dtstart'))).toBe(FIRST.toUTC().toJSDate().toISOString())
    // The exception of week 3 is outside the window, and still part of the series.
    expect(
      byUid(calendar, parent.id).filter((vevent) => vevent.hasProperty('recurrence-id')),
    ).toHaveLength(1)
    expect(expand(calendar, parent.id)).toHaveLength(29)
  })

  it('writes a last event moved earlier on its own day once, as the exception of that day', async () => {
    const shortTitle = unique('Short series ')
    const short = await createSeries(shortTitle, 4)
    const made = await listed(shortTitle, admin)
    expect(made).toHaveLength(4)
    const moved = await api(`/events/${made[3].id}`, {
      method: 'POST',
      token: admin,
      json: {
        start_date: FIRST.plus({ weeks: 3, hours: -2 }).toFormat(WALL),
        end_date: FIRST.plus({ weeks: 3 }).toFormat(WALL),
      },
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    const json = await listed(shortTitle)
    expect(json).toHaveLength(4)
    const calendar = parse(
      (await ics(`/events.ics?search=${encodeURIComponent(shortTitle)}&${window}`)).body,
    )
    expect(vevents(calendar)).toHaveLength(byUid(calendar, short.id).length)
    expect(expand(calendar, short.id)).toEqual(
      json.map((event) => ({
        start: utc(event.utc_start_date),
        end: utc(event.utc_end_date),
        title: event.title,
      })),
    )
  })

  it('as a file: the first event gives the series; a later event gives itself', async () => {
    const file = await ics(`/events/${parent.id}.ics`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="${parent.slug}.ics"`,
    )
    expect(expand(parse(file.body), parent.id)).toHaveLength(29)
    const bySlug = await ics(`/events/by-slug/${parent.slug}.ics`)
    expect(bySlug.body).toBe(file.body)

    const occurrence = events[10]
    const single = await ics(`/events/${occurrence.id}.ics`)
    expect(single.headers.get('content-disposition')).toBe(
      `attachment; filename="${occurrence.slug}.ics"`,
    )
    const [vevent, ...rest] = vevents(parse(single.body))
    expect(rest).toEqual([])
    expect(value(vevent!, 'uid')).toBe(`${occurrence.id}@${HOST}`)
    expect(vevent!.hasProperty('rrule')).toBe(false)
    expect(instant(value(vevent!, 'dtstart'))).toBe(utc(occurrence.utc_start_date))
  })
})

describe('privacy', () => {
  it('a password-protected event shows its title and times only, unless the password is given', async () => {
    const secret = unique('secret')
    const venue = await createVenue({ name: `${secret} venue`, city: secret })
    const organizer = await createOrganizer({
      name: `${secret} org`,
      email: `${secret}@example.org`,
    })
    const event = await createEvent({
      title: unique('Locked '),
      password: 'open sesame',
      excerpt: secret,
      website: `https://${secret}.example`,
      venue: venue.id,
      organizers: [organizer.id],
    })
    for (const path of [`/events.ics?include=${event.id}`, `/events/${event.id}.ics`]) {
      const reply = await ics(path)
      expect(reply.status, path).toBe(200)
      expect(reply.body).not.toContain(secret)
      const [vevent] = vevents(parse(reply.body))
      expect(value(vevent!, 'summary')).toBe(event.title)
      expect(instant(value(vevent!, 'dtstart'))).toBe(new Date(event.start as string).toISOString())
      for (const name of [
        'description',
        'location',
        'organizer',
        'url',
        'categories',
        'x-alt-desc',
      ])
        expect(vevent!.hasProperty(name), name).toBe(false)
      const unlocked = await ics(
        `${path}${path.includes('?') ? '&' : '?'}password=${encodeURIComponent('open sesame')}`,
      )
      expect(value(vevents(parse(unlocked.body))[0]!, 'description')).toBe(secret)
    }
  })

  it('a draft is in an editor’s feed and file only', async () => {
    const editor = await userWithRole('editor')
    const title = unique('Draft ')
    const draft = await createEvent({ title, status: 'draft', start: FIRST.toUTC().toISO()! })
    const anonymous = await ics(`/events.ics?include=${draft.id}`)
    expect(anonymous.body).not.toContain(title)
    expect(vevents(parse(anonymous.body))).toEqual([])
    expectError(await call(`${NS}/events/${draft.id}.ics`), 403, 'event-not-accessible')
    expectError(
      await call(`${NS}/events/${draft.id}.ics`, {
        token: (await userWithRole('subscriber')).token,
      }),
      403,
      'event-not-accessible',
    )

    const feed = await ics(`/events.ics?search=${encodeURIComponent(title)}`, {
      token: editor.token,
    })
    expect(feed.headers.get('cache-control')).toBe('private, no-store')
    const [vevent] = vevents(parse(feed.body))
    expect(value(vevent!, 'summary')).toBe(title)
    expect(value(vevent!, 'status')).toBe('TENTATIVE')
    expect((await ics(`/events/${draft.id}.ics`, { token: editor.token })).status).toBe(200)
  })

  it('an unknown event is a 404, an unknown slug a 400, as the JSON reads', async () => {
    expectError(await call(`${NS}/events/999999999.ics`), 404, 'rest-event-not-found')
    expectError(await call(`${NS}/events/by-slug/${unique('none')}.ics`), 400, 'rest_invalid_param')
  })
})

describe('queries per feed', () => {
  /** `series` weekly series of 4 events, each with an exception, and as many single events with a venue and an organizer. */
  async function calendarOf(series: number): Promise<string> {
    const tag = unique('qics')
    for (let n = 0; n < series; n++) {
      const parent = await createSeries(`${tag} series ${n}`, 4)
      const later = await api(`/events?post_parent=${parent.id}&${window}`, { token: admin })
      const [second] = later.body.events
      expect(
        (
          await api(`/events/${second.id}`, {
            method: 'POST',
            token: admin,
            json: { title: `${tag} moved ${n}` },
          })
        ).status,
      ).toBe(200)
      const venue = await createVenue({
        name: unique('qvenue'),
        city: 'Nantes',
        geoLat: 47.2,
        geoLng: -1.55,
      })
      const organizer = await createOrganizer({ name: unique('qorg'), email: `q${n}@example.test` })
      await createEvent({
        title: `${tag} single ${n}`,
        start: FIRST.plus({ days: n }).toUTC().toISO()!,
        venue: venue.id,
        organizers: [organizer.id],
      })
    }
    return tag
  }
  const count = (reply: Reply) => Number(reply.headers.get('X-Query-Count'))

  it('does not grow with the number of events and series', async () => {
    const small = await calendarOf(1)
    const large = await calendarOf(5)
    for (const token of [undefined, admin]) {
      // Each written afresh, right after a write: nothing cached for either.
      const feed = async (tag: string) => {
        await createTag({ name: unique('qwrite') })
        return ics(`/events.ics?search=${tag}&${window}`, { token })
      }
      const [one, five] = [await feed(small), await feed(large)]
      expect(vevents(parse(one.body))).toHaveLength(1 + 1 + 1)
      expect(vevents(parse(five.body))).toHaveLength(5 * 3)
      expect(count(five), token ? 'signed in' : 'anonymous').toBe(count(one))
    }
  }, 120_000)

  it('writes an anonymous feed once per content revision', async () => {
    const tag = await calendarOf(1)
    const feed = () => ics(`/events.ics?search=${tag}&${window}`)
    await createTag({ name: unique('qwrite') })
    const [first, again] = [await feed(), await feed()]
    expect(again.body).toBe(first.body)
    expect(count(again)).toBeLessThan(count(first))
    const [single] = (await listed(`${tag} single`, undefined, '')) as { id: number }[]
    expect(
      (
        await api(`/events/${single!.id}`, {
          method: 'POST',
          token: admin,
          json: { title: `${tag} renamed` },
        })
      ).status,
    ).toBe(200)
    const after = await feed()
    expect(after.body).toContain(`SUMMARY:${tag} renamed`)
    // A signed-in reader's feed is written for them.
    const signedIn = [
      await ics(`/events.ics?search=${tag}&${window}`, { token: admin }),
      await ics(`/events.ics?search=${tag}&${window}`, { token: admin }),
    ]
    expect(count(signedIn[1]!)).toBe(count(signedIn[0]!))
  }, 60_000)
})

describe('discovery', () => {
  it('lists the iCalendar routes in the index and /doc, as text/calendar', async () => {
    const index = (await call(NS)).body
    for (const pattern of [
      '/cal/events/v1/events\\.ics',
      '/cal/events/v1/events/(?P<id>\\d+)\\.ics',
      '/cal/events/v1/events/by-slug/(?P<slug>[^/]+)\\.ics',
    ])
      expect(index.routes[pattern]?.methods, pattern).toEqual(['GET'])
    const doc = (await call(`${NS}/doc`)).body
    for (const path of ['/events.ics', '/events/{id}.ics', '/events/by-slug/{slug}.ics'])
      expect(doc.paths[path].get.responses['200'].content['text/calendar'].schema, path).toEqual({
        type: 'string',
      })
    expect(
      doc.paths['/events.ics'].get.parameters.map((parameter: { name: string }) => parameter.name),
    ).toContain('categories')
  })
})
