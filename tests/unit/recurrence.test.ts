import { describe, expect, it } from 'vitest'
import {
  endedBefore,
  excludedDays,
  expandRecurrence,
  parseRecurrence,
  RECURRENCE_DEFAULTS,
  ruleDates,
  withExdate,
} from '../../src/calendar/recurrence'

const NOW = new Date('2026-01-01T00:00:00Z')

/** The later occurrences' starts in UTC, each computed by hand from the zone's offsets. */
function later(text: string, start: string, zone: string, limits = RECURRENCE_DEFAULTS): string[] {
  const result = expandRecurrence(parseRecurrence(text, new Date(start), zone), NOW, limits)
  if (!result.ok) throw new Error(result.error)
  return result.occurrences.map((date) => date.toISOString().replace('.000', ''))
}

function refusal(
  text: string,
  start = '2026-03-24T18:00:00Z',
  zone = 'Europe/Paris',
  limits = RECURRENCE_DEFAULTS,
): string {
  const result = expandRecurrence(parseRecurrence(text, new Date(start), zone), NOW, limits)
  return result.ok ? 'accepted' : result.error
}

describe('expansion in the event zone across DST changes', () => {
  it('keeps 19:00 in Paris when summer time begins (29 March 2026: +01:00 to +02:00)', () => {
    expect(later('RRULE:FREQ=WEEKLY;COUNT=4', '2026-03-17T18:00:00Z', 'Europe/Paris')).toEqual([
      '2026-03-24T18:00:00Z',
      '2026-03-31T17:00:00Z',
      '2026-04-07T17:00:00Z',
    ])
  })

  it('keeps 19:00 in Paris when summer time ends (25 October 2026: +02:00 to +01:00)', () => {
    expect(later('RRULE:FREQ=WEEKLY;COUNT=3', '2026-10-15T17:00:00Z', 'Europe/Paris')).toEqual([
      '2026-10-22T17:00:00Z',
      '2026-10-29T18:00:00Z',
    ])
  })

  it('keeps 09:00 in Sydney when daylight time ends (5 April 2026: +11:00 to +10:00)', () => {
    expect(later('RRULE:FREQ=WEEKLY;COUNT=2', '2026-03-31T22:00:00Z', 'Australia/Sydney')).toEqual([
      '2026-04-07T23:00:00Z',
    ])
  })

  it('keeps 09:00 in Sydney when daylight time begins (4 October 2026: +10:00 to +11:00)', () => {
    expect(later('RRULE:FREQ=WEEKLY;COUNT=2', '2026-09-29T23:00:00Z', 'Australia/Sydney')).toEqual([
      '2026-10-06T22:00:00Z',
    ])
  })

  it('moves a wall clock that does not exist forward by the gap (02:30 on 29 March 2026 in Paris is 03:30 +02:00)', () => {
    expect(later('RRULE:FREQ=DAILY;COUNT=3', '2026-03-28T01:30:00Z', 'Europe/Paris')).toEqual([
      '2026-03-29T01:30:00Z',
      '2026-03-30T00:30:00Z',
    ])
  })

  it('reads a UTC UNTIL as an instant, inclusive', () => {
    expect(
      later('RRULE:FREQ=DAILY;UNTIL=20261024T170000Z', '2026-10-20T17:00:00Z', 'Europe/Paris'),
    ).toEqual([
      '2026-10-21T17:00:00Z',
      '2026-10-22T17:00:00Z',
      '2026-10-23T17:00:00Z',
      '2026-10-24T17:00:00Z',
    ])
  })

  it('reads a bare UNTIL date as the whole day in the zone', () => {
    expect(
      later('RRULE:FREQ=DAILY;UNTIL=20261022', '2026-10-20T17:00:00Z', 'Europe/Paris'),
    ).toEqual(['2026-10-21T17:00:00Z', '2026-10-22T17:00:00Z'])
  })

  it('applies BYDAY, EXDATE (wall clock or whole day) and RDATE', () => {
    const text =
      'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20260410T000000\nEXDATE:20260331T190000\nEXDATE;VALUE=DATE:20260402\nRDATE:20260404T100000'
    expect(later(text, '2026-03-24T18:00:00Z', 'Europe/Paris')).toEqual([
      '2026-03-26T18:00:00Z',
      '2026-04-04T08:00:00Z',
      '2026-04-07T17:00:00Z',
      '2026-04-09T17:00:00Z',
    ])
  })

  it('materializes an endless rule up to the horizon only', () => {
    const dates = later('RRULE:FREQ=MONTHLY', '2026-01-15T18:00:00Z', 'Europe/Paris', {
      horizonMonths: 6,
      maxOccurrences: 730,
    })
    expect(dates.at(-1)).toBe('2026-06-15T17:00:00Z')
    expect(dates).toHaveLength(5)
  })

  it('supports monthly by position (second Tuesday)', () => {
    expect(
      later('RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=3', '2026-01-13T18:00:00Z', 'Europe/Paris'),
    ).toEqual(['2026-02-10T18:00:00Z', '2026-03-10T18:00:00Z'])
  })
})

