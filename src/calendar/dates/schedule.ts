import { DateTime } from 'luxon'
import { formatWallClock, utcWallClock } from './resolve'
import { toLuxonZone } from './zone'

/**
 * An event's start and end as stored: UTC instants, and wall-clock text in the event's zone (both
 * indexed: lists filter on instants and order by wall clock, as upstream does).
 */
export type Schedule = { start: string; end: string; startLocal: string; endLocal: string }

const stored = (start: DateTime, end: DateTime): Schedule => ({
  start: start.toUTC().toISO()!,
  end: end.toUTC().toISO()!,
  startLocal: formatWallClock(start),
  endLocal: formatWallClock(end),
})

/** An event from `start` to `end` in `zone`; an all-day one takes 00:00:00–23:59:59 of its days there. */
export function scheduleOf(start: Date, end: Date, zone: string, allDay: boolean): Schedule {
  const startAt = DateTime.fromJSDate(start).setZone(toLuxonZone(zone))
  const endAt = DateTime.fromJSDate(end).setZone(toLuxonZone(zone))
  if (!allDay) return stored(startAt, endAt)
  return stored(
    startAt.startOf('day'),
    endAt.set({ hour: 23, minute: 59, second: 59, millisecond: 0 }),
  )
}

const wallClock = (text: string) =>
  DateTime.fromFormat(text, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' })

/** The milliseconds between two stored wall clocks, as the clock on the wall counts them (0 when unreadable). */
export const wallLength = (startLocal: string, endLocal: string): number =>
  wallClock(endLocal).diff(wallClock(startLocal)).toMillis() || 0

/** A zone's offset in minutes at an instant (epoch milliseconds), each instant read from Intl once. */
export type Offsets = (instant: number) => number

/**
 * The offsets of `zone` for one rule or one series: luxon reads each from Intl (`formatToParts`), the
 * most expensive step of placing a date, and a series' hundreds of dates ask for the same instants
 * again (each check of the rule, then the series' schedules).
 */
export function offsetsIn(zone: string): Offsets {
  const luxonZone = toLuxonZone(zone)
  const known = new Map<number, number>()
  return (instant) => {
    let offset = known.get(instant)
    if (offset === undefined) known.set(instant, (offset = luxonZone.offset(instant)))
    return offset
  }
}

/** How far back a repeated wall clock's first instant is looked for: no zone has set its clocks back further. */
const REPEAT_MS = 3 * 3_600_000

/**
 * Where a wall clock (its fields read as UTC, in milliseconds) falls in the zone, without building
 * a luxon DateTime per date: from the offset `guess`, corrected once, as luxon's `fixOffset` does; a
 * wall clock in a gap moves forward by the gap. One that a fall-back repeats is its first instant, as
 * RFC 5545 and PHP read it (and a single event's time is read), whatever the guess: luxon's own
 * choice follows the offset it guessed from, which was the season the series was written in.
 */
export function placeWall(wall: number, guess: number, offsets: Offsets): number {
  const at = placedFrom(wall, guess, offsets)
  const earlierOffset = offsets(at - REPEAT_MS)
  const earlier = wall - earlierOffset * 60_000
  return earlier < at && offsets(earlier) === earlierOffset ? earlier : at
}

function placedFrom(wall: number, guess: number, offsets: Offsets): number {
  const first = wall - guess * 60_000
  const found = offsets(first)
  if (found === guess) return first
  const second = first - (found - guess) * 60_000
  const again = offsets(second)
  if (again === found) return second
  return wall - Math.min(found, again) * 60_000
}

/** `YYYY-MM-DD HH:MM:SS` of a wall clock given as milliseconds whose UTC fields are its fields. */
const wallText = (wall: number) =>
  utcWallClock(new Date(wall)) ?? formatWallClock(DateTime.fromMillis(wall, { zone: 'utc' }))

const DAY = 86_400_000

/**
 * An occurrence of a series starting at `at`, as long on the wall clock as its first event: an
 * evening stays 19:00–21:00 across a change of daylight saving time. The end is placed as luxon's
 * `setZone(zone, { keepLocalTime: true })` places it, from the offset at the end's wall clock, but
 * for a wall clock a fall-back repeats, which is its first instant (`placeWall`).
 * An all-day occurrence's length counts from its day's midnight, even where the zone skips that
 * midnight (America/Santiago's first Sunday of September starts at 01:00): it still ends at 23:59:59.
 */
export function occurrenceSchedule(
  at: Date,
  offsets: Offsets,
  length: number,
  allDay = false,
): Schedule {
  const start = at.getTime()
  const startWall = start + offsets(start) * 60_000
  const endWall = (allDay ? startWall - (((startWall % DAY) + DAY) % DAY) : startWall) + length
  const end = placeWall(endWall, offsets(endWall), offsets)
  return {
    start: at.toISOString(),
    end: new Date(end).toISOString(),
    startLocal: wallText(start + offsets(start) * 60_000),
    endLocal: wallText(end + offsets(end) * 60_000),
  }
}
