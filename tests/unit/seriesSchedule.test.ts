/**
 * A series places its dates without a luxon DateTime per date (`placeWall`, `occurrenceSchedule` in
 * `src/calendar/dates/schedule.ts`): the answers must be luxon's, in gaps of daylight saving time
 * included, but for a wall clock a fall-back repeats, which is its first instant (RFC 5545, PHP)
 * whatever the offset luxon would guess from.
 */
import { DateTime } from 'luxon'
import { describe, expect, it } from 'vitest'
import { occurrenceSchedule, offsetsIn, placeWall } from '../../src/calendar/dates/schedule'
import { toLuxonZone } from '../../src/calendar/dates/zone'

const ZONES = [
  'Europe/Paris',
  'America/New_York',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'UTC',
  'UTC+5',
]
const WALL = 'yyyy-MM-dd HH:mm:ss'

/** The first instant that reads as `instant` does on the zone's clock: itself but in a repeated hour. */
function firstOf(instant: number, zone: string): number {
  const text = (at: number) => DateTime.fromMillis(at, { zone: toLuxonZone(zone) }).toFormat(WALL)
  return Math.min(
    ...[instant - 7_200_000, instant - 3_600_000, instant - 1_800_000, instant].filter(
      (at) => text(at) === text(instant),
    ),
  )
}

/** Each day of 2027 at 02:15 and 02:45 (in the gap or overlap on a day the clocks change) and 09:00. */
const walls = Array.from({ length: 365 }, (_, day) => Date.UTC(2027, 0, 1 + day)).flatMap((day) =>
  [135, 165, 540].map((minutes) => day + minutes * 60_000),
)

describe('dates of a series placed in their zone', () => {
  it('falls where luxon places the same wall clock, on the first of a repeated one, whatever the guess', () => {
    for (const zone of ZONES) {
      const offsets = offsetsIn(zone)
      const luxon = (wall: number) =>
        DateTime.fromObject(DateTime.fromMillis(wall, { zone: 'utc' }).toObject(), {
          zone: toLuxonZone(zone),
        }).toMillis()
      // Winter's and summer's offsets: luxon's own answer in an overlap follows the one it guesses from.
      for (const guess of [offsets(Date.UTC(2027, 0, 1)), offsets(Date.UTC(2027, 6, 1))]) {
        const differing = walls.filter(
          (wall) => placeWall(wall, guess, offsets) !== firstOf(luxon(wall), zone),
        )
        expect({ zone, guess, differing }).toEqual({ zone, guess, differing: [] })
      }
    }
  })

  it('puts 02:15 on the day Paris sets its clocks back, and 01:30 on New York’s, in summer time', () => {
    const paris = offsetsIn('Europe/Paris')
    const newYork = offsetsIn('America/New_York')
    for (const guess of [60, 120])
      expect(new Date(placeWall(Date.UTC(2027, 9, 31, 2, 15), guess, paris)).toISOString()).toBe(
        '2027-10-31T00:15:00.000Z',
      )
    for (const guess of [-300, -240])
      expect(new Date(placeWall(Date.UTC(2027, 10, 7, 1, 30), guess, newYork)).toISOString()).toBe(
        '2027-11-07T05:30:00.000Z',
      )
  })

  it('lasts as long on the wall clock as its first event, as luxon keeps the local time', () => {
    for (const zone of ZONES) {
      const offsets = offsetsIn(zone)
      for (const length of [3_600_000, 9_000_000, 86_399_000]) {
        const luxon = (at: Date) => {
          const start = DateTime.fromJSDate(at).setZone(toLuxonZone(zone))
          const end = DateTime.fromMillis(
            firstOf(
              start
                .setZone('utc', { keepLocalTime: true })
                .plus({ milliseconds: length })
                .setZone(toLuxonZone(zone), { keepLocalTime: true })
                .toMillis(),
              zone,
            ),
            { zone: toLuxonZone(zone) },
          )
          return {
            start: start.toUTC().toISO(),
            end: end.toUTC().toISO(),
            startLocal: start.toFormat(WALL),
            endLocal: end.toFormat(WALL),
          }
        }
        const differing = walls
          .map((wall) => new Date(wall))
          .filter(
            (at) =>
              JSON.stringify(occurrenceSchedule(at, offsets, length)) !== JSON.stringify(luxon(at)),
          )
        expect({ zone, length, differing }).toEqual({ zone, length, differing: [] })
      }
    }
  })
})
