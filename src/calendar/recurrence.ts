import { DateTime } from 'luxon'
import * as rruleModule from 'rrule'
import { offsetsIn, placeWall, type Offsets } from './dates/schedule'
import { toLuxonZone } from './dates/zone'

// Node's ESM loader sees the library's CommonJS build as one default export; bundlers read its ESM build.
const { RRule, RRuleSet } = (rruleModule as { default?: typeof rruleModule }).default ?? rruleModule

/** How far ahead a series is materialized, and how many events it may have until then (settings, docs/api.md §16). */
export type RecurrenceLimits = { horizonMonths: number; maxOccurrences: number }

export const RECURRENCE_DEFAULTS: RecurrenceLimits = { horizonMonths: 24, maxOccurrences: 730 }

/**
 * A series' rule as read from its `recurrence` text: RFC 5545 RRULE, RDATE and EXDATE lines, with the
 * offsets of its zone as its dates are placed (each check of a write expands it again).
 */
export type Recurrence = {
  set: rruleModule.RRuleSet
  zone: string
  start: DateTime
  offsets: Offsets
}

/** A rule as read, or why it cannot be. */
export type Parsed = { ok: true; recurrence: Recurrence } | { ok: false; error: string }

/**
 * The rule runs on the wall clock of the event's zone (a weekly 19:00 in Paris stays 19:00 across DST):
 * the library expands "floating" times, Dates whose UTC fields are the wall clock, and each one is then
 * placed in the zone. A wall clock that does not exist (in a spring-forward gap) moves forward by the gap.
 */
function floating(wall: DateTime): Date {
  const date = new Date(
    Date.UTC(2000, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second),
  )
  // Set apart: `Date.UTC` reads the years 0–99 as 1900–1999.
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day)
  return date
}
/** Where a floating date of the rule falls in its zone (`placeWall`), guessed first at the zone's offset now. */
const placed = (date: Date, { offsets }: Recurrence, guess = offsets(Date.now())): Date =>
  new Date(placeWall(date.getTime() - date.getUTCMilliseconds(), guess, offsets))

const DATE_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/

/**
 * A date of the rule as a floating wall clock in the event's zone: `YYYYMMDDTHHMMSS` is already one,
 * a trailing `Z` is UTC, and a bare `YYYYMMDD` takes the time of day `fill` gives.
 */
function wallClock(value: string, zone: string, fill: (day: DateTime) => DateTime): Date | null {
  const match = DATE_VALUE.exec(value)
  if (!match) return null
  const [, y, mo, d, h, mi, s, z] = match
  if (h === undefined) {
    const day = DateTime.fromObject({ year: +y!, month: +mo!, day: +d! }, { zone: 'utc' })
    return day.isValid ? floating(fill(day)) : null
  }
  const parts = { year: +y!, month: +mo!, day: +d!, hour: +h, minute: +mi!, second: +s! }
  const read = DateTime.fromObject(parts, { zone: 'utc' })
  if (!read.isValid) return null
  return floating(z ? read.setZone(toLuxonZone(zone)) : read)
}

/** RFC 5545's ranges of the BY* parts; the library accepts anything and then loops or yields nothing. */
const RANGES: Record<string, { min: number; max: number; signed: boolean }> = {
  BYMONTHDAY: { min: 1, max: 31, signed: true },
  BYYEARDAY: { min: 1, max: 366, signed: true },
  BYWEEKNO: { min: 1, max: 53, signed: true },
  BYMONTH: { min: 1, max: 12, signed: false },
  BYSETPOS: { min: 1, max: 366, signed: true },
}
const WEEKDAY = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/
/**
 * Events recur by the day at the finest. Sub-daily rules would make every event of a day an
 * occurrence, and the library walks them second by second: one request could hold a core for minutes.
 * Parts that pick times within a day are refused for the same reason: the series keeps one event a
 * day, and a time other than the start's would place it away from the first event's time.
 */
const FREQUENCIES = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY']
const TIMES_OF_DAY = ['BYHOUR', 'BYMINUTE', 'BYSECOND']
const KNOWN = new Set([
  ...Object.keys(RANGES),
  ...TIMES_OF_DAY,
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYDAY',
  'WKST',
])

