import { DateTime } from 'luxon'
import { formatWallClock, wallClockNow } from './format'
import { resolveDateInput, type DateInput } from './parse'
import { toLuxonZone } from './zone'
import { boundedCache } from '../caches'

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
      bound = known(key, () => explicitBound(rule, given, strict, siteZone, now))
    } else if (!hasRelative) {
      bound = known(`${siteZone}|${rule.param}|default|${siteDay}`, () =>
        defaultBound(rule.param, DateTime.fromJSDate(now, { zone: toLuxonZone(siteZone) })),
      )
    }
    if (!bound) continue
    bounds.push({ field: rule.field, op: rule.op, value: bound.value })
    echo[rule.param] = bound.echo
  }
  return { bounds, echo }
}

type KnownBound = { value: string; echo: string }

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/

/**
 * Bounds already read, by zone, parameter and input (or site day, for the default window): every
 * list asks them, the same few again and again, and luxon's calendar arithmetic is not cheap.
 */
const knownBounds = boundedCache<string, KnownBound | undefined>('knownBounds')

function known(key: string | undefined, read: () => DateTime | null): KnownBound | undefined {
  if (key !== undefined && knownBounds.has(key)) return knownBounds.get(key)
  const bound = read()
  const result = bound
    ? { value: bound.startOf('second').toJSDate().toISOString(), echo: formatWallClock(bound) }
    : undefined
  if (key !== undefined) knownBounds.set(key, result)
  return result
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
