import { DateTime } from 'luxon'
import { describe, expect, it } from 'vitest'
import {
  dateDetails,
  isoWithOffset,
  wallClockIn,
  wallClockOfInstant,
} from '../../src/calendar/dates/format'
import { readValidDateInput } from '../../src/calendar/dates/parse'
import { formatWallClock, parseDateInput, resolveDateInput } from '../../src/calendar/dates/resolve'
import { nextMidnight, parseZone, toLuxonZone, zoneAbbr } from '../../src/calendar/dates/zone'

/** A Wednesday; 12:20:30 in Paris (CEST). */
const NOW = new Date('2024-05-15T10:20:30Z')

function wall(input: string | number, zoneId = 'UTC', now = NOW): string | null {
  const parsed = parseDateInput(input, zoneId, now)
  return parsed ? formatWallClock(parsed) : null
}

function utcWall(input: string | number, zoneId: string): string | null {
  const parsed = parseDateInput(input, zoneId, NOW)
  return parsed ? wallClockIn(parsed.toJSDate(), 'UTC') : null
}

describe('parseZone', () => {
  it.each([
    ['Europe/Paris', 'Europe/Paris'],
    ['America/New_York', 'America/New_York'],
    ['UTC', 'UTC'],
    ['  Asia/Hong_Kong ', 'Asia/Hong_Kong'],
  ])('keeps the IANA zone %j as %j', (input, expected) => {
    expect(parseZone(input)).toBe(expected)
  })

  it.each([
    ['america/new_york', 'America/New_York'],
    ['AMERICA/NEW_YORK', 'America/New_York'],
    ['europe/paris', 'Europe/Paris'],
    ['us/eastern', 'US/Eastern'],
    ['US/Eastern', 'US/Eastern'],
    ['utc', 'UTC'],
    ['etc/gmt+5', 'Etc/GMT+5'],
    ['europe/kyiv', 'Europe/Kyiv'],
    ['asia/calcutta', 'Asia/Calcutta'],
  ])('spells the IANA zone %j as the tz database does, %j', (input, expected) => {
    expect(parseZone(input)).toBe(expected)
  })

  it.each([
    ['UTC+5', 'UTC+5'],
    ['UTC-3:30', 'UTC-3:30'],
    ['UTC+05:30', 'UTC+5:30'],
    ['UTC+05:00', 'UTC+5'],
    ['utc-12', 'UTC-12'],
    ['UTC+14', 'UTC+14'],
    ['UTC-0', 'UTC+0'],
  ])('normalizes the offset %j to %j', (input, expected) => {
    expect(parseZone(input)).toBe(expected)
  })

  it.each([
    '',
    'Mars/Olympus_Mons',
    'Paris',
    'UTC+15',
    'UTC+5:60',
    'UTC+5:3',
    'UTC+ 5',
    'GMT+2',
    '+02:00',
    'local',
  ])('rejects %j', (input) => {
    expect(parseZone(input)).toBeNull()
  })
})

describe('toLuxonZone', () => {
  it('gives a fixed offset for UTC±N zones', () => {
    expect(toLuxonZone('UTC-3:30').offset(0)).toBe(-210)
    expect(toLuxonZone('UTC+5').offset(0)).toBe(300)
  })

  it('gives the IANA zone with its DST rules', () => {
    const zone = toLuxonZone('Europe/Paris')
    expect(zone.name).toBe('Europe/Paris')
    expect(zone.offset(Date.parse('2024-01-15T00:00:00Z'))).toBe(60)
    expect(zone.offset(Date.parse('2024-07-15T00:00:00Z'))).toBe(120)
  })

  it('refuses an id that parseZone would not produce', () => {
    expect(() => toLuxonZone('Mars/Olympus_Mons')).toThrow(/Mars\/Olympus_Mons/)
  })
})

