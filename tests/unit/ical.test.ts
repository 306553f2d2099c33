/**
 * The pure parts of the iCalendar writing (docs/api.md §22): which TZID a zone gets, how a stored rule's
 * dates become RFC 5545 values beside the DTSTART, and how a series' rule is matched with its events.
 */
import { compile } from 'html-to-text'
import { DateTime } from 'luxon'
import { describe, expect, it } from 'vitest'
import { toLuxonZone } from '../../src/calendar/dates/zone'
import { parseRecurrence } from '../../src/calendar/recurrence'
import type { Event } from '../../src/payload-types'
import { ruleLines } from '../../src/rest/ical/rule'
import { planSeries } from '../../src/rest/ical/series'
import { durationValue, folded, quoted, text, uriValue } from '../../src/rest/ical/syntax'
import { plainText } from '../../src/rest/ical/text'
import { dateValue, eventTimes } from '../../src/rest/ical/times'
import { tzidOf, vtimezoneOf } from '../../src/rest/ical/zones'

describe('syntax', () => {
  const octets = (line: string) => Buffer.byteLength(line, 'utf8')

  it('folds a line after 74 octets, never inside a character, and ends it with CRLF', () => {
    expect(folded('SUMMARY:short')).toBe('SUMMARY:short\r\n')
    for (const tail of [
      'x'.repeat(200),
      'é'.repeat(100),
      '€'.repeat(80),
      '🎷'.repeat(60),
      `a${'مرحبا 🎉'.repeat(30)}`,
    ]) {
      const line = `DESCRIPTION:${tail}`
      const text = folded(line)
      expect(text.endsWith('\r\n')).toBe(true)
      const parts = text.slice(0, -2).split('\r\n')
      expect(parts.length).toBeGreaterThan(1)
      // 74 octets, less when the next character would not fit whole (a 4-octet one after 72).
      expect(octets(parts[0]!)).toBeGreaterThanOrEqual(71)
      expect(octets(parts[0]!)).toBeLessThanOrEqual(74)
      for (const part of parts) expect(octets(part)).toBeLessThanOrEqual(75)
      for (const part of parts.slice(1)) expect(part.startsWith(' ')).toBe(true)
      // No character is cut: each part is whole UTF-8, and unfolding gives the line back.
      for (const part of parts) expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part)
      expect(parts.map((part, index) => (index ? part.slice(1) : part)).join('')).toBe(line)
    }
  })

  it('escapes TEXT, quotes a parameter without letting it out, and writes durations', () => {
    expect(text('a, b; c \\ d\r\ne\nf\rg')).toBe('a\\, b\\; c \\\\ d\\ne\\nf\\ng')
    // TEXT holds no control character but the tab; a URI has them percent-encoded.
    expect(text('J\u0001\u0008o\te\u007f')).toBe('Jo\te')
    expect(uriValue('mailto:a\u0003@x')).toBe('mailto:a%03@x')
    expect(quoted('Evil"; SENT-BY="mailto:x\n')).toBe(`"Evil'; SENT-BY='mailto:x "`)
    expect(
      [5 * 60, 60 * 60, 90 * 60, 24 * 60 * 60, 25 * 60 * 60, 7 * 24 * 60 * 60].map(durationValue),
    ).toEqual(['PT5M', 'PT1H', 'PT1H30M', 'P1D', 'P1DT1H', 'P7D'])
  })
})

describe('zones', () => {
  it('writes UTC as UTC, IANA zones and whole-hour offsets with the tz database, other offsets in UTC', () => {
    expect(tzidOf('UTC')).toBeNull()
    expect(tzidOf('Europe/Paris')).toBe('Europe/Paris')
    expect(tzidOf('Asia/Calcutta')).toBe('Asia/Kolkata')
    // A zone stored as typed before it was spelled on write.
    expect(tzidOf('america/new_york')).toBe('America/New_York')
    expect(tzidOf('UTC+2')).toBe('Etc/GMT-2')
    expect(tzidOf('UTC-5')).toBe('Etc/GMT+5')
    expect(tzidOf('UTC+5:30')).toBeNull()
    expect(tzidOf('UTC+14')).toBe('Etc/GMT-14')
    expect(vtimezoneOf('Europe/Paris')).toMatch(
      /^BEGIN:VTIMEZONE\r\nTZID:Europe\/Paris\r\n[^]*END:VTIMEZONE$/,
    )
    expect(vtimezoneOf('Etc/GMT-2')).toContain('TZOFFSETTO:+0200')
    expect(vtimezoneOf('Nowhere/Else')).toBeNull()
  })
})

