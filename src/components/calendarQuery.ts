import { CALENDAR_VIEWS, readDay, type CalendarViewKind } from '../calendar/calendarGrid'

/** The admin calendar's address (under the admin route); the plugin registers the view there. */
export const CALENDAR_VIEW_PATH = '/calendar'

/**
 * The calendar's client part, named through the package's `./client` export: the view renders it
 * through the import map, since a server module that imported it directly would lose its
 * `'use client'` boundary in the package's bundle.
 */
export const EVENT_CALENDAR = 'cal-events/client#EventCalendar'

/** The filters that name a record, by URL parameter: the event field and the collection of its records. */
export const RECORD_FILTERS = [
  { param: 'category', field: 'categories', collection: 'event-categories', label: 'Category' },
  { param: 'venue', field: 'venue', collection: 'venues', label: 'Venue' },
  { param: 'organizer', field: 'organizers', collection: 'organizers', label: 'Organizer' },
] as const
export type RecordFilter = (typeof RECORD_FILTERS)[number]['param']

/**
 * What the calendar shows, as its URL says (`?view=week&date=2027-03-01&category=4&status=draft`),
 * so a period and its filters can be linked. The language is Payload's own `locale` parameter,
 * which the admin's header switches too.
 */
export type CalendarQuery = {
  view: CalendarViewKind
  /** A day of the period shown. */
  date: string
  status: string | null
} & Record<RecordFilter, string | null>

const ID = /^\d+$/

/** The query of a URL; anything unreadable falls back to the month holding today, unfiltered. */
export function readCalendarQuery(
  params: { get(name: string): string | null },
  today: string,
): CalendarQuery {
  const view = params.get('view')
  const id = (name: string) => {
    const value = params.get(name)
    return value && ID.test(value) ? value : null
  }
  return {
    view: CALENDAR_VIEWS.find((known) => known === view) ?? 'month',
    date: readDay(params.get('date')) ?? today,
    status: params.get('status') || null,
    category: id('category'),
    venue: id('venue'),
    organizer: id('organizer'),
  }
}

/** The URL's query for a calendar query, keeping the parameters it does not own (the language). */
export function calendarSearch(query: CalendarQuery, current: URLSearchParams): string {
  const search = new URLSearchParams(current)
  search.set('view', query.view)
  search.set('date', query.date)
  for (const name of ['status', ...RECORD_FILTERS.map((filter) => filter.param)] as const) {
    const value = query[name]
    if (value) search.set(name, value)
    else search.delete(name)
  }
  return search.toString()
}

/** Moves the calendar to a changed query, and to another language when one is given. */
export type CalendarMove = (change: Partial<CalendarQuery>, language?: string) => void
