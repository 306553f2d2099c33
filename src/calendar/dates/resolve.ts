import { DateTime, FixedOffsetZone, type Zone } from 'luxon'
import { boundedCache } from '../caches'
import { readDateInput, type Anchor, type DateInput, type Direction, type Phrase } from './parse'
import { toLuxonZone } from './zone'

/*
 * A date input read by `parse.ts`, placed on a zone's clock: the phrase resolved against `now` in
 * the zone. A list's date window is made here too, from its inputs as validation read them, with the
 * wall clocks it writes: a date input on the site's clock becomes the window's bounds in one module,
 * the way a list's parameters travel to its SQL (docs/architecture.md "One read: a list from its query
 * string to SQL").
 */

/** Days from `today` to the wanted weekday; "this" counts today, "next"/"last" never do (as PHP). */
function weekdayDistance(today: number, weekday: number, direction: Direction): number {
  const ahead = (weekday - today + 7) % 7
  if (direction === 0) return ahead
  if (direction === 1) return ahead || 7
  return -((today - weekday + 7) % 7 || 7)
}

/** The anchored day at 00:00:00, or `base` itself when the phrase keeps the current time. */
function anchorDay(base: DateTime, anchor: Anchor | null): DateTime {
  switch (anchor?.kind) {
    case 'date':
      return DateTime.fromObject(
        { year: anchor.year, month: anchor.month, day: anchor.day },
        { zone: base.zone },
      )
    case 'day':
      return base.startOf('day').plus({ days: anchor.days })
    case 'weekday':
      return base
        .startOf('day')
        .plus({ days: weekdayDistance(base.weekday, anchor.weekday, anchor.direction) })
    default:
      return base
  }
}

/** A phrase's named week: its weekday in it at 00:00, else its Monday at the current time (`Phrase.week`). */
function weekDay(base: DateTime, week: Direction, anchor: Anchor | null): DateTime {
  const monday = base.startOf('week').plus({ weeks: week })
  return anchor?.kind === 'weekday'
    ? monday.plus({ days: anchor.weekday - 1 })
    : monday.set({ hour: base.hour, minute: base.minute, second: base.second })
}

function resolve(phrase: Phrase, zone: Zone, now: Date): DateTime<true> | null {
  const offset = phrase.time?.offset ?? null
  // An explicit UTC offset in the input decides the wall clock, as in PHP; the instant is kept.
  const wallZone = offset === null ? zone : FixedOffsetZone.instance(offset)
  // strtotime counts in whole seconds.
  const base = DateTime.fromJSDate(now, { zone: wallZone }).startOf('second')
  let result =
    phrase.week === null
      ? anchorDay(base, phrase.anchor)
      : weekDay(base, phrase.week, phrase.anchor)
  if (phrase.time) {
    const { hour, minute, second, millisecond } = phrase.time
    result = result.set({ hour, minute, second, millisecond })
  }
  for (const { unit, amount } of phrase.shifts) result = result.plus({ [unit]: amount })
  const inZone = result.setZone(zone)
  return inZone.isValid ? inZone : null
}

/** Unix seconds; luxon throws rather than answer for NaN or infinities. */
function fromTimestamp(seconds: number, zone: Zone): DateTime<true> | null {
  if (!Number.isFinite(seconds)) return null
  const timestamp = DateTime.fromSeconds(seconds, { zone })
  return timestamp.isValid ? timestamp : null
}

/**
 * The date-time a `DateInput` means, as a luxon DateTime in `zoneId`. Wall-clock input is read in
 * that zone; timestamps and input with an explicit offset keep their instant. Null for an impossible
 * date.
 */
export function resolveDateInput(
  { read }: DateInput,
  zoneId: string,
  now: Date,
): DateTime<true> | null {
  const zone = toLuxonZone(zoneId)
  return 'seconds' in read ? fromTimestamp(read.seconds, zone) : resolve(read, zone, now)
}

/** `readDateInput` and `resolveDateInput` at once: the date-time a client meant, or null. */
export function parseDateInput(
  input: string | number,
  zoneId: string,
  now: Date,
): DateTime<true> | null {
  const read = readDateInput(input)
  const placed = read && resolveDateInput(read, zoneId, now)
  return placed && inCalendar(placed.toMillis()) ? placed : null
}