describe('times', () => {
  const wall = (at: DateTime) => at.toFormat("yyyyMMdd'T'HHmmss")
  const day = (at: DateTime) => at.toFormat('yyyyMMdd')
  // Zones with summer time both ways, half and quarter hours, a day dropped (Apia, 30 December 2011), and offsets.
  const ZONES = [
    'UTC',
    'Europe/Paris',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Apia',
    'America/St_Johns',
    'UTC+2',
    'UTC-3:30',
  ]
  const DAY = 86_400_000
  const days = Array.from({ length: 20 * 365 }, (_, n) => Date.UTC(2011, 0, 1) + n * DAY)
  /** An instant every third day at a time of day that moves, and every half hour of the days the zone's offset changes. */
  const instantsOf = (zoneId: string) => {
    const zone = toLuxonZone(zoneId)
    return days.flatMap((start, n) =>
      zone.offset(start) === zone.offset(start + DAY - 1)
        ? n % 3
          ? []
          : [new Date(start + ((n * 7_919_000) % DAY))]
        : Array.from({ length: 48 }, (_, half) => new Date(start + half * 1_800_000 + 7_000)),
    )
  }
  it("places every instant on the zone's wall clock and day as luxon reads them, across changes of offset", () => {
    for (const zoneId of ZONES) {
      const zone = toLuxonZone(zoneId)
      const tzid = zoneId === 'UTC' ? null : zoneId
      const expected = (at: Date, allDay: boolean) => {
        const local = DateTime.fromJSDate(at, { zone })
        return allDay
          ? day(local)
          : tzid
            ? wall(local)
            : local.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")
      }
      const differ = instantsOf(zoneId).filter((at) => {
        const times = { start: '', end: '', allDay: false, timezone: tzid, zoneId }
        return (
          dateValue(times, at) !== expected(at, false) ||
          dateValue({ ...times, allDay: true }, at) !== expected(at, true)
        )
      })
      expect(differ.map((at) => `${zoneId} ${at.toISOString()}`)).toEqual([])
    }
  })

  it("ends an all-day event on the day after its last, in its zone, whatever the zone's clock does that night", () => {
    for (const zoneId of ['Europe/Paris', 'Pacific/Apia', 'America/Santiago']) {
      const zone = toLuxonZone(zoneId)
      for (const end of instantsOf(zoneId).filter((_, n) => n % 2 === 0)) {
        const event = { start: end.toISOString(), end: end.toISOString(), allDay: true }
        // The next date even where the zone skipped it (Apia, 30 December 2011): DATE values are not on its clock.
        const expected = DateTime.fromISO(DateTime.fromJSDate(end, { zone }).toISODate()!, {
          zone: 'UTC',
        }).plus({ days: 1 })
        expect(eventTimes(event, zoneId).end, `${zoneId} ${end.toISOString()}`).toBe(day(expected))
      }
    }
  })
})

describe('descriptions as text', () => {
  const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
    selector,
    options: { uppercase: false },
  }))
  const toText = compile({
    wordwrap: false,
    selectors: [
      ...HEADINGS,
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      { selector: 'img', format: 'skip' },
    ],
  })
  const read = (html: string) => toText(html).trim()

  it('reads paragraphs of words as html-to-text does, and any other HTML through it', () => {
    const characters = [
      ...'ab Z09.,;:!?*_-#\'"/\\()[]{}=+`~|$%^éعربي中文🎷\u0301\u200d\u200b\u00ad\ufeff\u00a0\t\n<>&',
    ]
    let seed = 7
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n
    for (let n = 0; n < 5_000; n++) {
      const paragraphs = Array.from({ length: 1 + next(3) }, () =>
        Array.from({ length: 1 + next(24) }, () => characters[next(characters.length)]).join(''),
      )
      const html = paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join(next(4) ? '' : '\n')
      expect(plainText(html), html).toBe(read(html))
    }
    for (const html of [
      '<p>Doors at 7.</p><p>Bring a chair.</p>',
      '<h2>Programme</h2><ul><li>Bach</li><li>Ravel</li></ul>',
      '<p>Tickets: <a href="https://x.test/t">here</a> &amp; at the door</p>',
    ])
      expect(plainText(html)).toBe(read(html))
  })
})

/** A series' first event: only what the writing reads. */
function first(start: string, end: string, recurrence: string, extra: Partial<Event> = {}): Event {
  return {
    id: 7,
    start,
    end,
    recurrence,
    allDay: false,
    timezone: 'Europe/Paris',
    ...extra,
  } as Event
}

function lines(event: Event, excluded: Date[] = []) {
  const zone = event.timezone!
  const parsed = parseRecurrence(event.recurrence!, new Date(event.start), zone)
  if (!parsed.ok) throw new Error(parsed.error)
  return ruleLines(event.recurrence!, parsed.recurrence, eventTimes(event, zone), excluded)
}

