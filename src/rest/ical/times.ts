import { DateTime } from 'luxon'
import { toLuxonZone } from '../../calendar/dates/zone'
import type { Event } from '../../payload-types'
import { dayValue, utcValue, wallClockValue } from './syntax'
import { tzidOf } from './zones'

/**
 * An event's DTSTART and DTEND. Timed events: instants placed in the
 * event's zone, written on its wall clock with a TZID (or in UTC, `timezone` null). All-day events:
 * their days in their zone, the end exclusive (the day after the last one), as RFC 5545's VALUE=DATE.
 */
export type EventTimes = { start: DateTime; end: DateTime; allDay: boolean; timezone: string | null }

export function eventTimes(event: Pick<Event, 'start' | 'end' | 'allDay'>, zoneId: string): EventTimes {
  const zone = toLuxonZone(zoneId)
  const start = DateTime.fromJSDate(new Date(event.start), { zone })
  const end = DateTime.fromJSDate(new Date(event.end), { zone })
  if (event.allDay) return { start: start.startOf('day'), end: end.startOf('day').plus({ days: 1 }), allDay: true, timezone: null }
  return { start, end, allDay: false, timezone: tzidOf(zoneId) }
}

/** An instant as a value of RDATE, EXDATE or RECURRENCE-ID for a series written with these times. */
export function dateValue(times: EventTimes, zoneId: string, at: Date): string {
  const local = DateTime.fromJSDate(at, { zone: toLuxonZone(zoneId) })
  if (times.allDay) return dayValue(local)
  return times.timezone ? wallClockValue(local) : utcValue(at)
}

/** The parameters that go with `dateValue`'s values: `;VALUE=DATE`, `;TZID=Europe/Paris`, or none (UTC). */
export function dateParameters(times: EventTimes): string {
  if (times.allDay) return ';VALUE=DATE'
  return times.timezone ? `;TZID=${times.timezone}` : ''
}
