import { describe, expect, it } from 'vitest'
import {
  eventWindow as windowOf,
  requestWindow,
  type DateParam,
  type EventWindow,
  type EventWindowInput,
} from '../../src/calendar/dates/resolve'
import { readDateInput } from '../../src/calendar/dates/parse'

/** A Wednesday, mid-morning UTC. */
const NOW = new Date('2024-05-15T10:20:30Z')

type GivenWindow = Partial<Record<DateParam, string | number>> & { strict_dates?: boolean }

/** The parameters as validation hands them on: each date read once. */
function read(given: GivenWindow): EventWindowInput {
  return Object.fromEntries(
    Object.entries(given).map(([name, value]) => [
      name,
      typeof value === 'boolean' ? value : readDateInput(value)!,
    ]),
  )
}

/** The window's bounds on the events' instants (`startLocal`, for the index, is checked apart). */
function eventWindow(given: GivenWindow, zone: string, now: Date): EventWindow {
  const { bounds, echo } = windowOf(read(given), zone, now)
  return { bounds: bounds.map(({ field, op, value }) => ({ field, op, value })), echo }
}

interface EventTimes {
  start: string
  end: string
}

/** Applies the bounds the way the list query does, to events given by their UTC start and end. */
function inWindow(window: EventWindow, event: EventTimes): boolean {
  return window.bounds.every(({ field, op, value }) => {
    const time = `${event[field].replace(' ', 'T')}.000Z`
    if (op === 'gte') return time >= value
    if (op === 'lte') return time <= value
    if (op === 'gt') return time > value
    return time < value
  })
}

describe('eventWindow: default window', () => {
  it('runs from the start of yesterday to the end of the day 24 months ahead', () => {
    expect(eventWindow({}, 'UTC', NOW)).toEqual({
      bounds: [
        { field: 'start', op: 'gte', value: '2024-05-14T00:00:00.000Z' },
        { field: 'end', op: 'lte', value: '2026-05-15T23:59:59.000Z' },
      ],
      echo: { start_date: '2024-05-14 00:00:00', end_date: '2026-05-15 23:59:59' },
    })
  })

  it('counts days on the site clock east of UTC', () => {
    // 05:00 on the 16th in Tokyo.
    const window = eventWindow({}, 'Asia/Tokyo', new Date('2024-05-15T20:00:00Z'))
    expect(window.echo).toEqual({
      start_date: '2024-05-15 00:00:00',
      end_date: '2026-05-16 23:59:59',
    })
  })

  it('counts days on the site clock west of UTC', () => {
    // 20:00 on the 14th in Los Angeles.
    const window = eventWindow({}, 'America/Los_Angeles', new Date('2024-05-15T03:00:00Z'))
    expect(window.echo).toEqual({
      start_date: '2024-05-13 00:00:00',
      end_date: '2026-05-14 23:59:59',
    })
  })

  it('moves with the site day, asked again and again in one process (bounds are kept per zone and day)', () => {
    const before = eventWindow({}, 'Asia/Tokyo', new Date('2024-05-15T14:59:00Z'))
    const after = eventWindow({}, 'Asia/Tokyo', new Date('2024-05-15T15:01:00Z'))
    expect(eventWindow({}, 'Asia/Tokyo', new Date('2024-05-15T14:59:00Z'))).toEqual(before)
    expect(before.echo).toEqual({
      start_date: '2024-05-14 00:00:00',
      end_date: '2026-05-15 23:59:59',
    })
    expect(after.echo).toEqual({
      start_date: '2024-05-15 00:00:00',
      end_date: '2026-05-16 23:59:59',
    })
    expect(eventWindow({}, 'UTC', new Date('2024-05-15T15:01:00Z')).echo.start_date).toBe(
      '2024-05-14 00:00:00',
    )
  })

  it('reads a calendar date on each site clock, and a relative one from now each time', () => {
    expect(eventWindow({ start_date: '2024-06-01' }, 'UTC', NOW).bounds[0]!.value).toBe(
      '2024-06-01T00:00:00.000Z',
    )
    expect(eventWindow({ start_date: '2024-06-01' }, 'Asia/Tokyo', NOW).bounds[0]!.value).toBe(
      '2024-05-31T15:00:00.000Z',
    )
    expect(
      eventWindow({ start_date: '2024-06-01', strict_dates: true }, 'UTC', NOW).bounds[0]!.value,
    ).toBe('2024-06-01T00:00:00.000Z')
    const later = new Date(NOW.getTime() + 3 * 86_400_000)
    expect(eventWindow({ starts_after: 'now' }, 'UTC', NOW).echo.starts_after).toBe(
      '2024-05-15 23:59:59',
    )
    expect(eventWindow({ starts_after: 'now' }, 'UTC', later).echo.starts_after).toBe(
      '2024-05-18 23:59:59',
    )
  })

  it('is the same whatever strict_dates says', () => {
    expect(eventWindow({ strict_dates: true }, 'UTC', NOW)).toEqual(eventWindow({}, 'UTC', NOW))
  })

  it('keeps the default end when only start_date is given', () => {
    expect(eventWindow({ start_date: '2024-06-01' }, 'UTC', NOW).bounds).toEqual([
      { field: 'start', op: 'gte', value: '2024-06-01T00:00:00.000Z' },
      { field: 'end', op: 'lte', value: '2026-05-15T23:59:59.000Z' },
    ])
  })

  it('keeps the default start when only end_date is given', () => {
    expect(eventWindow({ end_date: '2024-06-01' }, 'UTC', NOW).bounds).toEqual([
      { field: 'start', op: 'gte', value: '2024-05-14T00:00:00.000Z' },
      { field: 'end', op: 'lte', value: '2024-06-01T23:59:59.000Z' },
    ])
  })
})

