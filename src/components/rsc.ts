/**
 * The admin's server components, named through the package's `./rsc` export as an installing app's
 * import map resolves them (`cal-events/rsc#CalendarView`).
 */
export { ApiReferenceLink } from './ApiReferenceLink'
export { AutosaveControls } from './AutosaveControls'
export { CalendarListLink, CalendarNavLink } from './CalendarLinks'
export { CalendarView } from './CalendarView'
export { SeoPreview } from './SeoPreview'
