import { DateTime } from 'luxon'
import { formatWallClock } from './format'
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

/**
 * An occurrence of a series starting at `at`, as long on the wall clock as its first event: an
 * evening stays 19:00–21:00 across a change of daylight saving time.
 */
export function occurrenceSchedule(at: Date, zone: string, length: number): Schedule {
  const start = DateTime.fromJSDate(at).setZone(toLuxonZone(zone))
  const end = start
    .setZone('utc', { keepLocalTime: true })
    .plus({ milliseconds: length })
    .setZone(toLuxonZone(zone), { keepLocalTime: true })
  return stored(start, end)
}
