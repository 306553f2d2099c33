import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon'
// Intl only offers localized names such as "GMT+2"; the tz database abbreviations ("CEST", "+04") ship with moment-timezone's data.
import moment from 'moment-timezone'
import { offsetZoneMinutes } from './wallClock'

function pad2(value: number): string {
  return String(value).padStart(2, '0')
}

/** Upstream spelling of an offset zone: `UTC+5`, `UTC-3:30`, `UTC+0`. */
function offsetZoneId(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const hours = Math.floor(Math.abs(minutes) / 60)
  const rest = Math.abs(minutes) % 60
  return `UTC${sign}${hours}${rest ? `:${pad2(rest)}` : ''}`
}

/** The tz database's own spelling for offsets it has no letters for: `+04`, `-0330`. */
function numericAbbr(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const hours = Math.floor(Math.abs(minutes) / 60)
  const rest = Math.abs(minutes) % 60
  return `${sign}${pad2(hours)}${rest ? pad2(rest) : ''}`
}

/**
 * A zone id for storage and output: an IANA name as the tz database spells it, whatever the case it was
 * given in (`europe/paris` is `Europe/Paris`; `UTC`, `US/Eastern` kept), or an offset in upstream style
 * (`UTC+5`, `UTC-3:30`). Null when the input is neither.
 */
export function parseZone(input: string): string | null {
  const trimmed = input.trim()
  const offset = offsetZoneMinutes(trimmed)
  if (offset !== null) return offsetZoneId(offset)
  // Intl takes a name in any case, but what names the zone to others does not: the iCalendar
  // writer's VTIMEZONEs, the tz database abbreviations, a reader's own zone library.
  const spelled = ZONE_NAMES.get(trimmed.toLowerCase())
  // `isValidZone` builds an Intl.DateTimeFormat: a write asks it several times of the same zone.
  if (spelled) return CANONICAL_ZONES.has(spelled) || IANAZone.isValidZone(spelled) ? spelled : null
  // A zone newer than both lists of names: Intl spells it as the tz database does.
  return IANAZone.isValidZone(trimmed)
    ? new Intl.DateTimeFormat('en', { timeZone: trimmed }).resolvedOptions().timeZone
    : null
}

/** The tz database's canonical names (aliases such as `UTC` and `US/Eastern` are not among them). */
const CANONICAL_ZONES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('timeZone'))

/** The tz database's names, aliases included, by their lower case. */
const ZONE_NAMES: ReadonlyMap<string, string> = new Map(
  [...CANONICAL_ZONES, ...moment.tz.names()].map((name) => [name.toLowerCase(), name]),
)

/** The luxon zone of an id produced by `parseZone`. */
export function toLuxonZone(zoneId: string): Zone {
  const offset = offsetZoneMinutes(zoneId)
  if (offset !== null) return FixedOffsetZone.instance(offset)
  // UTC has no rules: a fixed zone reads its offset without the Intl call an IANA zone makes.
  if (zoneId === 'UTC') return FixedOffsetZone.utcInstance
  // `create` caches one instance per name, valid or not: only stored ids come here, a bounded set.
  // `isValidZone` builds an Intl.DateTimeFormat on every call, the most expensive step of a list read.
  const zone = IANAZone.create(zoneId)
  if (!zone.isValid) throw new Error(`Not a time zone id: ${zoneId}`)
  return zone
}

/** A zone's offset from UTC at an instant, in hours (`5.5`, `-3`), as WordPress's `gmt_offset` gives it. */
export function offsetHours(zoneId: string, instant: Date): number {
  return toLuxonZone(zoneId).offset(instant.getTime()) / 60
}

/** The tz database abbreviation in force at `instant` (`CEST`, `EST`, `+04`); offset zones name themselves. */
export function zoneAbbr(zoneId: string, instant: Date): string {
  const offsetZone = offsetZoneMinutes(zoneId)
  if (offsetZone !== null) return offsetZoneId(offsetZone)
  const abbr = moment.tz.zone(zoneId)?.abbr(instant.getTime())
  // A zone newer than the bundled moment data still gets the database's numeric style.
  return abbr ?? numericAbbr(toLuxonZone(zoneId).offset(instant.getTime()))
}

/**
 * The day each zone was last asked about, as instants: from its midnight to the next. One per zone
 * (a bounded set: the site's and the events' zones); every list made afresh asks it, for the same day.
 */
const days = new Map<string, { from: number; to: number }>()

/** The instant (ms) of the first midnight after `now` in the zone. */
export function nextMidnight(now: Date, zoneId: string): number {
  const time = now.getTime()
  const known = days.get(zoneId)
  if (known && known.from <= time && time < known.to) return known.to
  const local = DateTime.fromJSDate(now, { zone: toLuxonZone(zoneId) })
  const day = {
    from: local.startOf('day').toMillis(),
    to: local.plus({ days: 1 }).startOf('day').toMillis(),
  }
  days.set(zoneId, day)
  return day.to
}