describe('refused rules', () => {
  it.each([
    ['FREQ=WEEKLY', /not an RRULE, RDATE or EXDATE line/],
    ['RRULE:COUNT=3', /no FREQ/],
    ['RRULE:FREQ=SOMETIMES', /FREQ must be/],
    ['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', /No month of BYMONTH has a day of BYMONTHDAY/],
    ['RRULE:FREQ=WEEKLY;BYMONTHDAY=3', /BYMONTHDAY cannot be used with FREQ=WEEKLY/],
    ['RRULE:FREQ=MONTHLY;BYWEEKNO=3', /BYWEEKNO cannot be used/],
    ['RRULE:FREQ=DAILY;BYSETPOS=2', /BYSETPOS cannot be used/],
    ['RRULE:FREQ=WEEKLY;BYDAY=2TU', /BYDAY ordinals/],
    ['RRULE:FREQ=YEARLY;BYYEARDAY=1;BYMONTH=6', /cannot be combined/],
    ['RRULE:FREQ=WEEKLY;COUNT=3;UNTIL=20270101T000000Z', /COUNT and UNTIL/],
    ['RRULE:FREQ=YEARLY;BYMONTH=13', /BYMONTH/],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=0', /BYMONTHDAY/],
    ['RRULE:FREQ=DAILY;BYHOUR=24', /BYHOUR/],
    ['RRULE:FREQ=DAILY;COUNT=3;BYHOUR=10,11,12', /BYHOUR is not taken/],
    ['RRULE:FREQ=DAILY;COUNT=3;BYMINUTE=30', /BYMINUTE is not taken/],
    ['RRULE:FREQ=DAILY;COUNT=2;BYSECOND=60', /BYSECOND is not taken/],
    ['RRULE:FREQ=WEEKLY;COUNT=3;WKST=2MO', /WKST must be a weekday/],
    ['RRULE:FREQ=WEEKLY;COUNT=3;WKST=-1SU', /WKST must be a weekday/],
    ['RRULE:FREQ=WEEKLY; COUNT=3', /no spaces/],
    ['RRULE:FREQ= WEEKLY;COUNT=3', /no spaces/],
    ['RRULE:FREQ=WEEKLY;COUNT=3; INTERVAL=2', /no spaces/],
    ['RRULE:FREQ=WEEKLY;UNTIL=20270230', /UNTIL value "20270230" is not a date/],
    ['RRULE:FREQ=WEEKLY;UNTIL=20271340T000000', /UNTIL value "20271340T000000" is not a date/],
    ['RRULE:FREQ=WEEKLY;BYDAY=XX', /BYDAY/],
    ['RRULE:FREQ=WEEKLY;INTERVAL=0', /INTERVAL/],
    ['RRULE:FREQ=WEEKLY;FOO=1', /Unknown rule part/],
    ['RRULE:FREQ=WEEKLY;UNTIL=soon', /UNTIL must be/],
    ['RRULE:FREQ=WEEKLY\nEXDATE:2026-04-01', /EXDATE value/],
    ['RRULE:FREQ=WEEKLY\nRDATE:20261301T100000', /RDATE value/],
    ['EXDATE:20260331T190000', /At least one RRULE/],
    ['RRULE:FREQ=WEEKLY;COUNT=1', /no occurrence within 100 years/],
    ['RRULE:FREQ=WEEKLY;UNTIL=20260301T000000Z', /no occurrence within 100 years/],
    ['RRULE:FREQ=HOURLY', /FREQ must be one of YEARLY, MONTHLY, WEEKLY, DAILY/],
    ['RRULE:FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31', /No month of BYMONTH/],
    ['RRULE:FREQ=MONTHLY;BYDAY=5MO;BYMONTHDAY=1,2,3', /no occurrence within 100 years/],
  ])('%s', (text, message) => {
    expect(refusal(text)).toMatch(message)
  })

  it('takes at most a thousand RDATE and EXDATE dates, however they are spread over lines', () => {
    const days = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        new Date(Date.UTC(2030, 0, 1) + i * 86_400_000)
          .toISOString()
          .slice(0, 10)
          .replace(/-/g, ''),
      )
    const exdates = days(1000).map((day) => `EXDATE:${day}T190000`)
    expect(refusal(['RRULE:FREQ=WEEKLY', ...exdates].join('\n'))).toBe('accepted')
    expect(refusal(['RRULE:FREQ=WEEKLY', ...exdates, 'RDATE:20260401'].join('\n'))).toMatch(
      /at most 1000 RDATE and EXDATE dates/,
    )
    expect(refusal(`RRULE:FREQ=WEEKLY\nEXDATE:${days(1001).join(',')}`)).toMatch(/at most 1000/)
  })

  it('refuses a BYSETPOS beyond the dates a period can have, and keeps one that can match', () => {
    expect(refusal('RRULE:FREQ=MONTHLY;BYMONTHDAY=31;BYDAY=MO;BYSETPOS=53')).toMatch(
      /BYSETPOS asks for a date beyond the last: each month of this rule has at most 1\./,
    )
    expect(refusal('RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=-11')).toMatch(/at most 10\./)
    expect(refusal('RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYSETPOS=2')).toMatch(
      /each year of this rule has at most 1\./,
    )
    expect(refusal('RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1')).toBe('accepted')
    expect(refusal('RRULE:FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;BYSETPOS=2')).toBe('accepted')
    expect(
      later(
        'RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=MO,TU;BYSETPOS=10',
        '2026-03-02T18:00:00Z',
        'Europe/Paris',
      ),
    ).toEqual(['2026-03-31T17:00:00Z', '2026-06-30T17:00:00Z', '2027-03-30T17:00:00Z'])
  })

  it('counts the maximum within the horizon, the first event included', () => {
    expect(
      refusal('RRULE:FREQ=WEEKLY', '2026-03-24T18:00:00Z', 'Europe/Paris', {
        horizonMonths: 24,
        maxOccurrences: 104,
      }),
    ).toBe('accepted')
    expect(
      refusal('RRULE:FREQ=WEEKLY;COUNT=11', '2026-03-24T18:00:00Z', 'Europe/Paris', {
        horizonMonths: 24,
        maxOccurrences: 10,
      }),
    ).toMatch(/more than 10/)
  })
})

