'use client'
/**
 * The admin's client components, named through the package's `./client` export as an installing
 * app's import map resolves them (`cal-events/client#RecurrenceField`).
 */
import dynamic from 'next/dynamic'

export { RecurrenceField } from './RecurrenceField'
export { SeriesInfo } from './SeriesInfo'
export { EventTimeCell } from './EventTimeCell'
export { TimezoneField } from './TimezoneField'
export { ZonedDateField } from './ZonedDateField'

/**
 * The calendar view's client part, in a chunk of its own: the import map names every component in
 * one module, so anything imported here eagerly is loaded by every admin page, and the calendar
 * (about 40 KB of script) is shown on one page alone. Still rendered on the server, so its page's HTML
 * is the same.
 */
export const EventCalendar = dynamic(() =>
  import('./EventCalendar').then((module) => module.EventCalendar),
)
