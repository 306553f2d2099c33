import type { CollectionBeforeChangeHook } from 'payload'
import { scheduleOf } from '../../calendar/dates/schedule'
import { parseZone } from '../../calendar/dates/zone'
import { siteSettings } from '../../globals/siteSettings'

/** Keeps an event's stored dates (`scheduleOf`) in line with its start, end, zone and all-day flag. */
export const deriveEventSchedule: CollectionBeforeChangeHook = async ({
  data,
  req,
  originalDoc,
}) => {
  const start = data.start ?? originalDoc?.start
  const end = data.end ?? originalDoc?.end
  if (!start || !end) return data
  const zone = (data.timezone ?? originalDoc?.timezone) || (await siteSettings(req)).timezone
  // Collection hooks run before the fields' validation: a zone that is none is the field's to refuse.
  if (typeof zone !== 'string' || parseZone(zone) === null) return data
  return Object.assign(
    data,
    scheduleOf(new Date(start), new Date(end), zone, Boolean(data.allDay ?? originalDoc?.allDay)),
  )
}