describe('zoneAbbr', () => {
  it.each([
    ['Europe/Paris', '2024-07-01T12:00:00Z', 'CEST'],
    ['Europe/Paris', '2024-01-15T12:00:00Z', 'CET'],
    ['Europe/Paris', '2024-03-31T00:59:59Z', 'CET'],
    ['Europe/Paris', '2024-03-31T01:00:00Z', 'CEST'],
    ['America/New_York', '2024-01-15T12:00:00Z', 'EST'],
    ['America/New_York', '2024-07-01T12:00:00Z', 'EDT'],
    ['Australia/Sydney', '2024-01-15T12:00:00Z', 'AEDT'],
    ['Australia/Sydney', '2024-07-01T12:00:00Z', 'AEST'],
    ['Asia/Dubai', '2024-07-01T12:00:00Z', '+04'],
    ['Asia/Kathmandu', '2024-07-01T12:00:00Z', '+0545'],
    ['UTC', '2024-07-01T12:00:00Z', 'UTC'],
    ['UTC+5', '2024-07-01T12:00:00Z', 'UTC+5'],
    ['UTC-3:30', '2024-01-15T12:00:00Z', 'UTC-3:30'],
  ])('%s at %s is %s', (zoneId, instant, expected) => {
    expect(zoneAbbr(zoneId, new Date(instant))).toBe(expected)
  })

  it('falls back to the numeric tz database style for a zone the abbreviation data lacks', () => {
    // ICU knows this legacy id, moment-timezone's data does not.
    expect(zoneAbbr('SystemV/AST4', new Date('2024-07-01T12:00:00Z'))).toBe('-04')
  })
})

