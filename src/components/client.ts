'use client'
/**
 * The admin's client components, named through the package's `./client` export as an installing
 * app's import map resolves them (`cal-events/client#RecurrenceField`).
 */
export { RecurrenceField } from './RecurrenceField'
export { SeriesInfo } from './SeriesInfo'
export { EventCalendar } from './EventCalendar'
export { EventTimeCell } from './EventTimeCell'
export { TimezoneField } from './TimezoneField'
export { ZonedDateField } from './ZonedDateField'
