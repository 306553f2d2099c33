/** The admin's date inputs: wall clocks in the event's zone to instants and back, checked against luxon. */
import { DateTime } from 'luxon'
import { describe, expect, it } from 'vitest'
import { instantOfInput, wallClockInput } from '../../src/calendar/dates/wallClock'

const ZONES = [
  'Europe/Paris',
  'America/New_York',
  'Australia/Sydney',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'UTC',
  'UTC+5:30',
  'UTC-3',
]

describe('wall clocks of the admin date inputs', () => {
  it('give the instant luxon gives, every 11 hours over two years and across DST changes, in both hemispheres', () => {
    for (const zone of ZONES) {
      // luxon reads the offset zones (`UTC+5:30`) as they are written.
      const luxonZone = zone
      for (let hour = 0; hour < 2 * 365 * 24; hour += 11) {
        const expected = DateTime.fromObject(
          { year: 2027, month: 1, day: 1 },
          { zone: luxonZone },
        ).plus({ hours: hour })
        const input = expected.toFormat("yyyy-MM-dd'T'HH:mm")
        // In a repeated hour luxon and clocks take the earlier instant, as the input does.
        expect(instantOfInput(input, zone)?.toISOString(), `${zone} ${input}`).toBe(
          DateTime.fromISO(input, { zone: luxonZone }).toUTC().toISO(),
        )
        expect(wallClockInput(expected.toJSDate(), zone)).toBe(input)
      }
    }
  })

  it('read 19:00 in Paris as 18:00 UTC in winter and 17:00 UTC in summer, whatever the machine zone', () => {
    expect(instantOfInput('2031-01-15T19:00', 'Europe/Paris')?.toISOString()).toBe(
      '2031-01-15T18:00:00.000Z',
    )
    expect(instantOfInput('2031-06-12T19:00', 'Europe/Paris')?.toISOString()).toBe(
      '2031-06-12T17:00:00.000Z',
    )
  })

  it('move a wall clock that a spring-forward night skips to after the change, and read dates as midnight', () => {
    expect(instantOfInput('2027-03-28T02:30', 'Europe/Paris')?.toISOString()).toBe(
      '2027-03-28T01:30:00.000Z',
    )
    expect(instantOfInput('2027-03-28', 'Europe/Paris')?.toISOString()).toBe(
      '2027-03-27T23:00:00.000Z',
    )
    expect(instantOfInput('not a date', 'Europe/Paris')).toBeNull()
  })
})