describe('parseDateInput', () => {
  it.each([
    ['2018-01-01 10:30:15', '2018-01-01 10:30:15'],
    ['2018-01-01 10:30', '2018-01-01 10:30:00'],
    ['2018-01-01', '2018-01-01 00:00:00'],
    ['2018-01-01T10:30:15', '2018-01-01 10:30:15'],
    ['2024-02-29', '2024-02-29 00:00:00'],
  ])('reads the wall clock %j', (input, expected) => {
    expect(wall(input)).toBe(expected)
  })

  it('reads wall-clock input in the given zone', () => {
    expect(wall('2018-01-01 10:00', 'Europe/Paris')).toBe('2018-01-01 10:00:00')
    expect(utcWall('2018-01-01 10:00', 'Europe/Paris')).toBe('2018-01-01 09:00:00')
    expect(utcWall('2018-01-01 10:00', 'UTC+5:30')).toBe('2018-01-01 04:30:00')
  })

  it('reads the upstream example in the event zone, not the site zone', () => {
    expect(wall('2018-01-01 4pm', 'Asia/Hong_Kong')).toBe('2018-01-01 16:00:00')
    expect(utcWall('2018-01-01 4pm', 'Asia/Hong_Kong')).toBe('2018-01-01 08:00:00')
    expect(utcWall('2018-01-01 4pm', 'Australia/Darwin')).toBe('2018-01-01 06:30:00')
  })

  it.each([
    ['2018-01-01T10:00:00+02:00', '2018-01-01 08:00:00', '2018-01-01 09:00:00'],
    ['2018-01-01T10:00:00Z', '2018-01-01 10:00:00', '2018-01-01 11:00:00'],
    ['2018-01-01T10:00:00.250Z', '2018-01-01 10:00:00', '2018-01-01 11:00:00'],
    ['2018-01-01T10:00+05:30', '2018-01-01 04:30:00', '2018-01-01 05:30:00'],
    ['2018-01-01 10:00:00-0500', '2018-01-01 15:00:00', '2018-01-01 16:00:00'],
    ['2018-01-01T10:00:00-05', '2018-01-01 15:00:00', '2018-01-01 16:00:00'],
  ])('keeps the instant of %j and shows it in the zone', (input, utc, paris) => {
    expect(utcWall(input, 'Europe/Paris')).toBe(utc)
    expect(wall(input, 'Europe/Paris')).toBe(paris)
  })

  it('keeps milliseconds of ISO input', () => {
    expect(parseDateInput('2018-01-01T10:00:00.250Z', 'UTC', NOW)?.millisecond).toBe(250)
  })

  it('returns a DateTime in the requested zone', () => {
    expect(parseDateInput('2018-01-01T10:00:00Z', 'Asia/Hong_Kong', NOW)?.zoneName).toBe(
      'Asia/Hong_Kong',
    )
  })

  it.each([
    [1514764800, 'UTC', '2018-01-01 00:00:00'],
    ['1514764800', 'UTC', '2018-01-01 00:00:00'],
    [' 1514764800 ', 'UTC', '2018-01-01 00:00:00'],
    [1514764800, 'Asia/Hong_Kong', '2018-01-01 08:00:00'],
    [0, 'UTC', '1970-01-01 00:00:00'],
  ])('reads the Unix timestamp %j in %s', (input, zoneId, expected) => {
    expect(wall(input, zoneId)).toBe(expected)
  })

  it.each([
    ['now', '2024-05-15 10:20:30'],
    ['today', '2024-05-15 00:00:00'],
    ['tomorrow', '2024-05-16 00:00:00'],
    ['yesterday', '2024-05-14 00:00:00'],
    ['midnight', '2024-05-15 00:00:00'],
    ['noon', '2024-05-15 12:00:00'],
    ['+1 day', '2024-05-16 10:20:30'],
    ['+2 days', '2024-05-17 10:20:30'],
    ['5 days', '2024-05-20 10:20:30'],
    ['+5days', '2024-05-20 10:20:30'],
    ['-1 day', '2024-05-14 10:20:30'],
    ['+2 weeks', '2024-05-29 10:20:30'],
    ['+1 month', '2024-06-15 10:20:30'],
    ['-2 months', '2024-03-15 10:20:30'],
    ['+1 year', '2025-05-15 10:20:30'],
    ['+3 hours', '2024-05-15 13:20:30'],
    ['+1 hour', '2024-05-15 11:20:30'],
    ['+90 minutes', '2024-05-15 11:50:30'],
    ['-1 minute', '2024-05-15 10:19:30'],
    ['+30 seconds', '2024-05-15 10:21:00'],
    ['+1 week', '2024-05-22 10:20:30'],
    ['last month', '2024-04-15 10:20:30'],
  ])('reads the relative phrase %j', (input, expected) => {
    expect(wall(input)).toBe(expected)
  })

  it.each([
    ['wednesday', '2024-05-15 00:00:00'],
    ['this wednesday', '2024-05-15 00:00:00'],
    ['next wednesday', '2024-05-22 00:00:00'],
    ['last wednesday', '2024-05-08 00:00:00'],
    ['friday', '2024-05-17 00:00:00'],
    ['next friday', '2024-05-17 00:00:00'],
    ['last friday', '2024-05-10 00:00:00'],
    ['monday', '2024-05-20 00:00:00'],
    ['last monday', '2024-05-13 00:00:00'],
    ['sun', '2024-05-19 00:00:00'],
  ])('reads the weekday %j from a Wednesday as PHP does', (input, expected) => {
    expect(wall(input)).toBe(expected)
  })

  // PHP 8.2's strtotime from Wednesday 2024-05-15 10:20:30: a named week runs Monday to Sunday.
  it.each([
    ['this week', '2024-05-13 10:20:30'],
    ['next week', '2024-05-20 10:20:30'],
    ['last week', '2024-05-06 10:20:30'],
    ['monday this week', '2024-05-13 00:00:00'],
    ['wednesday this week', '2024-05-15 00:00:00'],
    ['sunday this week', '2024-05-19 00:00:00'],
    ['monday next week', '2024-05-20 00:00:00'],
    ['friday next week', '2024-05-24 00:00:00'],
    ['monday last week', '2024-05-06 00:00:00'],
    ['next week monday', '2024-05-20 00:00:00'],
    ['next week 10am', '2024-05-20 10:00:00'],
    ['monday next week 10am', '2024-05-20 10:00:00'],
  ])('reads the week phrase %j as PHP does', (input, expected) => {
    expect(wall(input)).toBe(expected)
  })

  it.each(['tomorrow next week', 'next monday next week', 'this week next week'])(
    'refuses the week phrase %j, which names two days',
    (input) => {
      expect(readValidDateInput(input)).toBeNull()
    },
  )

  it.each([
    ['9am', '2024-05-15 09:00:00'],
    ['4pm', '2024-05-15 16:00:00'],
    ['4:30pm', '2024-05-15 16:30:00'],
    ['9 am', '2024-05-15 09:00:00'],
    ['12am', '2024-05-15 00:00:00'],
    ['12pm', '2024-05-15 12:00:00'],
    ['16:00', '2024-05-15 16:00:00'],
    ['16:00:00', '2024-05-15 16:00:00'],
    ['9:05', '2024-05-15 09:05:00'],
  ])('reads the time %j as today at that time', (input, expected) => {
    expect(wall(input)).toBe(expected)
  })

  it.each([
    ['tomorrow 9am', '2024-05-16 09:00:00'],
    ['next wednesday 4pm', '2024-05-22 16:00:00'],
    ['+5 days 11am', '2024-05-20 11:00:00'],
    ['2018-01-01 4pm', '2018-01-01 16:00:00'],
    ['tomorrow 00:00:00', '2024-05-16 00:00:00'],
    ['today 23:59', '2024-05-15 23:59:00'],
    ['tomorrow noon', '2024-05-16 12:00:00'],
    ['9am tomorrow', '2024-05-16 09:00:00'],
    ['2018-01-01 +1 day', '2018-01-02 00:00:00'],
    ['tomorrow +2 hours', '2024-05-16 02:00:00'],
    ['now +1 day', '2024-05-16 10:20:30'],
  ])('reads the combination %j', (input, expected) => {
    expect(wall(input)).toBe(expected)
  })

  it('ignores case and surrounding whitespace', () => {
    expect(wall('  Tomorrow 9AM  ')).toBe('2024-05-16 09:00:00')
    expect(wall('NEXT Wednesday 4PM')).toBe('2024-05-22 16:00:00')
    expect(wall('2018-01-01t10:00:00z')).toBe('2018-01-01 10:00:00')
  })

  it('takes today and the current time from the zone, not from UTC', () => {
    const lateUtc = new Date('2024-05-15T23:30:00Z')
    expect(wall('today', 'Asia/Tokyo', lateUtc)).toBe('2024-05-16 00:00:00')
    expect(wall('today', 'America/Los_Angeles', lateUtc)).toBe('2024-05-15 00:00:00')
    expect(wall('now', 'Europe/Paris')).toBe('2024-05-15 12:20:30')
    expect(wall('tomorrow 9am', 'Europe/Paris')).toBe('2024-05-16 09:00:00')
  })

  it('drops the milliseconds of now, as strtotime does', () => {
    expect(parseDateInput('now', 'UTC', new Date('2024-05-15T10:20:30.999Z'))?.millisecond).toBe(0)
  })

  it('moves days on the calendar and hours on the clock across DST', () => {
    const beforeSpringForward = new Date('2024-03-30T12:00:00Z')
    expect(wall('+1 day', 'Europe/Paris', beforeSpringForward)).toBe('2024-03-31 13:00:00')
    expect(wall('+24 hours', 'Europe/Paris', beforeSpringForward)).toBe('2024-03-31 14:00:00')
  })

  it('moves a wall clock that DST skips forward by the gap', () => {
    expect(wall('2024-03-31 02:30', 'Europe/Paris')).toBe('2024-03-31 03:30:00')
  })

  it.each([
    '',
    '   ',
    'foo',
    'soon',
    '2018-13-45',
    '2018-02-30',
    '2023-02-29',
    '31/12/2018',
    '12/31/2018',
    '01-01-2018',
    '2018/01/01',
    '25:00',
    '10:60',
    '13pm',
    '0am',
    '+5',
    'days',
    'next',
    'next foo',
    'next tomorrow',
    'tomorrow today',
    'monday friday',
    '4pm 16:00',
    '2018-01-01T10:00:00+15:00',
    '2018-01-01T10:00:00+02:61',
    '4pm+02:00',
    '1.5',
    'constructor',
    'toString',
  ])('rejects %j', (input) => {
    expect(parseDateInput(input, 'UTC', NOW)).toBeNull()
  })

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 1e20])('rejects the timestamp %d', (input) => {
    expect(parseDateInput(input, 'UTC', NOW)).toBeNull()
  })
})

