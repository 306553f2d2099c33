import { DateTime, FixedOffsetZone, type Zone } from 'luxon'
import { boundedCache } from '../caches'
import { toLuxonZone } from './zone'

/*
 * Date input as the API accepts it: wall-clock dates and times, ISO 8601, Unix timestamps, and the
 * `strtotime` phrases that clients of the upstream API send in practice ("tomorrow 9am",
 * "next wednesday 4pm", "+5 days 11am"). The input is split into words, each word becomes a token,
 * the tokens are read into a phrase (which day, what time, which shifts), and the phrase is resolved
 * against `now` in the requested zone.
 *
 * A list's date window is made here too, from its inputs as validation read them, with the wall
 * clocks it writes: a date input on the site's clock becomes the window's bounds in one module, the
 * way a list's parameters travel to its SQL (docs/architecture.md "One read: a list from its query
 * string to SQL").
 */

type Unit = 'years' | 'months' | 'weeks' | 'days' | 'hours' | 'minutes' | 'seconds'

/** -1 for "last", 0 for "this" (or none), 1 for "next". */
type Direction = -1 | 0 | 1

interface Clock {
  hour: number
  minute: number
  second: number
  millisecond: number
}

type Token =
  | { kind: 'now' }
  | { kind: 'date'; year: number; month: number; day: number }
  | { kind: 'day'; days: number }
  | { kind: 'weekday'; weekday: number; direction: Direction }
  | ({ kind: 'time'; offset: number | null } & Clock)
  | { kind: 'modifier'; direction: Direction }
  | { kind: 'number'; amount: number }
  | { kind: 'unit'; unit: Unit }

type Anchor = Extract<Token, { kind: 'now' | 'date' | 'day' | 'weekday' }>
type Time = Extract<Token, { kind: 'time' }>

interface Phrase {
  anchor: Anchor | null
  time: Time | null
  shifts: Array<{ unit: Unit; amount: number }>
}

function clock(hour: number, minute = 0, second = 0, millisecond = 0): Time {
  return { kind: 'time', offset: null, hour, minute, second, millisecond }
}

const KEYWORDS = new Map<string, Token>([
  ['now', { kind: 'now' }],
  ['today', { kind: 'day', days: 0 }],
  ['tomorrow', { kind: 'day', days: 1 }],
  ['yesterday', { kind: 'day', days: -1 }],
  ['midnight', clock(0)],
  ['noon', clock(12)],
  ['this', { kind: 'modifier', direction: 0 }],
  ['next', { kind: 'modifier', direction: 1 }],
  ['last', { kind: 'modifier', direction: -1 }],
])

/** Luxon numbers weekdays 1 (Monday) to 7 (Sunday). */
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']

const UNITS = new Map<string, Unit>([
  ['year', 'years'],
  ['month', 'months'],
  ['week', 'weeks'],
  ['day', 'days'],
  ['hour', 'hours'],
  ['minute', 'minutes'],
  ['second', 'seconds'],
])

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const CLOCK_24H = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/
const CLOCK_12H = /^(\d{1,2})(?::(\d{2}))?(am|pm)$/
const UTC_OFFSET = /(z|[+-]\d{2}(?::?\d{2})?)$/
const NUMBER = /^[+-]?\d+$/

/** One word per token: ISO 8601 joins date and time with "T", people write "9 am" and "+5days". */
function words(input: string): string[] {
  return input
    .toLowerCase()
    .replace(/\b(\d{4}-\d{2}-\d{2})t/g, '$1 ')
    .replace(/(\d)\s+(am|pm)\b/g, '$1$2')
    .replace(/(\d)([a-z]{3,})/g, '$1 $2')
    .trim()
    .split(/\s+/)
}

/** Minutes east of UTC of an ISO 8601 offset (`z`, `+02`, `-0530`, `+05:30`); null past ±14:00. */
function offsetMinutes(offset: string): number | null {
  if (offset === 'z') return 0
  const digits = offset.slice(1).replace(':', '')
  const hours = Number(digits.slice(0, 2))
  const minutes = Number(digits.slice(2) || '0')
  if (minutes > 59 || hours * 60 + minutes > 14 * 60) return null
  return offset.startsWith('-') ? -(hours * 60 + minutes) : hours * 60 + minutes
}

/** `9am`, `4:30pm`. */
function read12HourClock(word: string): Time | null {
  const match = CLOCK_12H.exec(word)
  if (!match) return null
  const [, hour = '', minute = '0', meridiem] = match
  if (Number(hour) < 1 || Number(hour) > 12 || Number(minute) > 59) return null
  return clock((Number(hour) % 12) + (meridiem === 'pm' ? 12 : 0), Number(minute))
}