/**
 * The instants the calendar stores, and holds a list's bounds to: years 0001 to 9999, as PostgreSQL
 * reads them and as ISO 8601 writes them in four digits, two days inside either end, so that no
 * zone's wall clock, day or index bound (14 hours wider: `startLocalOf`) leaves them.
 */
const FIRST_INSTANT = Date.parse('0001-01-03T00:00:00.000Z')
const LAST_INSTANT = Date.parse('9999-12-29T23:59:59.000Z')

/** Whether an instant (ms) is one the calendar stores: every door's writes are held to it (collections/fields/calendarDate.ts). */
export const inCalendar = (time: number) => time >= FIRST_INSTANT && time <= LAST_INSTANT

// Wall clocks: the window's echo and bounds, a schedule's, and every other wall clock of the core
// (format.ts): here, so that a list's date is placed and written in one module.

/** `YYYY-MM-DD HH:MM:SS`, the API's date format. */
export function formatWallClock(dt: DateTime): string {
  return dt.toFormat('yyyy-MM-dd HH:mm:ss')
}

/** `YYYY-MM-DD HH:MM:SS` of a Date's UTC fields, for years ISO strings spell in four digits. */
export function utcWallClock(date: Date): string | undefined {
  const year = date.getUTCFullYear()
  // NaN, an invalid Date's year, fails both tests.
  if (!(year >= 0 && year <= 9999)) return undefined
  const iso = date.toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
}

/** Shifting by the zone's offset and reading UTC fields: many times cheaper than a luxon DateTime. */
export function readWallClock(instant: Date, zone: Zone): string {
  const time = instant.getTime()
  return (
    utcWallClock(new Date(time + zone.offset(time) * 60_000)) ??
    formatWallClock(DateTime.fromJSDate(instant, { zone }))
  )
}

/** The wall clock of an instant met once (the request's clock), not remembered as `wallClockIn`'s are. */
export function wallClockNow(instant: Date, zoneId: string): string {
  return readWallClock(instant, toLuxonZone(zoneId))
}

// A list's date window.

export type DateParam =
  'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after'

/** The list's date parameters as validation read them (`DateInput`), and whether they keep their times. */
export type EventWindowInput = Partial<Record<DateParam, DateInput>> & {
  strict_dates?: boolean
}

export interface DateBound {
  field: 'start' | 'end'
  op: 'gte' | 'lte' | 'gt' | 'lt'
  /** The instant, ISO 8601 in UTC: bounds compare with events' UTC start and end, as the live upstream does. */
  value: string
  /**
   * For every bound but a lower one on the end: the same bound on the events' local start, widened
   * by the widest zone offset, as a wall clock. It never changes which events match; it lets a list
   * walk its index of local starts (database/events/eventMatch.ts, `indexedWindow`).
   */
  startLocal?: string
}

export interface EventWindow {
  bounds: DateBound[]
  /** The effective value of each date parameter, for `rest_url`, in parameter order. */
  echo: Record<string, string>
}

interface Rule {
  param: DateParam
  field: DateBound['field']
  op: DateBound['op']
  /** Inclusive mode widens the bound to this edge of its day. */
  snap: 'startOf' | 'endOf'
}

/** Upstream snaps all four relative bounds to the end of their day, `starts_after`/`ends_after` included. */
const RULES: Rule[] = [
  { param: 'start_date', field: 'start', op: 'gte', snap: 'startOf' },
  { param: 'end_date', field: 'end', op: 'lte', snap: 'endOf' },
  { param: 'starts_before', field: 'start', op: 'lt', snap: 'endOf' },
  { param: 'starts_after', field: 'start', op: 'gt', snap: 'endOf' },
  { param: 'ends_before', field: 'end', op: 'lt', snap: 'endOf' },
  { param: 'ends_after', field: 'end', op: 'gt', snap: 'endOf' },
]

const RELATIVE_PARAMS: DateParam[] = ['starts_before', 'starts_after', 'ends_before', 'ends_after']

/** The window a bare list shows: from the start of yesterday to the end of the day 24 months ahead. */
function defaultBound(param: DateParam, siteNow: DateTime): DateTime | null {
  if (param === 'start_date') return siteNow.minus({ days: 1 }).startOf('day')
  if (param === 'end_date') return siteNow.plus({ months: 24 }).endOf('day')
  return null
}