function inRange(value: string, { min, max, signed }: (typeof RANGES)[string]): boolean {
  if (!/^[+-]?\d+$/.test(value)) return false
  const number = Number(value)
  const size = signed ? Math.abs(number) : number
  return (signed || !value.startsWith('-')) && size >= min && size <= max
}

/** RFC 5545's limits on which frequency takes which BY* part. */
const ONLY_WITH: Record<string, string[]> = {
  BYWEEKNO: ['YEARLY'],
  BYYEARDAY: ['YEARLY'],
  BYMONTHDAY: ['YEARLY', 'MONTHLY', 'DAILY'],
}
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/**
 * Parts that RFC 5545 forbids together, and days that no month has (BYMONTH=2;BYMONTHDAY=30): the
 * library would look for such a day to the year 9999, for seconds of CPU per request.
 */
function combinationError(freq: string, parts: Map<string, string>): string | undefined {
  for (const [name, frequencies] of Object.entries(ONLY_WITH)) {
    if (parts.has(name) && !frequencies.includes(freq))
      return `${name} cannot be used with FREQ=${freq}.`
  }
  if (parts.has('BYSETPOS') && !['YEARLY', 'MONTHLY'].includes(freq))
    return `BYSETPOS cannot be used with FREQ=${freq} here.`
  if (/\d/.test(parts.get('BYDAY') ?? '') && !['YEARLY', 'MONTHLY'].includes(freq))
    return `BYDAY ordinals (2TU) need FREQ=MONTHLY or YEARLY.`
  if (
    (parts.has('BYWEEKNO') || parts.has('BYYEARDAY')) &&
    (parts.has('BYMONTH') || parts.has('BYMONTHDAY'))
  ) {
    return 'BYWEEKNO and BYYEARDAY cannot be combined with BYMONTH or BYMONTHDAY here.'
  }
  const months = parts.get('BYMONTH')?.split(',').map(Number)
  const days = parts.get('BYMONTHDAY')?.split(',').map(Number)
  if (
    months &&
    days &&
    !months.some((month) => days.some((day) => Math.abs(day) <= DAYS_IN_MONTH[month - 1]!))
  ) {
    return 'No month of BYMONTH has a day of BYMONTHDAY.'
  }
  const positions = parts
    .get('BYSETPOS')
    ?.split(',')
    .map((entry) => Math.abs(Number(entry)))
  const most = datesPerPeriod(freq, parts)
  if (positions?.every((position) => position > most))
    return `BYSETPOS asks for a date beyond the last: each ${freq === 'YEARLY' ? 'year' : 'month'} of this rule has at most ${most}.`
  return undefined
}

/**
 * At most how many dates one period (a month, a year) of a MONTHLY or YEARLY rule gives: a BYSETPOS
 * beyond it never matches, and the library would look for it through the whole lookahead, seconds
 * of CPU a write (BYSETPOS=53 on one Monday a month: 2.4 s). An upper bound, never below the truth.
 */
function datesPerPeriod(freq: string, parts: Map<string, string>): number {
  const count = (name: string) => parts.get(name)?.split(',').length
  const months = count('BYMONTH')
  const periodMonths = freq === 'YEARLY' ? (months ?? 12) : 1
  const weekdays = parts.get('BYDAY')?.split(',')
  const bounds = [
    periodMonths * 31,
    count('BYYEARDAY'),
    // A week number's days in one year: week 1 and 53 reach into the next year or the one before.
    count('BYWEEKNO') && count('BYWEEKNO')! * 14,
    count('BYMONTHDAY') && count('BYMONTHDAY')! * periodMonths,
    // An ordinal (2TU) is one date a month, or a year when a YEARLY rule names no month.
    weekdays?.reduce(
      (sum, entry) =>
        sum +
        (/\d/.test(entry) ? (freq === 'YEARLY' && !months ? 53 : periodMonths) : 5 * periodMonths),
      0,
    ),
  ].filter((bound): bound is number => bound !== undefined)
  return Math.min(...bounds)
}