/** `16:00`, `16:00:00`, and the ISO 8601 time part with fraction and offset (`10:00:00.000+02:00`). */
function read24HourClock(word: string): Time | null {
  const offset = UTC_OFFSET.exec(word)?.[1] ?? null
  const match = CLOCK_24H.exec(offset === null ? word : word.slice(0, -offset.length))
  if (!match) return null
  const [, hour = '', minute = '', second = '0', fraction = '0'] = match
  const time = clock(
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.padEnd(3, '0').slice(0, 3)),
  )
  if (time.hour > 23 || time.minute > 59 || time.second > 59) return null
  if (offset === null) return time
  const minutes = offsetMinutes(offset)
  return minutes === null ? null : { ...time, offset: minutes }
}

function readWeekday(word: string): number | null {
  // PHP takes the full name or its first three letters.
  const index = WEEKDAYS.findIndex((name) => name === word || name.slice(0, 3) === word)
  return index === -1 ? null : index + 1
}

function readToken(word: string): Token | null {
  const keyword = KEYWORDS.get(word)
  if (keyword) return keyword
  const weekday = readWeekday(word)
  if (weekday !== null) return { kind: 'weekday', weekday, direction: 0 }
  const unit = UNITS.get(word.replace(/s$/, ''))
  if (unit) return { kind: 'unit', unit }
  if (NUMBER.test(word)) return { kind: 'number', amount: Number(word) }
  const date = DATE.exec(word)
  if (date)
    return { kind: 'date', year: Number(date[1]), month: Number(date[2]), day: Number(date[3]) }
  return read12HourClock(word) ?? read24HourClock(word)
}

/** Reads tokens into a phrase: at most one day, at most one time, any number of shifts. */
function readPhrase(tokens: Token[]): Phrase | null {
  const phrase: Phrase = { anchor: null, time: null, shifts: [] }
  const rest = [...tokens]
  for (let token = rest.shift(); token; token = rest.shift()) {
    switch (token.kind) {
      case 'number':
      case 'modifier': {
        const target = rest.shift()
        if (target?.kind === 'unit') {
          phrase.shifts.push({
            unit: target.unit,
            amount: token.kind === 'number' ? token.amount : token.direction,
          })
          break
        }
        // Otherwise only "next friday" / "last monday": a weekday with a direction.
        if (token.kind !== 'modifier' || target?.kind !== 'weekday' || phrase.anchor) return null
        phrase.anchor = { ...target, direction: token.direction }
        break
      }
      case 'time':
        if (phrase.time) return null
        phrase.time = token
        break
      case 'unit':
        // A unit needs a count: "+2 days", "next week".
        return null
      default:
        if (phrase.anchor) return null
        phrase.anchor = token
    }
  }
  return phrase
}

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

function resolve(phrase: Phrase, zone: Zone, now: Date): DateTime<true> | null {
  const offset = phrase.time?.offset ?? null
  // An explicit UTC offset in the input decides the wall clock, as in PHP; the instant is kept.
  const wallZone = offset === null ? zone : FixedOffsetZone.instance(offset)
  // strtotime counts in whole seconds.
  let result = anchorDay(
    DateTime.fromJSDate(now, { zone: wallZone }).startOf('second'),
    phrase.anchor,
  )
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
 * A date as an API client wrote it (`given`), read once: a Unix timestamp, or a phrase (which day,
 * what time, which shifts) that needs a zone and a clock to name an instant (`resolveDateInput`).
 */
export type DateInput = { given: string | number; read: { seconds: number } | Phrase }

/** The words of a date input read into a `DateInput`; null when they are not one of the supported forms. */
export function readDateInput(input: string | number): DateInput | null {
  if (typeof input === 'number' || /^\s*\d+\s*$/.test(input))
    return { given: input, read: { seconds: Number(input) } }
  const tokens: Token[] = []
  for (const word of words(input)) {
    const token = readToken(word)
    if (!token) return null
    tokens.push(token)
  }
  const phrase = readPhrase(tokens)
  return phrase && { given: input, read: phrase }
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

/**
 * A date input read as validation reads it: `readDateInput`, refused (null) unless it names a date on
 * UTC's clock now, as `parseDateInput` checks a written date.
 */
export function readValidDateInput(input: string | number): DateInput | null {
  const read = readDateInput(input)
  return read && resolveDateInput(read, 'UTC', new Date()) && read
}

/** `readDateInput` and `resolveDateInput` at once: the date-time a client meant, or null. */
export function parseDateInput(
  input: string | number,
  zoneId: string,
  now: Date,
): DateTime<true> | null {
  const read = readDateInput(input)
  return read && resolveDateInput(read, zoneId, now)
}

// Wall clocks: the window's echo and bounds, and every other wall clock of the core (format.ts).

/** `YYYY-MM-DD HH:MM:SS`, the API's date format. */
export function formatWallClock(dt: DateTime): string {
  return dt.toFormat('yyyy-MM-dd HH:mm:ss')
}

/** `YYYY-MM-DD HH:MM:SS` of a Date's UTC fields, for years ISO strings spell in four digits. */
export function utcWallClock(date: Date): string | undefined {
  const year = date.getUTCFullYear()
  if (year < 0 || year > 9999) return undefined
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
  const value = bound?.startOf('second').toJSDate().toISOString()
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
