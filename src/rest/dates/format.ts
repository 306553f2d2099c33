import { DateTime } from 'luxon'
import { toLuxonZone } from './zone'

export interface DateDetails {
  year: string
  month: string
  day: string
  hour: string
  minutes: string
  seconds: string
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

/** `YYYY-MM-DD HH:MM:SS`, the API's date format. */
export function formatWallClock(dt: DateTime): string {
  return dt.toFormat('yyyy-MM-dd HH:mm:ss')
}

/** The wall clock of `instant` in a zone id produced by `parseZone`. */
export function wallClockIn(instant: Date, zoneId: string): string {
  return formatWallClock(DateTime.fromJSDate(instant, { zone: toLuxonZone(zoneId) }))
}

/** The `*_date_details` object: the parts of a wall-clock string, zero-padded strings as upstream. */
export function dateDetails(wallClock: string): DateDetails {
  const match = WALL_CLOCK.exec(wallClock)
  if (!match) throw new Error(`Not a YYYY-MM-DD HH:MM:SS date: ${wallClock}`)
  const [, year = '', month = '', day = '', hour = '', minutes = '', seconds = ''] = match
  return { year, month, day, hour, minutes, seconds }
}

/** ISO 8601 with the zone's offset and no milliseconds (`2018-01-01T16:00:00+08:00`), for schema.org. */
export function isoWithOffset(instant: Date, zoneId: string): string {
  return DateTime.fromJSDate(instant, { zone: toLuxonZone(zoneId) }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ")
}