function explicitBound(
  rule: Rule,
  input: DateInput,
  strict: boolean,
  siteZone: string,
  now: Date,
): DateTime {
  // Every bound is placed on the site clock (docs/api.md §4.2); strict ones keep their time, inclusive ones snap to their day.
  const read = resolveDateInput(input, siteZone, now)
  const parsed = strict ? read : read?.[rule.snap]('day')
  if (!parsed)
    throw new Error(
      `${rule.param} was not validated before building the date window: ${input.given}`,
    )
  return parsed
}

/**
 * The list's date filters as bounds on the events' start and end instants, days counted on the site
 * clock. A relative bound replaces the default window; explicit `start_date`/`end_date` always apply.
 */
export function eventWindow(input: EventWindowInput, siteZone: string, now: Date): EventWindow {
  const hasRelative = RELATIVE_PARAMS.some((param) => input[param] !== undefined)
  const bounds: DateBound[] = []
  const echo: Record<string, string> = {}
  // The site's day names the default window's bounds: luxon is read only for a day not met before.
  const siteDay = wallClockNow(now, siteZone).slice(0, 10)
  for (const rule of RULES) {
    const given = input[rule.param]
    const strict = input.strict_dates === true
    let bound: KnownBound | undefined
    if (given !== undefined) {
      // A calendar date means the same day whenever it is asked; other inputs ("now", "+1 week") do not.
      const key =
        typeof given.given === 'string' && CALENDAR_DATE.test(given.given)
          ? `${siteZone}|${rule.param}|${strict}|${given.given}`
          : undefined
      bound = known(rule, key, () => explicitBound(rule, given, strict, siteZone, now))
    } else if (!hasRelative) {
      bound = known(rule, `${siteZone}|${rule.param}|default|${siteDay}`, () =>
        defaultBound(rule.param, DateTime.fromJSDate(now, { zone: toLuxonZone(siteZone) })),
      )
    }
    if (!bound) continue
    const { value, startLocal } = bound
    bounds.push({ field: rule.field, op: rule.op, value, ...(startLocal && { startLocal }) })
    echo[rule.param] = bound.echo
  }
  return { bounds, echo }
}

type KnownBound = { value: string; echo: string; startLocal?: string }

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/

/**
 * Bounds already read, by zone, parameter and input (or site day, for the default window): every
 * list asks them, the same few again and again, and luxon's calendar arithmetic is not cheap.
 */
const knownBounds = boundedCache<string, KnownBound | undefined>('knownBounds')

function known(
  rule: Rule,
  key: string | undefined,
  read: () => DateTime | null,
): KnownBound | undefined {
  if (key !== undefined && knownBounds.has(key)) return knownBounds.get(key)
  const bound = read()
  // A bound past the instants an event may have keeps the same events at the calendar's end.
  const time = bound?.startOf('second').toMillis()
  const value =
    time === undefined
      ? undefined
      : new Date(Math.min(Math.max(time, FIRST_INSTANT), LAST_INSTANT)).toISOString()
  const result =
    bound && value
      ? { value, echo: formatWallClock(bound), startLocal: startLocalOf(rule, value) }
      : undefined
  if (key !== undefined) knownBounds.set(key, result)
  return result
}

/** No zone is further than this from UTC (Kiribati is UTC+14, Baker Island UTC-12). */
const WIDEST_OFFSET_HOURS = 14

/** `DateBound.startLocal` of a bound of `rule` at the instant `value`. */
function startLocalOf({ field, op }: Rule, value: string): string | undefined {
  const lower = op === 'gte' || op === 'gt'
  if (field === 'end' && lower) return undefined
  const widened = new Date(Date.parse(value) + (lower ? -1 : 1) * WIDEST_OFFSET_HOURS * 3_600_000)
  // Plain UTC fields: every list asks this, and a luxon DateTime costs many times more.
  return utcWallClock(widened) ?? formatWallClock(DateTime.fromJSDate(widened, { zone: 'utc' }))
}

/** Each request's window, by its parameters: its ETag and its query both read it, at the same clock. */
const requestWindows = new WeakMap<
  EventWindowInput,
  { now: Date; siteZone: string; window: EventWindow }
>()

/** `eventWindow` computed once per request: the same parameters, zone and clock give the window already made. */
export function requestWindow(input: EventWindowInput, siteZone: string, now: Date): EventWindow {
  const kept = requestWindows.get(input)
  if (kept?.now === now && kept.siteZone === siteZone) return kept.window
  const window = eventWindow(input, siteZone, now)
  requestWindows.set(input, { now, siteZone, window })
  return window
}