/** What is wrong with one RRULE value, checked part by part before the library reads it. */
function ruleError(value: string): string | undefined {
  // The library reads the text as it stands (`COUNT` but not ` COUNT`), and the iCalendar file repeats it.
  if (/\s/.test(value)) return 'A rule has no spaces: NAME=VALUE parts separated by ";".'
  const parts = new Map<string, string>()
  for (const part of value.split(';')) {
    const [key, val, ...rest] = part.split('=')
    const name = key?.toUpperCase() ?? ''
    if (!name || val === undefined || rest.length) return `"${part}" is not a NAME=VALUE part.`
    if (!KNOWN.has(name)) return `Unknown rule part ${name}.`
    if (TIMES_OF_DAY.includes(name))
      return `${name} is not taken: events recur by the day, at the first event's time.`
    if (parts.has(name)) return `${name} is given twice.`
    parts.set(name, val.toUpperCase())
  }
  const freq = parts.get('FREQ')
  if (!freq) return 'The rule has no FREQ.'
  if (!FREQUENCIES.includes(freq)) return `FREQ must be one of ${FREQUENCIES.join(', ')}.`
  if (parts.has('COUNT') && parts.has('UNTIL')) return 'COUNT and UNTIL cannot go together.'
  for (const name of ['COUNT', 'INTERVAL']) {
    const given = parts.get(name)
    if (given !== undefined && !/^[1-9]\d{0,5}$/.test(given))
      return `${name} must be a positive integer.`
  }
  for (const [name, range] of Object.entries(RANGES)) {
    const given = parts.get(name)
    if (given !== undefined && !given.split(',').every((entry) => inRange(entry, range))) {
      return `${name} values must be within ${range.signed ? '±' : ''}${range.min}..${range.max}.`
    }
  }
  const byday = parts.get('BYDAY')
  if (byday !== undefined) {
    for (const entry of byday.split(',')) {
      const match = WEEKDAY.exec(entry)
      const ordinal = match?.[1] === undefined ? undefined : Math.abs(Number(match[1]))
      if (!match || ordinal === 0 || (ordinal !== undefined && ordinal > 53))
        return `BYDAY value ${entry} is not a weekday such as TU or 2TU.`
    }
  }
  const combination = combinationError(freq, parts)
  if (combination) return combination
  const wkst = parts.get('WKST')
  // Not BYDAY's pattern: the library ignores an ordinal (2MO) here, and the iCalendar file would repeat it.
  if (wkst !== undefined && !/^(MO|TU|WE|TH|FR|SA|SU)$/.test(wkst))
    return 'WKST must be a weekday (MO..SU).'
  const until = parts.get('UNTIL')
  if (until !== undefined && !DATE_VALUE.test(until))
    return 'UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSS[Z].'
  return undefined
}

/**
 * The RDATE and EXDATE dates a rule may list. The library keeps them in lists it searches for each
 * date it adds and each it expands: 8,000 EXDATEs held the thread for 37 s a write and 60,000 for
 * minutes, every later write and iCalendar feed of the series as long. A series holds at most 730
 * events by default; a thousand dates leaves room for every one of them to be moved.
 */
export const MAX_RULE_DATES = 1000

/** The first year a series may have dates in. */
const FIRST_YEAR = 100

/**
 * The last year a date of the rule may fall in on the event's wall clock. The library prints an UNTIL
 * back as it reads it (`set.rrules()`, which every iCalendar file of the series asks) and cannot read
 * a fifth digit of year (`UNTIL=99991231T235959Z` in Paris is 10000-01-01 there); RDATE and EXDATE are
 * written on that wall clock too.
 */
const LAST_YEAR = 9999

/** Why a date of the rule (a floating wall clock) is outside the years the series may use. */
function yearError(name: string, date: Date): string | undefined {
  const year = date.getUTCFullYear()
  if (year < FIRST_YEAR) return `${name} dates must be in the year ${FIRST_YEAR} or later.`
  if (year > LAST_YEAR)
    return `${name} dates must be in the year ${LAST_YEAR} or earlier on the event's wall clock.`
  return undefined
}

