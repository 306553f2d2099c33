import type { ClientCollectionConfig } from 'payload'
import { useEffect, useState } from 'react'
import { calendarPeriod, type CalendarPeriod } from '../calendar/calendarGrid'
import { useAdminApi } from './adminApi'
import { RECORD_FILTERS, type CalendarQuery } from './calendarQuery'

/**
 * The most events one period loads. A month of a busy calendar holds a few hundred; past this the
 * calendar says it shows only the first ones and asks for a filter, rather than loading without end.
 */
export const CALENDAR_EVENT_LIMIT = 1000

/** The most records a filter lists (categories, venues, organizers), by name. */
const OPTION_LIMIT = 1000

export type CalendarEvent = {
  id: number
  title?: string | null
  startLocal: string
  endLocal: string
  allDay?: boolean | null
  timezone?: string | null
  status?: string | null
  parent?: number | null
  recurrence?: string | null
}
type Page<T> = { docs: T[]; totalDocs: number }
export type Option = { value: string; label: string }
export type Loaded = {
  state: 'loading' | 'ready' | 'error'
  /** What the shown events answer; the grid keeps showing them while the next period loads. */
  query: CalendarQuery
  locale: string
  events: CalendarEvent[]
  total: number
  /** First events' titles, by id: the series' names. */
  seriesTitles: Map<number, string>
}
type Get = ReturnType<typeof useAdminApi>['get']

const EVENT_FIELDS = [
  'title',
  'startLocal',
  'endLocal',
  'allDay',
  'timezone',
  'status',
  'parent',
  'recurrence',
]

function selection(fields: string[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [`select[${field}]`, 'true']))
}

/** The language of a read, when the app has languages (an app without localization has no locale code). */
function localeParam(locale: string | undefined): Record<string, string> {
  return locale ? { locale } : {}
}

/** The `where` of the period and the filters, in Payload's bracket syntax: events overlapping the period on their own wall clock. */
function eventWhere(query: CalendarQuery, period: CalendarPeriod): Record<string, string> {
  const conditions: [string, string, string][] = [
    ['startLocal', 'less_than_equal', `${period.last} 23:59:59`],
    ['endLocal', 'greater_than_equal', `${period.first} 00:00:00`],
    // The trash only when asked for: trashed events are not on the calendar.
    query.status ? ['status', 'equals', query.status] : ['status', 'not_equals', 'trash'],
  ]
  for (const filter of RECORD_FILTERS) {
    const value = query[filter.param]
    if (value) conditions.push([filter.field, 'equals', value])
  }
  return Object.fromEntries(
    conditions.map(([field, operator, value], index) => [
      `where[and][${index}][${field}][${operator}]`,
      value,
    ]),
  )
}

async function loadEvents(
  get: Get,
  query: CalendarQuery,
  locale: string | undefined,
): Promise<Omit<Loaded, 'state' | 'query' | 'locale'>> {
  const period = calendarPeriod(query.view, query.date)
  const page = await get<Page<CalendarEvent>>('/events', {
    depth: 0,
    ...localeParam(locale),
    limit: CALENDAR_EVENT_LIMIT,
    sort: 'startLocal',
    ...selection(EVENT_FIELDS),
    ...eventWhere(query, period),
  })
  if (!page) throw new Error('the events could not be read')
  const seriesTitles = new Map<number, string>()
  for (const event of page.docs)
    if (event.recurrence?.trim()) seriesTitles.set(event.id, event.title ?? '')
  const missing = [
    ...new Set(
      page.docs
        .map((event) => event.parent)
        .filter((id): id is number => typeof id === 'number' && !seriesTitles.has(id)),
    ),
  ]
  if (missing.length > 0) {
    const parents = await get<Page<CalendarEvent>>('/events', {
      depth: 0,
      ...localeParam(locale),
      limit: missing.length,
      pagination: 'false',
      'where[id][in]': missing.join(','),
      ...selection(['title']),
    })
    for (const parent of parents?.docs ?? []) seriesTitles.set(parent.id, parent.title ?? '')
  }
  return { events: page.docs, total: page.totalDocs, seriesTitles }
}

/** The events of the query's period in the language, kept on screen while the next ones load. */
export function useCalendarEvents(query: CalendarQuery, locale: string): Loaded {
  const { get } = useAdminApi()
  const [loaded, setLoaded] = useState<Loaded>({
    state: 'loading',
    query,
    locale,
    events: [],
    total: 0,
    seriesTitles: new Map(),
  })
  const requested = JSON.stringify([query, locale])
  useEffect(() => {
    let current = true
    setLoaded((previous) => ({ ...previous, state: 'loading' }))
    loadEvents(get, query, locale)
      .then((found) => current && setLoaded({ state: 'ready', query, locale, ...found }))
      .catch(
        () => current && setLoaded((previous) => ({ ...previous, state: 'error', query, locale })),
      )
    return () => {
      current = false
    }
    // `requested` is the query and the language.
  }, [requested])
  return loaded
}

/** The choices of the record filters, in the chosen language, named by each collection's title field. */
export function useRecordOptions(
  collections: ClientCollectionConfig[],
  locale: string | undefined,
) {
  const { get } = useAdminApi()
  const [options, setOptions] = useState<Partial<Record<string, Option[]>>>({})
  useEffect(() => {
    let current = true
    Promise.all(
      RECORD_FILTERS.map(async ({ collection }) => {
        const titleField =
          collections.find((config) => config.slug === collection)?.admin?.useAsTitle ?? 'id'
        const page = await get<Page<Record<string, unknown> & { id: number }>>(`/${collection}`, {
          depth: 0,
          ...localeParam(locale),
          limit: OPTION_LIMIT,
          sort: titleField,
          ...selection([titleField]),
        })
        const records = page?.docs ?? []
        return [
          collection,
          records.map((record) => ({
            value: String(record.id),
            label: String(record[titleField] ?? record.id),
          })),
        ] as const
      }),
    )
      .then((found) => current && setOptions(Object.fromEntries(found)))
      .catch(() => undefined)
    return () => {
      current = false
    }
    // Names change with the language only.
  }, [locale])
  return options
}