describe('readValidDateInput', () => {
  /** The zones furthest from UTC either way, and one with daylight saving. */
  const ZONES = ['Pacific/Kiritimati', 'Etc/GMT+12', 'Europe/Paris', 'UTC']
  /** Times at which a request may come: now, and the ends of four-digit years. */
  const NOWS = [NOW, new Date('0001-01-01T00:00:00Z'), new Date('9999-12-31T23:59:59Z')]

  it.each([
    '2024-02-29',
    '0000-01-01 00:00',
    '9999-12-31 23:59:59',
    '+150000 years',
    '-150000 years 11am',
    '9999-12-31 +190000 years',
    '0000-01-01 -200000 years',
    'next monday +199999 years',
    '8639999827200',
    -8639999827200,
    'tomorrow 9am',
    1715768430,
  ])('reads %j as a date that every zone places, at any time', (input) => {
    const read = readValidDateInput(input)
    expect(read).not.toBeNull()
    for (const zone of ZONES)
      for (const now of NOWS) expect(resolveDateInput(read!, zone, now), zone).not.toBeNull()
  })

  it.each([
    '2023-02-29',
    '2024-02-30',
    '2024-04-31',
    '2024-13-01',
    '2024-00-10',
    '2024-01-00',
    '+300000 years',
    '+200001 years',
    '+100000 years +100001 years',
    '-2400012 months',
    '8639999999999',
    -8639999999999,
    -1e13,
    -1e300,
    Number.NEGATIVE_INFINITY,
    Number.NaN,
    '25:00',
    'next foo',
  ])('refuses %j, which no zone could place or no one could mean', (input) => {
    expect(readValidDateInput(input)).toBeNull()
  })
})

