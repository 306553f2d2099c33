import type { CollectionBeforeChangeHook } from 'payload'
import { DateTime } from 'luxon'
import { toLuxonZone } from '../../calendar/dates/zone'
import { formatWallClock } from '../../calendar/dates/format'
import { siteSettings } from '../../globals/siteSettings'

/**
 * Keeps an event's start and end both as UTC instants and as wall-clock text in the event's zone
 * (both indexed: lists filter on instants and order by wall clock, as upstream does), and snaps all-day events
 * to 00:00:00–23:59:59 of their days in that zone.
 */
export const deriveEventSchedule: CollectionBeforeChangeHook = async ({ data, req, originalDoc }) => {
  const start = data.start ?? originalDoc?.start
  const end = data.end ?? originalDoc?.end
  if (!start || !end) return data
  const zoneId = (data.timezone ?? originalDoc?.timezone) || (await siteSettings(req)).timezone
  const zone = toLuxonZone(zoneId)
  let startAt = DateTime.fromISO(new Date(start).toISOString(), { zone })
  let endAt = DateTime.fromISO(new Date(end).toISOString(), { zone })
  if (data.allDay ?? originalDoc?.allDay) {
    startAt = startAt.startOf('day')
    endAt = endAt.set({ hour: 23, minute: 59, second: 59, millisecond: 0 })
  }
  data.start = startAt.toUTC().toISO()
  data.end = endAt.toUTC().toISO()
  data.startLocal = formatWallClock(startAt)
  data.endLocal = formatWallClock(endAt)
  return data
}