/**
 * Reads a `recurrence` text for an event starting at `start` (an instant) in `zone`. The start is the
 * series' first occurrence (DTSTART); dates in the text are wall clocks in the zone, or UTC with `Z`.
 */
export function parseRecurrence(text: string, start: Date, zone: string, allDay = false): Parsed {
  const dtstart = DateTime.fromJSDate(start).setZone(toLuxonZone(zone))
  // An all-day series' days start at midnight, also when its first day has none and starts later.
  const ruleStart = floating(dtstart)
  if (allDay) ruleStart.setUTCHours(0, 0, 0, 0)
  const timeOfDay = (day: DateTime) =>
    day.set({ hour: dtstart.hour, minute: dtstart.minute, second: dtstart.second })
  const set = new RRuleSet()
  // The library's own date arithmetic reads the years 0–99 as 1900–1999.
  if (dtstart.year < FIRST_YEAR)
    return { ok: false, error: `A series must start in the year ${FIRST_YEAR} or later.` }
  let rules = 0
  let dates = 0
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line) continue
    const match = /^(RRULE|RDATE|EXDATE)(;VALUE=(?:DATE|DATE-TIME))?:(.+)$/i.exec(line)
    if (!match) return { ok: false, error: `"${line}" is not an RRULE, RDATE or EXDATE line.` }
    const name = match[1]!.toUpperCase()
    const value = match[3]!.trim()
    if (name === 'RRULE') {
      const error = ruleError(value)
      if (error) return { ok: false, error }
      const options = RRule.parseString(value.toUpperCase())
      const until = /UNTIL=([0-9TZ]+)/i.exec(value)?.[1]
      if (until) {
        // The end of a bare UNTIL date is inclusive of that whole day.
        const date = wallClock(until.toUpperCase(), zone, (day) =>
          day.endOf('day').set({ millisecond: 0 }),
        )
        // The library would take a null UNTIL for none: an impossible day would make the rule endless.
        if (!date) return { ok: false, error: `UNTIL value "${until}" is not a date.` }
        const outside = yearError('UNTIL', date)
        if (outside) return { ok: false, error: outside }
        options.until = date
      }
      set.rrule(new RRule({ ...options, dtstart: ruleStart }))
      rules++
      continue
    }
    for (const entry of value.split(',')) {
      if (++dates > MAX_RULE_DATES)
        return {
          ok: false,
          error: `A rule may list at most ${MAX_RULE_DATES} RDATE and EXDATE dates.`,
        }
      const date = wallClock(entry.trim().toUpperCase(), zone, timeOfDay)
      if (!date)
        return {
          ok: false,
          error: `${name} value "${entry.trim()}" is not YYYYMMDD or YYYYMMDDTHHMMSS[Z].`,
        }
      const outside = yearError(name, date)
      if (outside) return { ok: false, error: outside }
      if (name === 'RDATE') set.rdate(date)
      else set.exdate(date)
    }
  }
  if (!rules) return { ok: false, error: 'At least one RRULE line is needed.' }
  return { ok: true, recurrence: { set, zone, start: dtstart, offsets: offsetsIn(zone) } }
}

/**
 * The dates written in the rule, as the parser read them (wall clocks in the zone, `Z` in UTC, bare days
 * per line kind), as instants: each RRULE's UNTIL (null: none), in line order, then the RDATEs and EXDATEs.
 */
export function ruleDates(recurrence: Recurrence): {
  untils: (Date | null)[]
  rdates: Date[]
  exdates: Date[]
} {
  const { set } = recurrence
  const instant = (date: Date) => placed(date, recurrence)
  return {
    untils: set.rrules().map((rule) => (rule.options.until ? instant(rule.options.until) : null)),
    rdates: set.rdates().map(instant),
    exdates: set.exdates().map(instant),
  }
}

/** The days (`YYYY-MM-DD` on the zone's wall clock) the rule's EXDATEs name, whatever their time of day. */
export function excludedDays(recurrence: Recurrence): Set<string> {
  // Floating dates: their UTC fields are the wall clock.
  return new Set(recurrence.set.exdates().map((date) => date.toISOString().slice(0, 10)))
}