describe("parseDateInput and the calendar's years", () => {
  it.each(['0000-06-01', '0001-01-01', '9999-12-31', '+300 years 9999-01-01', '8639999827200'])(
    'places %j nowhere: no event can be there',
    (input) => {
      for (const zone of ['UTC', 'Etc/GMT+12', 'Pacific/Kiritimati'])
        expect(parseDateInput(input, zone, NOW), zone).toBeNull()
    },
  )

  it.each(['0001-01-04', '9999-12-28 23:00', '1715768430'])('places %j', (input) => {
    for (const zone of ['UTC', 'Etc/GMT+12', 'Pacific/Kiritimati'])
      expect(parseDateInput(input, zone, NOW), zone).not.toBeNull()
  })
})

describe('format', () => {
  it('formats a DateTime as its wall clock', () => {
    const dt = DateTime.fromObject(
      { year: 2018, month: 1, day: 2, hour: 3, minute: 4, second: 5 },
      { zone: 'UTC' },
    )
    expect(formatWallClock(dt)).toBe('2018-01-02 03:04:05')
  })

  it('shows an instant on the wall clock of a zone', () => {
    const instant = new Date('2018-01-01T08:00:00Z')
    expect(wallClockIn(instant, 'Asia/Hong_Kong')).toBe('2018-01-01 16:00:00')
    expect(wallClockIn(instant, 'UTC')).toBe('2018-01-01 08:00:00')
    expect(wallClockIn(instant, 'UTC-3:30')).toBe('2018-01-01 04:30:00')
  })

  it('reads an instant as Payload serializes it as the same wall clock as its Date', () => {
    for (const instant of [
      '2018-01-01T08:00:00.000Z',
      '2027-03-28T00:59:59.999Z',
      '1969-12-31T23:00:00Z',
      '+012018-01-01T08:00:00.000Z',
    ])
      for (const zone of ['UTC', 'Europe/Paris', 'UTC+5:45'])
        expect(wallClockOfInstant(instant, zone), `${instant} in ${zone}`).toBe(
          wallClockIn(new Date(instant), zone),
        )
    expect(wallClockOfInstant('2018-01-01T08:00:00.000Z', 'UTC')).toBe('2018-01-01 08:00:00')
  })

  it('reads the same wall clock as luxon across DST changes, offsets and centuries', () => {
    const zones = [
      'Europe/Paris',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'America/St_Johns',
      'Pacific/Chatham',
      'UTC',
      'UTC+5:45',
      'UTC-12',
    ]
    const differing: string[] = []
    const check = (instant: Date, zone: string) => {
      if (
        wallClockIn(instant, zone) !==
        formatWallClock(DateTime.fromJSDate(instant, { zone: toLuxonZone(zone) }))
      )
        differing.push(`${instant.toISOString()} ${zone}`)
    }
    for (const zone of zones) {
      // An uneven step (about 29 days and 4 hours) samples every season and hour of the day over two centuries.
      for (
        let time = Date.UTC(1900, 0, 1);
        time < Date.UTC(2100, 0, 1);
        time += (7 * 60 + 13) * 60_000 * 97
      ) {
        check(new Date(time), zone)
      }
      for (let minute = -90; minute <= 90; minute += 15) {
        // Both sides of the 2026 spring-forward and fall-back instants of Europe and North America.
        for (const change of [
          Date.UTC(2026, 2, 29, 1),
          Date.UTC(2026, 9, 25, 1),
          Date.UTC(2026, 2, 8, 7),
          Date.UTC(2026, 10, 1, 6),
        ]) {
          check(new Date(change + minute * 60_000), zone)
        }
      }
      for (const year of [-50, 12000]) check(new Date(Date.UTC(year, 5, 1, 12)), zone)
    }
    expect(differing).toEqual([])
  })

  it('splits a wall clock into zero-padded date details', () => {
    expect(dateDetails('2017-01-05 14:23:36')).toEqual({
      year: '2017',
      month: '01',
      day: '05',
      hour: '14',
      minutes: '23',
      seconds: '36',
    })
  })

  it('refuses to split anything but a wall clock', () => {
    expect(() => dateDetails('2017-01-05')).toThrow(/2017-01-05/)
  })

  it('writes ISO 8601 with the zone offset for JSON-LD', () => {
    const instant = new Date('2018-01-01T08:00:00.123Z')
    expect(isoWithOffset(instant, 'Asia/Hong_Kong')).toBe('2018-01-01T16:00:00+08:00')
    expect(isoWithOffset(instant, 'UTC')).toBe('2018-01-01T08:00:00+00:00')
    expect(isoWithOffset(instant, 'UTC-3:30')).toBe('2018-01-01T04:30:00-03:30')
    expect(isoWithOffset(new Date('2018-07-01T08:00:00Z'), 'Europe/Paris')).toBe(
      '2018-07-01T10:00:00+02:00',
    )
  })
})