describe('rule lines', () => {
  // Tuesday 1 December 2026, 19:00 in Paris (18:00Z).
  const start = '2026-12-01T18:00:00.000Z'
  const end = '2026-12-01T20:00:00.000Z'

  it('writes UNTIL in UTC beside a TZID start, whether the rule gave a wall clock, a day or UTC', () => {
    expect(lines(first(start, end, 'RRULE:FREQ=WEEKLY;UNTIL=20270630T190000'))).toEqual([
      'RRULE:FREQ=WEEKLY;UNTIL=20270630T170000Z',
    ])
    // A bare day runs to its end, on the zone's clock.
    expect(lines(first(start, end, 'rrule:freq=weekly;until=20270105'))).toEqual([
      'RRULE:FREQ=WEEKLY;UNTIL=20270105T225959Z',
    ])
    expect(
      lines(first(start, end, 'RRULE:FREQ=WEEKLY;UNTIL=20270105T120000Z;BYDAY=TU,TH')),
    ).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270105T120000Z'])
  })

  it('writes RDATE and EXDATE on the wall clock with the TZID, with the days excluded for the caller', () => {
    const event = first(
      start,
      end,
      'RRULE:FREQ=WEEKLY;COUNT=10\nEXDATE:20261215\nRDATE:20261203T120000Z\nEXDATE;VALUE=DATE-TIME:20261208T190000',
    )
    expect(lines(event, [new Date('2026-12-22T18:00:00.000Z')])).toEqual([
      'RRULE:FREQ=WEEKLY;COUNT=10',
      'RDATE;TZID=Europe/Paris:20261203T130000',
      'EXDATE;TZID=Europe/Paris:20261208T190000,20261215T190000,20261222T190000',
    ])
  })

  it('writes dates for an all-day series, and UTC values for a series written in UTC', () => {
    const allDay = first(
      '2026-11-30T23:00:00.000Z',
      '2026-12-01T22:59:59.000Z',
      'RRULE:FREQ=DAILY;UNTIL=20261210\nEXDATE:20261203',
      { allDay: true },
    )
    expect(lines(allDay)).toEqual(['RRULE:FREQ=DAILY;UNTIL=20261210', 'EXDATE;VALUE=DATE:20261203'])
    const utc = first(
      start,
      end,
      'RRULE:FREQ=DAILY;UNTIL=20261210T180000\nEXDATE:20261203T180000',
      { timezone: 'UTC' },
    )
    expect(lines(utc)).toEqual([
      'RRULE:FREQ=DAILY;UNTIL=20261210T180000Z',
      'EXDATE:20261203T180000Z',
    ])
  })
})

describe('series plans', () => {
  const start = '2026-12-01T18:00:00.000Z'
  const parent = first(start, '2026-12-01T20:00:00.000Z', 'RRULE:FREQ=WEEKLY;COUNT=6')
  const member = (id: number, startLocal: string, recurrenceException = false) => ({
    id,
    parent: 7,
    startLocal,
    recurrenceException,
  })
  const latest = new Date('2027-01-05T18:00:00.000Z')

  it('keeps exceptions on the rule’s days with the rule’s start, sets apart events off the rule, excludes days without an event', () => {
    const plan = planSeries(
      parent,
      'Europe/Paris',
      [
        member(8, '2026-12-08 19:00:00'),
        member(9, '2026-12-15 20:30:00', true),
        // Moved to a Wednesday: off the rule.
        member(10, '2026-12-23 19:00:00', true),
        member(12, '2027-01-05 19:00:00'),
      ],
      latest,
    )!
    expect([...plan.exceptions]).toEqual([[9, new Date('2026-12-15T18:00:00.000Z')]])
    expect([...plan.apart]).toEqual([10])
    // 22 and 29 December have no event the caller sees.
    expect(plan.excluded).toEqual([
      new Date('2026-12-22T18:00:00.000Z'),
      new Date('2026-12-29T18:00:00.000Z'),
    ])
  })

  it('leaves the days after the latest event the series made to the rule', () => {
    const plan = planSeries(
      parent,
      'Europe/Paris',
      [member(8, '2026-12-08 19:00:00')],
      new Date('2026-12-15T18:00:00.000Z'),
    )!
    expect(plan.excluded).toEqual([new Date('2026-12-15T18:00:00.000Z')])
  })

  it('sets an all-day series’ exceptions apart and excludes their days; a rule that does not parse plans nothing', () => {
    const allDay = first(
      '2026-11-30T23:00:00.000Z',
      '2026-12-01T22:59:59.000Z',
      'RRULE:FREQ=DAILY;COUNT=3',
      { allDay: true },
    )
    const plan = planSeries(
      allDay,
      'Europe/Paris',
      [member(8, '2026-12-02 00:00:00', true), member(9, '2026-12-03 00:00:00')],
      new Date('2026-12-02T23:00:00.000Z'),
    )!
    expect(plan.exceptions.size).toBe(0)
    expect([...plan.apart]).toEqual([8])
    expect(plan.excluded).toEqual([new Date('2026-12-01T23:00:00.000Z')])
    expect(
      planSeries(first(start, start, 'RRULE:COUNT=3'), 'Europe/Paris', [], undefined),
    ).toBeUndefined()
  })
})
