import { boundedCache } from '../../calendar/caches'
import { toLuxonZone } from '../../calendar/dates/zone'
import type { Event } from '../../payload-types'
import { dayValue, utcValue, wallClockValue, type WallClock } from './syntax'
import { tzidOf } from './zones'

/**
 * An event's DTSTART and DTEND, as the values they are written with. Timed events: instants placed
 * in the event's zone, written on its wall clock with a TZID (or in UTC, `timezone` null). All-day
 * events: their days in their zone, the end exclusive (the day after the last one), as RFC 5545's
 * VALUE=DATE.
 */
export type EventTimes = {
  start: string
  end: string
  allDay: boolean
  timezone: string | null
  zoneId: string
}

const DAY_MS = 86_400_000

/**
 * A zone's offset in minutes through a UTC day, or null when it changes within that day. A feed
 * places a thousand instants on a few hundred days: luxon asks `Intl` for each instant's offset, which
 * was most of what writing their times cost (docs/performance.md, "The iCalendar feed").
 */
const dayOffsets = boundedCache<string, number | null>('zoneDayOffsets')

function offsetMinutes(zoneId: string, time: number): number {
  const zone = toLuxonZone(zoneId)
  if (zone.isUniversal) return zone.offset(time)
  const day = Math.floor(time / DAY_MS)
  const key = `${zoneId} ${day}`
  let offset = dayOffsets.get(key)
  if (offset === undefined) {
    const first = zone.offset(day * DAY_MS)
    // Equal at both ends: no change within the day (no zone changes twice in a day and back).
    offset = first === zone.offset((day + 1) * DAY_MS - 1) ? first : null
    dayOffsets.set(key, offset)
  }
  return offset ?? zone.offset(time)
}

/** `at` shifted by the zone's offset: a "floating" Date, whose UTC fields are its wall clock in the zone. */
function floating(at: Date, zoneId: string): Date {
  const time = at.getTime()
  return new Date(time + offsetMinutes(zoneId, time) * 60_000)
}

function utcFields(at: Date): WallClock {
  return {
    year: at.getUTCFullYear(),
    month: at.getUTCMonth() + 1,
    day: at.getUTCDate(),
    hour: at.getUTCHours(),
    minute: at.getUTCMinutes(),
    second: at.getUTCSeconds(),
  }
}

function valueOf(at: Date, zoneId: string, allDay: boolean, timezone: string | null): string {
  if (allDay) return dayValue(utcFields(floating(at, zoneId)))
  return timezone ? wallClockValue(utcFields(floating(at, zoneId))) : utcValue(at)
}

export function eventTimes(
  event: Pick<Event, 'start' | 'end' | 'allDay'>,
  zoneId: string,
): EventTimes {
  const [start, end] = [new Date(event.start), new Date(event.end)]
  if (event.allDay) {
    // A floating day is 24 hours long: the next day's date, whatever the zone's clock does.
    const after = utcFields(new Date(floating(end, zoneId).getTime() + DAY_MS))
    return {
      start: valueOf(start, zoneId, true, null),
      end: dayValue(after),
      allDay: true,
      timezone: null,
      zoneId,
    }
  }
  const timezone = tzidOf(zoneId)
  return {
    start: valueOf(start, zoneId, false, timezone),
    end: valueOf(end, zoneId, false, timezone),
    allDay: false,
    timezone,
    zoneId,
  }
}

/** An instant as a value of RDATE, EXDATE or RECURRENCE-ID for a series written with these times. */
export function dateValue(times: EventTimes, at: Date): string {
  return valueOf(at, times.zoneId, times.allDay, times.timezone)
}

/** The parameters that go with `dateValue`'s values: `;VALUE=DATE`, `;TZID=Europe/Paris`, or none (UTC). */
export function dateParameters(times: EventTimes): string {
  if (times.allDay) return ';VALUE=DATE'
  return times.timezone ? `;TZID=${times.timezone}` : ''
}
