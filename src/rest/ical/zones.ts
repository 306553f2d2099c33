import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library'
import { parseZone, toLuxonZone } from '../../calendar/dates/zone'

/** The zones the library has a VTIMEZONE for (it logs an error for any other, so it is asked only about these). */
const KNOWN = new Set(tzlib_get_timezones() as string[])

/** VTIMEZONE components by TZID, of the zones handed out so far. */
const components = new Map<string, string>()

/** TZIDs by zone id, null for zones written in UTC. */
const tzids = new Map<string, string | null>()

/** The tz database's own name for a whole-hour offset zone: `UTC+2` is `Etc/GMT-2` (POSIX signs, inverted). */
function etcZoneOf(offsetMinutes: number): string | undefined {
  if (offsetMinutes % 60 !== 0) return undefined
  const hours = -offsetMinutes / 60
  return `Etc/GMT${hours === 0 ? '' : hours > 0 ? `+${hours}` : hours}`
}

function fromDatabase(name: string | undefined): string | null {
  if (!name || !KNOWN.has(name)) return null
  const [vtimezone, tzidLine] = tzlib_get_ical_block(name) as string[]
  // The library answers links with their zone's component (`Asia/Calcutta` → `Asia/Kolkata`): its TZID is the one to use.
  const tzid = tzidLine?.replace(/^TZID=/, '')
  if (!vtimezone || !tzid) return null
  components.set(tzid, vtimezone)
  return tzid
}

/**
 * The TZID an event's wall clocks are written with, for a zone id produced by `parseZone`, or null when
 * its times are written in UTC (`...Z`). UTC is written as UTC; an IANA zone and a whole-hour offset
 * (`UTC+2`, the tz database's `Etc/GMT-2`) with the tz database's VTIMEZONE; a zone the database does
 * not have (a fractional offset such as `UTC+5:30`, a zone newer than the library's data) in UTC, which
 * places every single event right (docs/api.md §22).
 */
export function tzidOf(zoneId: string): string | null {
  const known = tzids.get(zoneId)
  if (known !== undefined) return known
  const zone = toLuxonZone(zoneId)
  const offset = zone.offset(0)
  const tzid = zone.isUniversal
    ? offset === 0
      ? null
      : fromDatabase(etcZoneOf(offset))
    : // Stored before zones were spelled on write (`america/new_york`): the library's names are case-sensitive.
      fromDatabase(parseZone(zoneId) ?? zoneId)
  tzids.set(zoneId, tzid)
  return tzid
}

/** The VTIMEZONE of a TZID that `tzidOf` handed out, for the calendar's timezone generator. */
export function vtimezoneOf(tzid: string): string | null {
  return components.get(tzid) ?? null
}
