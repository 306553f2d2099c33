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

/**
 * The wall clock of `instant` in a zone id produced by `parseZone`. A page of events formats a
 * few hundred of these: shifting by the zone's offset and reading the UTC fields is several times
 * cheaper than a luxon DateTime, which stays for years ISO strings cannot spell in four digits.
 */
export function wallClockIn(instant: Date, zoneId: string): string {
  const zone = toLuxonZone(zoneId)
  const time = instant.getTime()
  const shifted = new Date(time + zone.offset(time) * 60_000)
  const year = shifted.getUTCFullYear()
  if (year < 0 || year > 9999) return formatWallClock(DateTime.fromJSDate(instant, { zone }))
  const iso = shifted.toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
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
