/**
 * Reading a calendar namespace from the browser: this service's `cal/events/v1` or an upstream
 * WordPress site's namespace under `/wp-json/`, whose event objects are the same shape (docs/api.md §3).
 */
import { listWindow, periodBounds } from '../calendar/calendarGrid'
import type { EventJson, TermJson } from '../calendar/wireTypes'

/** An event as the namespace serves it, plus its wall clock as the grid needs it. */
export type CalendarEvent = EventJson & { startLocal: string; endLocal: string; allDay: boolean }

export type EventPage = { events: CalendarEvent[]; total: number; totalPages: number }

/** What the reader filters on: the element's attributes, then the filter bar. */
export type Filters = {
  categories?: string
  tags?: string
  venue?: string
  organizer?: string
  featured?: string
  search?: string
  lang?: string
}

export class ReadError extends Error {}

/** A WordPress site's REST root: everything from `/wp-json/` on is the namespace. */
const UPSTREAM = /\/wp-json\/.*$/

export function trimmedRoot(root: string): string {
  return root.replace(/\/+$/, '')
}

/** Upstream serves no `.ics` routes in its namespace: its site pages do (`?ical=1`). */
export function isUpstream(root: string): boolean {
  return UPSTREAM.test(trimmedRoot(root))
}

export function filterParams(filters: Filters): URLSearchParams {
  const params = new URLSearchParams()
  for (const key of ['categories', 'tags', 'venue', 'organizer', 'featured', 'search'] as const) {
    const value = filters[key]?.trim()
    if (value) params.set(key, value)
  }
  if (filters.lang) params.set('i18n_language', filters.lang)
  return params
}

async function readJson(url: string, signal?: AbortSignal): Promise<unknown> {
  // Anonymous on every site: on this app's own /events/ an editor's cookie would show them drafts
  // among what the public sees (docs/public-face.md).
  const response = await fetch(url, {
    signal,
    credentials: 'omit',
    headers: { Accept: 'application/json' },
  })
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const message =
      body && typeof body === 'object' && 'message' in body
        ? String(body.message)
        : `HTTP ${response.status}`
    throw new ReadError(message)
  }
  return body
}

function withWallClock(event: EventJson): CalendarEvent {
  return {
    ...event,
    startLocal: event.start_date,
    endLocal: event.end_date,
    allDay: Boolean(event.all_day),
  }
}

export async function readEvents(
  root: string,
  params: URLSearchParams,
  signal?: AbortSignal,
): Promise<EventPage> {
  const body = (await readJson(`${trimmedRoot(root)}/events?${params}`, signal)) as {
    events?: EventJson[]
    total?: number
    total_pages?: number
  }
  const events = (body.events ?? []).map(withWallClock)
  return { events, total: body.total ?? events.length, totalPages: body.total_pages ?? 1 }
}

/** Pages a period of the grid may hold: 20 pages of 50 events, past which the widget says it shows the first ones. */
export const PERIOD_PAGES = 20
const PERIOD_PAGE_SIZE = 50

/** What a view reads: the events of `filters` still running on the day `from` or later. */
type Reading = { root: string; filters: Filters; from: string; signal?: AbortSignal }

/**
 * The parameters of a reading: a relative bound, not `start_date`, keeps an event that began before
 * the day and runs into it (docs/api.md §4.2: it snaps to the end of its day), and the namespace's
 * default end (24 months ahead) does not cut a list short.
 */

/** Every event touching the days from the reading's to `last` on its own clock (`periodBounds`). */
export async function readPeriod(reading: Reading, last: string): Promise<EventPage> {
  const params = filterParams(reading.filters)
  const { endsAfter, startsBefore } = periodBounds(reading.from, last)
  params.set('ends_after', endsAfter)
  params.set('starts_before', startsBefore)
  params.set('per_page', String(PERIOD_PAGE_SIZE))
  const read = (page: number) => {
    const paged = new URLSearchParams(params)
    paged.set('page', String(page))
    return readEvents(reading.root, paged, reading.signal)
  }
  // The first page tells how many there are; the others are read side by side.
  const answer = await read(1)
  const rest = await Promise.all(
    Array.from({ length: Math.min(answer.totalPages, PERIOD_PAGES) - 1 }, (_, index) =>
      read(index + 2),
    ),
  )
  const events = [answer, ...rest].flatMap((page) => page.events)
  return { events, total: answer.total, totalPages: answer.totalPages }
}

/** A page of the list: each series once (its first event in the window). */
export function readList(reading: Reading, page: number, perPage: number): Promise<EventPage> {
  const params = filterParams(reading.filters)
  for (const [name, value] of Object.entries(listWindow(reading.from, perPage)))
    params.set(name, value)
  params.set('page', String(page))
  return readEvents(reading.root, params, reading.signal)
}

/** Dates a series' panel lists. */
const SERIES_DATES = 10

/** The later dates of an event's series: from its first event, or from the occurrence shown, without it. */
export async function readSeries(
  root: string,
  event: CalendarEvent,
  lang: string | undefined,
  signal?: AbortSignal,
): Promise<EventPage> {
  const params = filterParams({ lang })
  params.set('post_parent', String(event.post_parent || event.id))
  params.set('start_date', event.start_date.slice(0, 10))
  params.set('per_page', String(SERIES_DATES + 1))
  const page = await readEvents(root, params, signal)
  return {
    ...page,
    events: page.events.filter((other) => other.id !== event.id).slice(0, SERIES_DATES),
  }
}

/** Pages of categories the filter offers: 20 pages of 50, the first thousand by name. */
export const CATEGORY_PAGES = 20

/** The categories that have events, every page of them (the later ones side by side), for the filter. */
export async function readCategories(
  root: string,
  lang: string | undefined,
  signal?: AbortSignal,
): Promise<TermJson[]> {
  const page = async (n: number) => {
    const params = filterParams({ lang })
    params.set('per_page', '50')
    params.set('page', String(n))
    return (await readJson(`${trimmedRoot(root)}/categories?${params}`, signal)) as {
      categories?: TermJson[]
      total_pages?: number
    }
  }
  const first = await page(1)
  const pages = Math.min(first.total_pages ?? 1, CATEGORY_PAGES)
  const later = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, index) => page(index + 2)),
  )
  return [first, ...later].flatMap((body) => body.categories ?? [])
}
