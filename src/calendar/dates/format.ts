import { DateTime } from 'luxon'
import { readWallClock } from './resolve'
import { toLuxonZone } from './zone'
import { boundedCache } from '../caches'

export interface DateDetails {
  year: string
  month: string
  day: string
  hour: string
  minutes: string
  seconds: string
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

/** Wall clocks already read: a pure function of (zone, instant), and lists serve the same dates again and again. */
const wallClocks = boundedCache<string, string>('wallClocks')

/**
 * The wall clock of `instant` in a zone id produced by `parseZone`. A page of events formats a few
 * hundred of these; a fixed offset (UTC among them) costs nothing to read, a zone with rules an
 * `Intl` call, so those are remembered per instant.
 */
export function wallClockIn(instant: Date, zoneId: string): string {
  const zone = toLuxonZone(zoneId)
  if (zone.isUniversal) return readWallClock(instant, zone)
  const key = `${zoneId} ${instant.getTime()}`
  const known = wallClocks.get(key)
  if (known !== undefined) return known
  const wallClock = readWallClock(instant, zone)
  wallClocks.set(key, wallClock)
  return wallClock
}

/** An instant as Payload serializes it: ISO 8601 in UTC (`2027-01-27T10:00:00.000Z`). */
const PAYLOAD_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

/**
 * `wallClockIn` of an instant as Payload serializes it. In UTC, the zone of most sites and events,
 * it is the text's own digits: a list formats a few hundred such dates, and reading them as Dates
 * first cost more than the rest of the conversion (Next's server wraps the Date constructor).
 */
export function wallClockOfInstant(instant: string, zoneId: string): string {
  if (zoneId === 'UTC' && PAYLOAD_INSTANT.test(instant))
    return `${instant.slice(0, 10)} ${instant.slice(11, 19)}`
  return wallClockIn(new Date(instant), zoneId)
}

/** The `*_date_details` object: the parts of a wall-clock string, zero-padded strings as upstream. */
export function dateDetails(wallClock: string): DateDetails {
  const match = WALL_CLOCK.exec(wallClock)
  if (!match) throw new Error(`Not a YYYY-MM-DD HH:MM:SS date: ${wallClock}`)
  const [, year = '', month = '', day = '', hour = '', minutes = '', seconds = ''] = match
  return { year, month, day, hour, minutes, seconds }
}

const ISO_WITH_OFFSET = "yyyy-MM-dd'T'HH:mm:ssZZ"

/** ISO 8601 with the zone's offset and no milliseconds (`2018-01-01T16:00:00+08:00`), for schema.org. */
export function isoWithOffset(instant: Date, zoneId: string): string {
  return DateTime.fromJSDate(instant, { zone: toLuxonZone(zoneId) }).toFormat(ISO_WITH_OFFSET)
}

/** Midnight of the day `instant` falls on in the zone, written as `isoWithOffset` writes it. */
export function isoStartOfDay(instant: Date, zoneId: string): string {
  return DateTime.fromJSDate(instant, { zone: toLuxonZone(zoneId) })
    .startOf('day')
    .toFormat(ISO_WITH_OFFSET)
}
