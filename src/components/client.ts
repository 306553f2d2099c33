'use client'
/**
 * The admin's client components, named through the package's `./client` export as an installing
 * app's import map resolves them (`cal-events/client#RecurrenceField`).
 *
 * The import map names every component in one module, so anything imported here eagerly is loaded
 * by every admin page. Only the list's cell is; the rest, each in a chunk of its own, are loaded by
 * the pages that show them: the event form's fields by its edit view, the calendar (about 40 KB of
 * script) by its own page. Still rendered on the server, so their pages' HTML is the same.
 */
import dynamic from 'next/dynamic'

export { EventTimeCell } from './EventTimeCell'

export const RecurrenceField = dynamic(() =>
  import('./RecurrenceField').then((module) => module.RecurrenceField),
)
export const SeriesInfo = dynamic(() => import('./SeriesInfo').then((module) => module.SeriesInfo))
export const TimezoneField = dynamic(() =>
  import('./TimezoneField').then((module) => module.TimezoneField),
)
export const ZonedDateField = dynamic(() =>
  import('./ZonedDateField').then((module) => module.ZonedDateField),
)
export const EventCalendar = dynamic(() =>
  import('./EventCalendar').then((module) => module.EventCalendar),
)