describe('nextMidnight', () => {
  const byLuxon = (instant: Date, zoneId: string) =>
    DateTime.fromJSDate(instant, { zone: toLuxonZone(zoneId) })
      .plus({ days: 1 })
      .startOf('day')
      .toMillis()

  it.each(['UTC', 'Europe/Paris', 'America/Sao_Paulo', 'Asia/Kolkata', 'UTC+5'])(
    'is the next midnight luxon reads in %s, for instants asked in any order, across DST changes',
    (zoneId) => {
      // Paris' 23- and 25-hour days; São Paulo's 2018 change, when midnight itself was skipped.
      const instants = [
        '2024-03-30T22:59:59.999Z',
        '2024-03-30T23:00:00Z',
        '2024-03-31T12:00:00Z',
        '2024-03-31T21:59:59.999Z',
        '2024-03-31T22:00:00Z',
        '2024-03-31T01:00:00Z',
        '2024-10-27T12:00:00Z',
        '2024-10-26T23:30:00Z',
        '2018-11-04T02:59:59Z',
        '2018-11-04T03:00:00Z',
        '2018-11-04T12:00:00Z',
        '2018-11-03T12:00:00Z',
      ].map((text) => new Date(text))
      for (const instant of [...instants, ...instants.reverse()])
        expect(nextMidnight(instant, zoneId)).toBe(byLuxon(instant, zoneId))
    },
  )
})