/** How far a rule is searched for its second occurrence: a rule that never yields one would be walked to year 9999. */
const LOOKAHEAD_YEARS = 100

/** The end of the materialized window at `now`: the horizon's months ahead. */
export function horizonEnd(now: Date, limits: RecurrenceLimits): Date {
  return DateTime.fromJSDate(now, { zone: 'utc' }).plus({ months: limits.horizonMonths }).toJSDate()
}

/**
 * The starts of the occurrences after the first (the event itself) up to `until`, in order, as instants.
 * Stops after `limit` of them, so an endless rule costs what the caller may keep.
 */
export function occurrencesUntil(recurrence: Recurrence, until: Date, limit: number): Date[] {
  const { set, zone, start } = recurrence
  const end = floating(DateTime.fromJSDate(until).setZone(toLuxonZone(zone)))
  const first = floating(start)
  const found: Date[] = []
  // The library hands extra dates (RDATE) out of order, ahead of the rules' dates: past them, the
  // first `limit` found are the earliest.
  const enough = limit + set.rdates().length
  set.between(first, end, true, (date) => {
    if (date.getTime() > first.getTime()) found.push(date)
    return found.length < enough
  })
  const guess = recurrence.offsets(Date.now())
  return found
    .sort((a, b) => a.getTime() - b.getTime())
    .slice(0, limit)
    .map((date) => placed(date, recurrence, guess))
}

/**
 * The occurrences a write would materialize, or why the rule is refused: it must yield an occurrence
 * after the start (ever, not only within the horizon), and at most `maxOccurrences` events, the first
 * included, up to the horizon.
 */
export function expandRecurrence(
  parsed: Parsed,
  now: Date,
  limits: RecurrenceLimits,
): { ok: true; recurrence: Recurrence; occurrences: Date[] } | { ok: false; error: string } {
  if (!parsed.ok) return parsed
  const { recurrence } = parsed
  const first = floating(recurrence.start)
  const lookahead = floating(recurrence.start.plus({ years: LOOKAHEAD_YEARS }))
  let next: Date | undefined
  recurrence.set.between(first, lookahead, false, (date) => {
    next = date
    return false
  })
  if (!next)
    return {
      ok: false,
      error: `The rule yields no occurrence within ${LOOKAHEAD_YEARS} years after the start.`,
    }
  const occurrences = occurrencesUntil(recurrence, horizonEnd(now, limits), limits.maxOccurrences)
  if (occurrences.length + 1 > limits.maxOccurrences) {
    return {
      ok: false,
      error: `The rule yields more than ${limits.maxOccurrences} events within ${limits.horizonMonths} months.`,
    }
  }
  return { ok: true, recurrence, occurrences }
}

/** `YYYYMMDDTHHMMSS`: a wall clock in the event's zone, as the rule's dates are written. */
export function ruleDate(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant).setZone(toLuxonZone(zone)).toFormat("yyyyMMdd'T'HHmmss")
}

/** The text with one more excluded date (an occurrence trashed on its own). */
export function withExdate(text: string, instant: Date, zone: string): string {
  return `${text.trim()}\nEXDATE:${ruleDate(instant, zone)}`
}

/**
 * The text ending just before `instant` (the series is split there): every RRULE gets that UNTIL in
 * place of its UNTIL or COUNT, and later RDATEs go.
 */
export function endedBefore(text: string, instant: Date, zone: string): string {
  const until = ruleDate(new Date(instant.getTime() - 1000), zone)
  const cut = ruleDate(instant, zone)
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      if (/^RRULE:/i.test(line)) {
        const parts = line
          .slice(6)
          .split(';')
          .filter((part) => !/^(UNTIL|COUNT)=/i.test(part.trim()))
        return `RRULE:${[...parts, `UNTIL=${until}`].join(';')}`
      }
      if (/^RDATE/i.test(line)) {
        const [head, values = ''] = line.split(/:(.*)/s)
        const kept = values.split(',').filter((value) => value.trim().slice(0, 15) < cut)
        return kept.length ? `${head}:${kept.join(',')}` : ''
      }
      return line
    })
    .filter(Boolean)
    .join('\n')
}
