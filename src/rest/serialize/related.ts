// The iCalendar writer's name for these (rest/ical/ imports them from here); they live with the operations that load them.
export { emptyRelated, mergeRelated, type Related } from '../../operations/related'
