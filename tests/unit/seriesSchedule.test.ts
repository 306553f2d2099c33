/**
 * A series places its dates without a luxon DateTime per date (`placeWall`, `occurrenceSchedule` in
 * `src/calendar/dates/schedule.ts`): the answers must be luxon's, in gaps and overlaps of daylight
 * saving time included.
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

/** Each day of 2027 at 02:15 and 02:45 (in the gap or overlap on a day the clocks change) and 09:00. */
const walls = Array.from({ length: 365 }, (_, day) => Date.UTC(2027, 0, 1 + day)).flatMap((day) =>
  [135, 165, 540].map((minutes) => day + minutes * 60_000),
)

describe('dates of a series placed in their zone', () => {
  it('falls where luxon places the same wall clock', () => {
    for (const zone of ZONES) {
      const offsets = offsetsIn(zone)
      const guess = offsets(Date.now())
      const luxon = (wall: number) =>
        DateTime.fromObject(DateTime.fromMillis(wall, { zone: 'utc' }).toObject(), {
          zone: toLuxonZone(zone),
        }).toMillis()
      const differing = walls.filter((wall) => placeWall(wall, guess, offsets) !== luxon(wall))
      expect({ zone, differing }).toEqual({ zone, differing: [] })
    }
  })

  it('lasts as long on the wall clock as its first event, as luxon keeps the local time', () => {
    for (const zone of ZONES) {
      const offsets = offsetsIn(zone)
      for (const length of [3_600_000, 9_000_000, 86_399_000]) {
        const luxon = (at: Date) => {
          const start = DateTime.fromJSDate(at).setZone(toLuxonZone(zone))
          const end = start
            .setZone('utc', { keepLocalTime: true })
            .plus({ milliseconds: length })
            .setZone(toLuxonZone(zone), { keepLocalTime: true })
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
