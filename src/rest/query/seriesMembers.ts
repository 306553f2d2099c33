// The iCalendar writer's name for this (rest/ical/series.ts imports it from here); it lives with the operation that reads it.
export type { SeriesMember } from '../../operations/events/seriesMembers'