describe('the years past 9999 on the event’s wall clock', () => {
  // The library prints the rule and reads it back for `set.rrules()` (every iCalendar file of the
  // series), and cannot read an UNTIL of year 10000.
  it('are refused for UNTIL, RDATE and EXDATE, so that no stored rule breaks the iCalendar writer', () => {
    expect(refusal('RRULE:FREQ=YEARLY;UNTIL=99991231T235959Z')).toBe(
      "UNTIL dates must be in the year 9999 or earlier on the event's wall clock.",
    )
    expect(refusal('RRULE:FREQ=YEARLY;UNTIL=99991231T200000Z', undefined, 'Asia/Tokyo')).toMatch(
      /UNTIL dates must be in the year 9999 or earlier/,
    )
    expect(refusal('RRULE:FREQ=YEARLY\nEXDATE:99991231T235959Z')).toMatch(
      /EXDATE dates must be in the year 9999 or earlier/,
    )
  })

  it('keep an UNTIL within 9999 there, whose rule reads back', () => {
    for (const [text, zone] of [
      ['RRULE:FREQ=YEARLY;UNTIL=99991231', 'Europe/Paris'],
      ['RRULE:FREQ=YEARLY;UNTIL=99991231T235959Z', 'America/New_York'],
    ] as const) {
      const parsed = parseRecurrence(text, new Date('2026-03-24T18:00:00Z'), zone)
      if (!parsed.ok) throw new Error(parsed.error)
      expect(ruleDates(parsed.recurrence).untils).toHaveLength(1)
    }
  })
})

describe('the years 1 to 99', () => {
  it('are refused with the reason, not as a rule that yields nothing', () => {
    expect(refusal('RRULE:FREQ=WEEKLY;COUNT=3', '0050-06-01T19:00:00Z')).toBe(
      'A series must start in the year 100 or later.',
    )
    expect(refusal('RRULE:FREQ=WEEKLY\nRDATE:00010105')).toBe(
      'RDATE dates must be in the year 100 or later.',
    )
    expect(refusal('RRULE:FREQ=WEEKLY;COUNT=3', '0100-06-01T19:00:00Z')).toBe('accepted')
  })
})

describe('excluded days', () => {
  it('are the EXDATEs’ days on the zone’s wall clock, whatever their time', () => {
    const parsed = parseRecurrence(
      'RRULE:FREQ=WEEKLY\nEXDATE:20260331T190000\nEXDATE:20260407T230000Z',
      new Date('2026-03-24T18:00:00Z'),
      'Europe/Paris',
    )
    if (!parsed.ok) throw new Error(parsed.error)
    expect([...excludedDays(parsed.recurrence)]).toEqual(['2026-03-31', '2026-04-08'])
  })
})

describe('editing the text', () => {
  it('ends the rule just before an occurrence, replacing COUNT and dropping later extra dates', () => {
    const text =
      'RRULE:FREQ=WEEKLY;COUNT=10\nRDATE:20260404T100000,20260501T100000\nEXDATE:20260331T190000'
    expect(endedBefore(text, new Date('2026-04-14T17:00:00Z'), 'Europe/Paris')).toBe(
      'RRULE:FREQ=WEEKLY;UNTIL=20260414T185959\nRDATE:20260404T100000\nEXDATE:20260331T190000',
    )
  })

  it('adds an excluded date as a wall clock in the zone', () => {
    expect(withExdate('RRULE:FREQ=WEEKLY', new Date('2026-03-31T17:00:00Z'), 'Europe/Paris')).toBe(
      'RRULE:FREQ=WEEKLY\nEXDATE:20260331T190000',
    )
  })
})