describe('eventWindow: inclusive dates (default)', () => {
  it('widens start_date to the start and end_date to the end of the day as written', () => {
    const window = eventWindow(
      { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' },
      'UTC',
      NOW,
    )
    expect(window.bounds).toEqual([
      { field: 'start', op: 'gte', value: '2018-01-01T00:00:00.000Z' },
      { field: 'end', op: 'lte', value: '2018-01-01T23:59:59.000Z' },
    ])
    expect(window.echo).toEqual({
      start_date: '2018-01-01 00:00:00',
      end_date: '2018-01-01 23:59:59',
    })
  })

  it('returns both upstream example events', () => {
    const window = eventWindow(
      { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' },
      'UTC',
      NOW,
    )
    expect(inWindow(window, { start: '2018-01-01 16:00:00', end: '2018-01-01 16:30:00' })).toBe(
      true,
    )
    expect(inWindow(window, { start: '2018-01-01 20:00:00', end: '2018-01-01 20:30:00' })).toBe(
      true,
    )
    expect(inWindow(window, { start: '2017-12-31 20:00:00', end: '2018-01-01 10:00:00' })).toBe(
      false,
    )
    expect(inWindow(window, { start: '2018-01-01 20:00:00', end: '2018-01-02 01:00:00' })).toBe(
      false,
    )
  })

  it('counts the day on the site clock and bounds the instants', () => {
    const window = eventWindow(
      { start_date: '2026-11-25', end_date: '2026-11-25' },
      'America/New_York',
      NOW,
    )
    expect(window.bounds).toEqual([
      { field: 'start', op: 'gte', value: '2026-11-25T05:00:00.000Z' },
      { field: 'end', op: 'lte', value: '2026-11-26T04:59:59.000Z' },
    ])
    expect(window.echo).toEqual({
      start_date: '2026-11-25 00:00:00',
      end_date: '2026-11-25 23:59:59',
    })
  })

  it('keeps the date as written whatever the site zone', () => {
    const window = eventWindow({ start_date: '2018-01-01 23:30:00' }, 'Australia/Darwin', NOW)
    expect(window.echo.start_date).toBe('2018-01-01 00:00:00')
  })

  it("holds bounds past the calendar's years at its ends, with an index bound PostgreSQL reads", () => {
    for (const zone of ['Etc/GMT+12', 'UTC', 'Pacific/Kiritimati']) {
      const { bounds, echo } = windowOf(
        read({ start_date: '0000-01-01', end_date: '9999-12-31' }),
        zone,
        NOW,
      )
      expect(bounds.map(({ value }) => value)).toEqual([
        '0001-01-03T00:00:00.000Z',
        '9999-12-29T23:59:59.000Z',
      ])
      // The echo says what was asked; the index bound stays within four-digit years.
      expect(echo).toEqual({ start_date: '0000-01-01 00:00:00', end_date: '9999-12-31 23:59:59' })
      for (const { startLocal } of bounds)
        if (startLocal) expect(startLocal).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    }
  })

  it('snaps a timestamp on the day it falls on in the site zone', () => {
    // 1514764800 is 2018-01-01 00:00 UTC, 2017-12-31 19:00 in New York.
    expect(eventWindow({ start_date: 1514764800 }, 'UTC', NOW).echo.start_date).toBe(
      '2018-01-01 00:00:00',
    )
    expect(eventWindow({ start_date: '1514764800' }, 'America/New_York', NOW).echo.start_date).toBe(
      '2017-12-31 00:00:00',
    )
  })

  it('reads relative phrases on the site clock', () => {
    // 12:20:30 on Wednesday 15 May in Paris.
    const window = eventWindow(
      { start_date: 'tomorrow 9am', end_date: '+1 week' },
      'Europe/Paris',
      NOW,
    )
    expect(window.echo).toEqual({
      start_date: '2024-05-16 00:00:00',
      end_date: '2024-05-22 23:59:59',
    })
  })

  it('treats strict_dates=false like no flag', () => {
    const input = { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' }
    expect(eventWindow({ ...input, strict_dates: false }, 'UTC', NOW)).toEqual(
      eventWindow(input, 'UTC', NOW),
    )
  })

  it.each([
    ['starts_before', 'start', 'lt'],
    ['starts_after', 'start', 'gt'],
    ['ends_before', 'end', 'lt'],
    ['ends_after', 'end', 'gt'],
  ] as const)('snaps %s to the end of its day and drops the default window', (param, field, op) => {
    expect(eventWindow({ [param]: '2018-01-01 10:00:00' }, 'UTC', NOW)).toEqual({
      bounds: [{ field, op, value: '2018-01-01T23:59:59.000Z' }],
      echo: { [param]: '2018-01-01 23:59:59' },
    })
  })

  it('returns events overlapping a span given by relative bounds (upstream example)', () => {
    const window = eventWindow(
      { ends_after: '2017-12-31', starts_before: '2018-01-02' },
      'UTC',
      NOW,
    )
    expect(window.bounds).toEqual([
      { field: 'start', op: 'lt', value: '2018-01-02T23:59:59.000Z' },
      { field: 'end', op: 'gt', value: '2017-12-31T23:59:59.000Z' },
    ])
    expect(inWindow(window, { start: '2018-01-01 10:00:00', end: '2018-01-01 11:00:00' })).toBe(
      true,
    )
    expect(inWindow(window, { start: '2017-12-30 10:00:00', end: '2018-01-05 18:00:00' })).toBe(
      true,
    )
    expect(inWindow(window, { start: '2017-12-31 10:00:00', end: '2017-12-31 12:00:00' })).toBe(
      false,
    )
    expect(inWindow(window, { start: '2018-01-03 10:00:00', end: '2018-01-03 12:00:00' })).toBe(
      false,
    )
  })

  it('combines explicit start_date and end_date with relative bounds', () => {
    const window = eventWindow(
      {
        start_date: '2018-01-01',
        end_date: '2018-03-01',
        ends_before: '2018-02-01',
        starts_after: '2017-12-01',
      },
      'UTC',
      NOW,
    )
    expect(window.bounds).toEqual([
      { field: 'start', op: 'gte', value: '2018-01-01T00:00:00.000Z' },
      { field: 'end', op: 'lte', value: '2018-03-01T23:59:59.000Z' },
      { field: 'start', op: 'gt', value: '2017-12-01T23:59:59.000Z' },
      { field: 'end', op: 'lt', value: '2018-02-01T23:59:59.000Z' },
    ])
  })

  it('keeps an explicit start_date but no default end_date beside a relative bound', () => {
    expect(
      eventWindow({ start_date: '2018-01-01', ends_before: '2018-02-01' }, 'UTC', NOW).bounds,
    ).toEqual([
      { field: 'start', op: 'gte', value: '2018-01-01T00:00:00.000Z' },
      { field: 'end', op: 'lt', value: '2018-02-01T23:59:59.000Z' },
    ])
  })

  it('echoes every date parameter in a stable order', () => {
    const window = eventWindow(
      {
        ends_after: '2018-01-06',
        ends_before: '2018-01-05',
        starts_after: '2018-01-04',
        starts_before: '2018-01-03',
        end_date: '2018-01-02',
        start_date: '2018-01-01',
      },
      'UTC',
      NOW,
    )
    expect(Object.entries(window.echo)).toEqual([
      ['start_date', '2018-01-01 00:00:00'],
      ['end_date', '2018-01-02 23:59:59'],
      ['starts_before', '2018-01-03 23:59:59'],
      ['starts_after', '2018-01-04 23:59:59'],
      ['ends_before', '2018-01-05 23:59:59'],
      ['ends_after', '2018-01-06 23:59:59'],
    ])
  })
})

describe('eventWindow: strict dates', () => {
  it('uses the bounds at their time', () => {
    const window = eventWindow(
      { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00', strict_dates: true },
      'UTC',
      NOW,
    )
    expect(window.bounds).toEqual([
      { field: 'start', op: 'gte', value: '2018-01-01T15:00:00.000Z' },
      { field: 'end', op: 'lte', value: '2018-01-01T18:00:00.000Z' },
    ])
  })

  it('returns only the 16:00 event of the upstream example', () => {
    const window = eventWindow(
      { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00', strict_dates: true },
      'UTC',
      NOW,
    )
    expect(inWindow(window, { start: '2018-01-01 16:00:00', end: '2018-01-01 16:30:00' })).toBe(
      true,
    )
    expect(inWindow(window, { start: '2018-01-01 20:00:00', end: '2018-01-01 20:30:00' })).toBe(
      false,
    )
  })

  it('reads the value on the site clock, as every bound', () => {
    const window = eventWindow(
      { start_date: '2018-01-01 15:00:00', strict_dates: true },
      'Australia/Darwin',
      NOW,
    )
    expect(window.echo.start_date).toBe('2018-01-01 15:00:00')
    expect(window.bounds[0]).toEqual({
      field: 'start',
      op: 'gte',
      value: '2018-01-01T05:30:00.000Z',
    })
  })

  it('keeps the instant of a value with an explicit offset', () => {
    const window = eventWindow(
      { start_date: '2018-01-01T15:00:00+01:00', strict_dates: true },
      'Europe/Paris',
      NOW,
    )
    expect(window.echo.start_date).toBe('2018-01-01 15:00:00')
  })

  it('shows a timestamp on the site clock', () => {
    const window = eventWindow(
      { start_date: 1514764800, strict_dates: true },
      'America/New_York',
      NOW,
    )
    expect(window.echo.start_date).toBe('2017-12-31 19:00:00')
  })

  it('reads relative phrases on the site clock too', () => {
    const window = eventWindow(
      { end_date: 'tomorrow 9am', strict_dates: true },
      'Europe/Paris',
      NOW,
    )
    expect(window.echo.end_date).toBe('2024-05-16 09:00:00')
  })

  it('does not snap relative bounds', () => {
    expect(
      eventWindow({ ends_before: '2018-01-01 10:00:00', strict_dates: true }, 'UTC', NOW).bounds,
    ).toEqual([{ field: 'end', op: 'lt', value: '2018-01-01T10:00:00.000Z' }])
  })
})

describe('eventWindow: bounds for the index of local starts', () => {
  it('widens every bound but a lower one on the end by 14 hours, as a UTC wall clock', () => {
    const { bounds } = windowOf(
      read({ start_date: '2024-06-01', end_date: '2024-06-02', ends_after: '2024-05-01 10:00:00' }),
      'UTC',
      NOW,
    )
    expect(bounds.map(({ field, op, startLocal }) => [field, op, startLocal])).toEqual([
      ['start', 'gte', '2024-05-31 10:00:00'],
      ['end', 'lte', '2024-06-03 13:59:59'],
      ['end', 'gt', undefined],
    ])
  })
})

describe('eventWindow: unvalidated input', () => {
  it('throws, naming the parameter, for a value that should have been rejected with a 400', () => {
    expect(() => eventWindow({ starts_before: '2018-02-30' }, 'UTC', NOW)).toThrow(/starts_before/)
  })
})

describe('requestWindow', () => {
  it("is the window of the request's clock: one request reads it once, a later clock reads it afresh", () => {
    const params = read({ starts_after: 'now' })
    const first = requestWindow(params, 'UTC', NOW)
    expect(requestWindow(params, 'UTC', NOW)).toBe(first)
    const later = new Date('2024-05-18T10:20:30Z')
    expect(requestWindow(params, 'UTC', later).echo.starts_after).toBe('2024-05-18 23:59:59')
    expect(requestWindow(params, 'Asia/Tokyo', later)).toEqual(
      windowOf(params, 'Asia/Tokyo', later),
    )
  })
})
