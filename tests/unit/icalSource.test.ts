/** Reading iCalendar files into import items (src/imports/sources/ical.ts, docs/api.md §23.6), without a database. */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ImportSource, SourceItem, UnreadableItem } from '../../src/imports/items'
import { IcalFileError, ianaZone, icalSource } from '../../src/imports/sources/ical'

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '..', 'fixtures', name), 'utf8')

async function itemsOf(source: ImportSource): Promise<(SourceItem | UnreadableItem)[]> {
  const items = []
  for await (const item of source.items()) items.push(item)
  return items
}

const bySource = (items: (SourceItem | UnreadableItem)[]) =>
  new Map(items.map((item) => [`${item.kind} ${item.sourceId}`, item as any]))

describe('the iCalendar source', () => {
  it('reads a Google feed: a series with its excluded, moved and cancelled days, an all-day event, UTC times, places and people', async () => {
    const source = icalSource(fixture('google.ics'), 'https://calendar.example.org/basic.ics')
    expect(source.totals).toEqual({ venue: 2, organizer: 1, event: 4 })
    const items = bySource(await itemsOf(source))
    expect(items.get('venue location:ics fixture library')?.data).toEqual({
      name: 'ICS Fixture Library',
      newAddress: '476 Fifth Avenue, New York, NY 10018, USA',
      geoLat: 40.7532,
      geoLng: -73.9822,
    })
    expect(items.get('organizer organizer:chess@example.org')?.data).toEqual({
      name: 'ICS Fixture Chess Society',
      email: 'chess@example.org',
    })
    const weekly = items.get('event ics-fixture-weekly@google.com')?.data
    expect(weekly).toMatchObject({
      title: 'ICS Fixture Chess Club',
      description: 'Weekly <b>chess</b> club.<br>Bring a board.',
      start: '2027-03-03 18:30:00',
      end: '2027-03-03 20:00:00',
      allDay: false,
      timezone: 'America/New_York',
      // The excluded Wednesday, and the cancelled one.
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=WE\nEXDATE:20270317T183000,20270324T183000',
      venue: { sourceId: 'location:ics fixture library', name: 'ICS Fixture Library' },
      organizers: [{ sourceId: 'organizer:chess@example.org', name: 'ICS Fixture Chess Society' }],
      categories: [
        { sourceId: 'category:ics fixture games', name: 'ICS Fixture Games' },
        { sourceId: 'category:ics fixture clubs', name: 'ICS Fixture Clubs' },
      ],
      website: 'https://chess.example.org/club',
    })
    expect(
      items.get('event ics-fixture-weekly@google.com#2027-03-10T18:30:00')?.data,
    ).toMatchObject({
      title: 'ICS Fixture Chess Club (Thursday)',
      start: '2027-03-11 19:00:00',
      end: '2027-03-11 21:00:00',
      occurrenceOf: { parent: { sourceId: 'ics-fixture-weekly@google.com' }, day: '2027-03-10' },
    })
    // Floating and all-day times are on the calendar's clock (X-WR-TIMEZONE); DTEND is exclusive.
    expect(items.get('event ics-fixture-fair@google.com')?.data).toMatchObject({
      allDay: true,
      start: '2027-04-10 00:00:00',
      end: '2027-04-11 23:59:59',
      timezone: 'America/New_York',
      description: 'Two days of books.\n\nFree entry.',
      recurrence: null,
    })
    expect(items.get('event ics-fixture-talk@google.com')?.data).toMatchObject({
      start: '2027-04-15 17:00:00',
      end: '2027-04-15 18:30:00',
      timezone: 'UTC',
    })
    expect(items.has('event ics-fixture-cancelled@google.com')).toBe(false)
  })

  it('reads Outlook’s Windows zone names, a zone only its VTIMEZONE knows, and floating times', async () => {
    const items = bySource(await itemsOf(icalSource(fixture('outlook.ics'), 'outlook')))
    expect(
      items.get('event 040000008200E00074C5B7101A82E00800000000ICSFIXTUREOUTLOOK1')?.data,
    ).toMatchObject({
      start: '2027-06-15 14:00:00',
      end: '2027-06-15 15:30:00',
      timezone: 'Europe/Berlin',
    })
    expect(
      items.get('event 040000008200E00074C5B7101A82E00800000000ICSFIXTUREOUTLOOK2')?.data,
    ).toMatchObject({
      start: '2027-06-16 04:00:00',
      end: '2027-06-16 04:30:00',
      timezone: 'UTC',
    })
    // No X-WR-TIMEZONE: the site's zone (null).
    expect(items.get('event ics-fixture-floating@example.org')?.data).toMatchObject({
      start: '2027-06-17 08:00:00',
      timezone: null,
      status: 'private',
    })
  })

  it('reads upstream’s ?ical=1: its URL is the event’s page there, not a website; its image; a quoted organizer', async () => {
    const [venue, organizer, event] = await itemsOf(
      icalSource(fixture('upstream.ics'), 'https://upstream.example.org/events/?ical=1'),
    )
    expect(venue).toMatchObject({
      data: {
        name: 'ICS Fixture Courtyard',
        newAddress: '1 Rue de la Paix, Paris, 75002, France',
        geoLat: 48.869,
        geoLng: 2.331,
      },
    })
    expect(organizer).toMatchObject({
      sourceId: 'organizer:ensemble@example.org',
      data: { name: 'ICS Fixture Ensemble', email: 'ensemble@example.org' },
    })
    expect(event).toMatchObject({
      sourceId: '10042-1812821400-1812834000@upstream.example.org',
      data: {
        title: 'ICS Fixture Upstream Jazz',
        start: '2027-06-12 19:30:00',
        end: '2027-06-12 23:00:00',
        timezone: 'Europe/Paris',
        image: 'https://upstream.example.org/wp-content/uploads/jazz.jpg',
        categories: [{ name: 'ICS Fixture Music' }],
        website: undefined,
      },
    })
  })

  it('names a venue by LOCATION’s first line (ical-generator’s), else its first part', async () => {
    const feed = (location: string) =>
      icalSource(
        [
          'BEGIN:VCALENDAR',
          'BEGIN:VEVENT',
          'UID:x',
          'SUMMARY:X',
          'DTSTART:20270101T100000Z',
          `LOCATION:${location}`,
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n'),
        'x',
      )
    const [lines] = await itemsOf(feed('Hall\\n1 Quai\\, Lyon'))
    expect(lines).toMatchObject({
      kind: 'venue',
      data: { name: 'Hall', newAddress: '1 Quai, Lyon' },
    })
    const [commas] = await itemsOf(feed('Hall\\, 1 Quai\\, Lyon'))
    expect(commas).toMatchObject({
      kind: 'venue',
      data: { name: 'Hall', newAddress: '1 Quai, Lyon' },
    })
  })

  it('reads each VEVENT alone: alarms inside, folded text, lowercase names, bare newlines, zones defined after the events', async () => {
    const source = icalSource(
      [
        'begin:vcalendar',
        'VERSION:2.0',
        'BEGIN:VEVENT',
        'UID:first',
        'SUMMARY:First',
        'DESCRIPTION:A folded line that goes on',
        ' END:VEVENT and more',
        'DTSTART;TZID=Own Clock:20270601T100000',
        'DTEND;TZID=Own Clock:20270601T110000',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'TRIGGER:-PT15M',
        'END:VALARM',
        'END:VEVENT',
        'begin:vevent',
        'uid:second',
        'summary:Second',
        'dtstart:20270602T100000Z',
        'end:vevent',
        'BEGIN:VTIMEZONE',
        'TZID:Own Clock',
        'BEGIN:STANDARD',
        'DTSTART:19700101T000000',
        'TZOFFSETFROM:+0300',
        'TZOFFSETTO:+0300',
        'END:STANDARD',
        'END:VTIMEZONE',
        'END:VCALENDAR',
        '',
      ].join('\n'),
      'x',
    )
    expect(source.totals.event).toBe(2)
    const items = bySource(await itemsOf(source))
    expect(items.get('event first')?.data).toMatchObject({
      title: 'First',
      description: 'A folded line that goes onEND:VEVENT and more',
      // The file's own zone, three hours ahead of UTC, read from the VTIMEZONE after the events.
      start: '2027-06-01 07:00:00',
      end: '2027-06-01 08:00:00',
      timezone: 'UTC',
    })
    expect(items.get('event second')?.data).toMatchObject({
      title: 'Second',
      start: '2027-06-02 10:00:00',
    })
  })

  it('refuses the events on a zone of the file’s own that changes more often than a zone does, and reads a real one', async () => {
    const zone = (name: string, rule: string, start = '20000101T000000') => [
      'BEGIN:VTIMEZONE',
      `TZID:${name}`,
      'BEGIN:STANDARD',
      `DTSTART:${start}`,
      `RRULE:${rule}`,
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0000',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      `DTSTART:${start}`,
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'TZOFFSETFROM:+0000',
      'TZOFFSETTO:+0100',
      'END:DAYLIGHT',
      'END:VTIMEZONE',
    ]
    const event = (uid: string, tzid: string) => [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `SUMMARY:${uid}`,
      `DTSTART;TZID=${tzid}:20310801T100000`,
      `DTEND;TZID=${tzid}:20310801T110000`,
      'END:VEVENT',
    ]
    const source = icalSource(
      [
        'BEGIN:VCALENDAR',
        // 200 bytes that held the server's thread 2.2 s (hourly) or grew past 4 GB (minutely).
        ...zone('Hourly Clock', 'FREQ=HOURLY'),
        ...zone('Minutely Clock', 'FREQ=MINUTELY', '16010101T000000'),
        ...zone(
          'Monday Clock',
          'FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYDAY=MO,TU,WE',
          '16010101T000000',
        ),
        ...zone('Island Time', 'FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', '16010101T000000'),
        ...event('hourly', 'Hourly Clock'),
        ...event('minutely', 'Minutely Clock'),
        ...event('mondays', 'Monday Clock'),
        ...event('island', 'Island Time'),
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
      'x',
    )
    const items = bySource(await itemsOf(source))
    expect(items.get('event hourly')?.error).toMatch(/Hourly Clock.*more often than once a year/)
    expect(items.get('event minutely')?.error).toMatch(/more often than once a year/)
    expect(items.get('event mondays')?.error).toMatch(/more than 5000 times/)
    // A real zone's rules, from 1601: read on its clock, an hour ahead of UTC in summer.
    expect(items.get('event island')?.data).toMatchObject({
      start: '2031-08-01 09:00:00',
      timezone: 'UTC',
    })
  })

  it('reads a TZID against the file’s own zones first, whatever its name, and what comes before the first line', async () => {
    const source = icalSource(
      [
        '  BEGIN:VCALENDAR',
        'BEGIN:VTIMEZONE',
        'TZID:UTC',
        'BEGIN:STANDARD',
        'DTSTART:19700101T000000',
        'TZOFFSETFROM:+0000',
        'TZOFFSETTO:+0000',
        'END:STANDARD',
        'END:VTIMEZONE',
        'BEGIN:VEVENT',
        'UID:series',
        'SUMMARY:Weekly',
        'DTSTART;TZID=UTC:20270105T190000',
        'RRULE:FREQ=WEEKLY;COUNT=4',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:series',
        'SUMMARY:Moved',
        'RECURRENCE-ID;TZID=UTC:20270112T190000',
        'DTSTART;TZID=UTC:20270113T190000',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
      'x',
    )
    const items = bySource(await itemsOf(source))
    expect(items.get('event series')?.data).toMatchObject({ title: 'Weekly' })
    // As ical.js writes a time in the file's zone: an earlier import's source id, found again.
    expect(items.get('event series#2027-01-12T19:00:00')?.data).toMatchObject({
      title: 'Moved',
      occurrenceOf: { parent: { sourceId: 'series' }, day: '2027-01-12' },
    })
  })

  it('reports each event with a value ical.js cannot read, and reads the others', async () => {
    const vevent = (uid: string, ...lines: string[]) => [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `SUMMARY:${uid}`,
      ...lines,
      'END:VEVENT',
    ]
    const source = icalSource(
      [
        'BEGIN:VCALENDAR',
        ...vevent('bad-start', 'DTSTART:garbage'),
        ...vevent('good', 'DTSTART:20270101T100000Z'),
        ...vevent('bad-end', 'DTSTART:20270101T100000Z', 'DTEND:2027'),
        // ical.js refuses this rule as it reads the event's text, before any value is asked for.
        // A long UID is folded, as Outlook's are: the failure is under the whole of it.
        'BEGIN:VEVENT',
        'UID:040000008200E00074C5B7101A82E0080000000090D1D0A5C5A7DA01000000000000000010000000',
        ' 4F1D3C6B8E2A4B4C9D1E2F3A4B5C6D7E',
        'SUMMARY:bad-rule',
        'DTSTART:20270101T100000Z',
        'RRULE:FREQ=YEARLY;BYMONTH=13',
        'END:VEVENT',
        // A leap second is a time.
        ...vevent('leap', 'DTSTART:20261231T235960Z'),
        // Days and hours that do not exist, which ical.js would roll forward.
        ...vevent('no-day', 'DTSTART;VALUE=DATE:20270230'),
        ...vevent('no-hour', 'DTSTART:20270301T250000Z'),
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
      'x',
    )
    expect(source.totals.event).toBe(7)
    const items = bySource(await itemsOf(source))
    expect(items.get('event good')?.data).toMatchObject({ title: 'good' })
    for (const uid of ['bad-start', 'bad-end'])
      expect(items.get(`event ${uid}`)?.error, uid).toMatch(/invalid date-time value/)
    const folded =
      'event 040000008200E00074C5B7101A82E0080000000090D1D0A5C5A7DA010000000000000000100000004F1D3C6B8E2A4B4C9D1E2F3A4B5C6D7E'
    expect(items.get(folded)).toMatchObject({ label: 'VEVENT 4' })
    expect(items.get(folded)?.error).toMatch(/BYMONTH/)
    expect(items.get('event leap')?.data).toMatchObject({ title: 'leap' })
    expect(items.get('event no-day')?.error).toMatch(/DTSTART 2027-02-30 is no date or time/)
    expect(items.get('event no-hour')?.error).toMatch(/DTSTART 2027-03-01T25:00:00Z is no date/)
  })

  it('names zones from paths and Windows names', () => {
    expect(ianaZone('/mozilla.org/20050126_1/Europe/Berlin')).toBe('Europe/Berlin')
    expect(ianaZone('Pacific Standard Time')).toBe('America/Los_Angeles')
    expect(ianaZone('Nowhere/Special')).toBeNull()
  })

  it('refuses what is not iCalendar, and reports events it cannot read', async () => {
    expect(() => icalSource('<!doctype html><html></html>', 'x')).toThrow(/HTML page/)
    expect(() => icalSource('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n', 'x')).toThrow(IcalFileError)
    const items = await itemsOf(
      icalSource(
        [
          'BEGIN:VCALENDAR',
          'BEGIN:VEVENT',
          'UID:a',
          'DTSTART:20270101T100000Z',
          'END:VEVENT',
          'BEGIN:VEVENT',
          'UID:b',
          'SUMMARY:Twice',
          'DTSTART:20270101T100000Z',
          'END:VEVENT',
          'BEGIN:VEVENT',
          'UID:b',
          'SUMMARY:Twice again',
          'DTSTART:20270102T100000Z',
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n'),
        'x',
      ),
    )
    expect(
      items
        .filter((item) => 'error' in item)
        .map((item) => [item.label, (item as UnreadableItem).error]),
    ).toEqual([
      ['VEVENT 1', 'no SUMMARY (title)'],
      ['VEVENT 3 (Twice again)', 'the same UID as VEVENT 2 (Twice)'],
    ])
  })
})
