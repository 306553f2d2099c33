/**
 * The date window of the floors' lists (bench/floorLists.ts, bench/floorEditor.ts), as the namespace
 * reads it (src/calendar/dates/resolve.ts): from the start of the first day to the last second of the
 * last, in the site's zone, by default from yesterday to 24 months on. Computed here, not in SQL, so
 * that PostgreSQL plans for the values: as expressions of the zone and `now()` it cannot.
 */
import { BoundedMap } from '../src/calendar/boundedMap'
import { listPool } from './floorParts'

/** The site's zone, which its days begin and end in: read once, as a raw server would configure it. */
export const zone = listPool
  .query(`select coalesce((select timezone from settings limit 1), 'UTC') as zone`)
  .then(({ rows }) => rows[0].zone as string)

export const DAY = 86_400_000
/** The widest offset from UTC: a local start is within it of the UTC start. */
const WIDEST = 14 * 3_600_000

/** Formats by zone: building one costs far more than using it. */
const formats = new Map<string, Intl.DateTimeFormat>()

/** The clock of `zone` at `at`, each part as a number. */
function clock(zone: string, at: number): Record<string, number> {
  let format = formats.get(zone)
  if (!format) {
    const parts = ['month', 'day', 'hour', 'minute', 'second'].map((part) => [part, '2-digit'])
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      ...Object.fromEntries(parts),
    })
    formats.set(zone, format)
  }
  return Object.fromEntries(
    format.formatToParts(at).map(({ type, value }) => [type, Number(value)]),
  ) as Record<string, number>
}

const offsetAt = (zone: string, at: number) => {
  const c = clock(zone, at)
  return Date.UTC(c.year!, c.month! - 1, c.day, c.hour, c.minute, c.second) - at
}

/**
 * The first instant (ms) of `day` (`YYYY-MM-DD`) in `zone`: its midnight, or where the clock skips
 * midnight (a change of offset at 00:00), the moment it resumes, as luxon's `startOf('day')` gives.
 */
function dayStart(zone: string, day: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`)
  const before = offsetAt(zone, wall)
  const guess = wall - before
  const after = offsetAt(zone, guess)
  if (after === before) return guess
  if (offsetAt(zone, wall - after) === after) return wall - after
  return wall - Math.min(before, after)
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const dateTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')

/** `day` plus `months`, the day of the month kept or, past the month's end, its last (as luxon adds months). */
function plusMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate()
  return dayOf(Date.UTC(year, month - 1 + months, Math.min(date, last)))
}

/** A window: its first and last instants (ms), and the statements' first four values ($1 to $4, `inWindow`). */
export type Window = { lower: number; upper: number; values: string[] }

/** Windows by zone, day and dates asked: the same few again and again, as the namespace keeps them. */
const windows = new BoundedMap<string, Window>(5000)

/** The window of `start` to `end` (days), or the default one: from yesterday to 24 months on, in the site's zone. */
export function windowOf(zone: string, start: string | null, end: string | null): Window {
  const now = clock(zone, Date.now())
  const today = dayOf(Date.UTC(now.year!, now.month! - 1, now.day))
  const key = JSON.stringify([zone, today, start, end])
  let window = windows.get(key)
  if (!window) {
    const lower = dayStart(zone, start ?? dayOf(Date.parse(today) - DAY))
    // The namespace's last bound is the last second of the day, to the second.
    const last = end ?? plusMonths(today, 24)
    const upper = dayStart(zone, dayOf(Date.parse(last) + DAY)) - 1000
    const instants = [lower, upper].map((ms) => new Date(ms).toISOString())
    const values = [...instants, dateTime(lower - WIDEST), dateTime(upper + WIDEST)]
    window = { lower, upper, values }
    windows.set(key, window)
  }
  return window
}

/**
 * The window's conditions on an event `e` from $1 to $4, its events starting from `from` (the
 * window's start): the UTC start and end as the site's days begin and end and, as the namespace
 * does, the local start the list is ordered by, so that a walk along its index starts at the window.
 */
export const inWindow = (from = '$1') =>
  `e.start >= ${from} and e."end" <= $2 and e.start_local >= $3 and e.start_local <= $4`
