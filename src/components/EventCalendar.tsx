'use client'
import { Button, SetStepNav, useConfig, useLocale, useTranslation } from '@payloadcms/ui'
import { useSearchParams } from 'next/navigation'
import type { ClientCollectionConfig, ClientField } from 'payload'
import { useEffect, useMemo, useState, type CSSProperties } from 'react'
import {
  calendarPeriod,
  placeEvents,
  shiftPeriod,
  type CalendarPeriod,
  type CalendarViewKind,
  type Placed,
} from '../calendar/calendarGrid'
import { useAdminApi } from './adminApi'
import {
  calendarSearch,
  readCalendarQuery,
  RECORD_FILTERS,
  type CalendarQuery,
} from './calendarQuery'
import { calendarStyles as styles } from './calendarStyles'
import { useWallClockFormat } from './wallClockFormat'

/**
 * The most events one period loads. A month of a busy calendar holds a few hundred; past this the
 * calendar says it shows only the first ones and asks for a filter, rather than loading without end.
 */
export const CALENDAR_EVENT_LIMIT = 1000

/** The most records a filter lists (categories, venues, organizers), by name. */
const OPTION_LIMIT = 1000

type CalendarEvent = {
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
type Option = { value: string; label: string }
type Loaded = {
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
const TIME_FORMAT: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' }
const MONTH_FORMAT: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric' }
const DAY_FORMAT: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' }
const WEEKDAY_FORMAT: Intl.DateTimeFormatOptions = { weekday: 'short' }
const WEEKDAY_DAY_FORMAT: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric' }

function selection(fields: string[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [`select[${field}]`, 'true']))
}

/** The language of a read, when the app has languages (an app without localization has no locale code). */
function localeParam(locale: string | undefined): Record<string, string> {
  return locale ? { locale } : {}
}

/** A label of the client config: a string, or one per interface language. */
function labelText(label: unknown, language: string, fallback: string): string {
  if (typeof label === 'string') return label
  if (label && typeof label === 'object') {
    const translations = label as Record<string, string>
    return translations[language] ?? translations.en ?? fallback
  }
  return fallback
}

/** A named field anywhere in the collection's layout (rows, collapsibles, tabs). */
function findField(fields: ClientField[], name: string): ClientField | undefined {
  for (const field of fields) {
    if ('name' in field && field.name === name) return field
    const nested =
      'fields' in field
        ? field.fields
        : 'tabs' in field
          ? field.tabs.flatMap((tab) => tab.fields)
          : []
    const found = findField(nested, name)
    if (found) return found
  }
  return undefined
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

/** The choices of the record filters, in the chosen language, named by each collection's title field. */
function useRecordOptions(collections: ClientCollectionConfig[], locale: string | undefined) {
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

/** A select of the filters; `all`, when given, is the choice that filters nothing. */
function Filter(props: {
  id: string
  label: string
  value: string | null
  options: Option[]
  all?: string
  onChange: (value: string | null) => void
}) {
  return (
    <label style={styles.filter}>
      {props.label}
      <select
        id={props.id}
        style={styles.select}
        value={props.value ?? ''}
        onChange={(event) => props.onChange(event.target.value || null)}
      >
        {props.all !== undefined && <option value="">{props.all}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  )
}

/**
 * The events of a month or a week as a grid, beside the events list (the admin view at
 * `/admin/calendar`): each event on the days its wall clock covers in its own zone, a series' events
 * marked as such, the period and filters in the URL, a click opening the event.
 */
export function EventCalendar({ today }: { today: string }) {
  const searchParams = useSearchParams()
  const query = readCalendarQuery(searchParams, today)
  const { code: locale } = useLocale()
  const { i18n } = useTranslation()
  const { config } = useConfig()
  const { get, admin } = useAdminApi()
  const language = i18n.language
  const time = useWallClockFormat(language, TIME_FORMAT)
  const month = useWallClockFormat(language, MONTH_FORMAT)
  const days = useWallClockFormat(language, DAY_FORMAT)
  const weekday = useWallClockFormat(language, WEEKDAY_FORMAT)
  const weekdayAndDay = useWallClockFormat(language, WEEKDAY_DAY_FORMAT)
  const options = useRecordOptions(config.collections, locale)
  const [loaded, setLoaded] = useState<Loaded>({
    state: 'loading',
    query,
    locale,
    events: [],
    total: 0,
    seriesTitles: new Map(),
  })

  const events = config.collections.find((collection) => collection.slug === 'events')
  const statusField = events && findField(events.fields, 'status')
  const statuses: Option[] = (
    statusField && 'options' in statusField ? statusField.options : []
  ).map((option) =>
    typeof option === 'string'
      ? { value: option, label: option }
      : { value: option.value, label: labelText(option.label, language, option.value) },
  )
  const statusLabel = (value: string | null | undefined) =>
    statuses.find((status) => status.value === value)?.label ?? value ?? ''
  const languages: Option[] = config.localization
    ? config.localization.locales.map((known) => ({
        value: known.code,
        label: labelText(known.label, language, known.code),
      }))
    : []

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

  /** Pushes a query to the address; Next hands it to `useSearchParams`, and Payload's locale follows `locale`. */
  const go = (change: Partial<CalendarQuery>, language?: string) => {
    const current = new URLSearchParams(window.location.search)
    if (language) current.set('locale', language)
    window.history.pushState(null, '', `?${calendarSearch({ ...query, ...change }, current)}`)
  }

  const shown = loaded.query
  const period = calendarPeriod(shown.view, shown.date)
  const placed = useMemo(() => placeEvents(loaded.events, period), [loaded])
  const heading =
    query.view === 'month'
      ? month.format(query.date)
      : days.range(
          calendarPeriod('week', query.date).first,
          calendarPeriod('week', query.date).last,
        )
  const editUrl = (id: number) => `${admin}/collections/events/${id}`

  const renderEvent = ({ event, continued }: Placed<CalendarEvent>, view: CalendarViewKind) => {
    const seriesId = event.recurrence?.trim() ? event.id : (event.parent ?? undefined)
    const seriesTitle =
      seriesId === undefined ? undefined : loaded.seriesTitles.get(seriesId) || `event ${seriesId}`
    const seriesText =
      seriesId === undefined
        ? undefined
        : seriesId === event.id
          ? 'First event of its series'
          : `Part of the series “${seriesTitle}”`
    const startTime = event.allDay ? '' : time.format(event.startLocal)
    const when = event.allDay
      ? 'All day'
      : `${time.format(event.startLocal)} – ${event.endLocal.slice(0, 10) === event.startLocal.slice(0, 10) ? time.format(event.endLocal) : `${days.format(event.endLocal)} ${time.format(event.endLocal)}`}`
    const style: CSSProperties = {
      ...styles.event,
      ...(view === 'week' ? styles.weekEvent : {}),
      ...(seriesId !== undefined ? styles.series : {}),
      ...(event.status !== 'publish' ? styles.unpublished : {}),
      ...(event.status === 'trash' ? styles.trashed : {}),
    }
    return (
      <a
        key={`${event.id}`}
        href={editUrl(event.id)}
        className="calendar-event"
        style={style}
        data-event-id={event.id}
        data-series={seriesId}
        data-status={event.status ?? undefined}
        title={[
          event.title,
          `${when}${event.timezone ? ` (${event.timezone})` : ''}`,
          statusLabel(event.status),
          seriesText,
        ]
          .filter(Boolean)
          .join('\n')}
      >
        {continued ? (
          <span style={styles.time}>↳</span>
        ) : (
          view === 'month' && startTime && <span style={styles.time}>{startTime}</span>
        )}
        {seriesId !== undefined && (
          <span className="calendar-event__series" style={styles.mark} aria-label={seriesText}>
            ↻
          </span>
        )}
        <span className="calendar-event__title">{event.title || `event ${event.id}`}</span>
        {view === 'week' && (
          <>
            <span style={styles.detail}>
              {when}
              {event.status !== 'publish' ? ` · ${statusLabel(event.status)}` : ''}
            </span>
            {seriesText && (
              <span className="calendar-event__series-name" style={styles.detail}>
                ↻ {seriesText}
              </span>
            )}
          </>
        )}
      </a>
    )
  }

  return (
    <div
      id="event-calendar"
      data-state={loaded.state}
      data-view={shown.view}
      data-first={period.first}
      data-last={period.last}
      data-locale={loaded.locale}
      data-status={shown.status ?? ''}
      {...Object.fromEntries(
        RECORD_FILTERS.map((filter) => [`data-${filter.param}`, shown[filter.param] ?? '']),
      )}
    >
      <SetStepNav
        nav={[{ label: 'Events', url: `${admin}/collections/events` }, { label: 'Calendar' }]}
      />
      <div style={styles.toolbar}>
        <h1 id="calendar-heading" style={styles.title}>
          {heading}
        </h1>
        <Button
          buttonStyle="secondary"
          size="small"
          margin={false}
          id="calendar-previous"
          aria-label="Previous"
          onClick={() => go({ date: shiftPeriod(query.view, query.date, -1) })}
        >
          ‹
        </Button>
        <Button
          buttonStyle="secondary"
          size="small"
          margin={false}
          id="calendar-today"
          onClick={() => go({ date: today })}
        >
          Today
        </Button>
        <Button
          buttonStyle="secondary"
          size="small"
          margin={false}
          id="calendar-next"
          aria-label="Next"
          onClick={() => go({ date: shiftPeriod(query.view, query.date, 1) })}
        >
          ›
        </Button>
        <Button
          buttonStyle={query.view === 'month' ? 'primary' : 'secondary'}
          size="small"
          margin={false}
          id="calendar-month"
          onClick={() => go({ view: 'month' })}
        >
          Month
        </Button>
        <Button
          buttonStyle={query.view === 'week' ? 'primary' : 'secondary'}
          size="small"
          margin={false}
          id="calendar-week"
          onClick={() => go({ view: 'week' })}
        >
          Week
        </Button>
        <Button
          buttonStyle="subtle"
          size="small"
          margin={false}
          el="anchor"
          url={`${admin}/collections/events`}
          id="calendar-list"
        >
          Events list
        </Button>
      </div>
      <div style={styles.filters}>
        {RECORD_FILTERS.map((filter) => (
          <Filter
            key={filter.param}
            id={`calendar-${filter.param}`}
            label={filter.label}
            value={query[filter.param]}
            options={
              options[filter.collection] ??
              (query[filter.param]
                ? [{ value: query[filter.param]!, label: `#${query[filter.param]}` }]
                : [])
            }
            all="All"
            onChange={(value) => go({ [filter.param]: value })}
          />
        ))}
        <Filter
          id="calendar-status"
          label="Status"
          value={query.status}
          options={statuses}
          all="All but the trash"
          onChange={(status) => go({ status })}
        />
        {languages.length > 1 && (
          <Filter
            id="calendar-language"
            label="Language"
            value={locale}
            options={languages}
            onChange={(value) => value && go({}, value)}
          />
        )}
      </div>
      {loaded.state === 'error' && (
        <p style={{ ...styles.note, ...styles.warning }}>
          The events could not be read. Reload the page to try again.
        </p>
      )}
      {loaded.total > loaded.events.length && (
        <p id="calendar-truncated" style={{ ...styles.note, ...styles.warning }}>
          Showing the first {loaded.events.length} of {loaded.total} events of this period: choose a
          filter to see the others.
        </p>
      )}
      <p id="calendar-count" style={styles.note} aria-live="polite">
        {loaded.state === 'loading'
          ? 'Loading…'
          : `${loaded.total} event${loaded.total === 1 ? '' : 's'}`}{' '}
        · times on each event’s own clock · weeks from Monday · ↻ a recurring series
      </p>
      <div
        id="calendar-grid"
        role="grid"
        aria-busy={loaded.state === 'loading'}
        style={styles.grid}
      >
        {period.weeks[0]!.map((day) => (
          <div key={`head-${day}`} role="columnheader" style={styles.weekday}>
            {(shown.view === 'week' ? weekdayAndDay : weekday).format(day)}
          </div>
        ))}
        {period.weeks.flat().map((day) => {
          const outside = shown.view === 'month' && day.slice(0, 7) !== shown.date.slice(0, 7)
          return (
            <div
              key={day}
              role="gridcell"
              className="calendar-day"
              data-day={day}
              style={{
                ...styles.day,
                ...(shown.view === 'week' ? styles.weekDay : {}),
                ...(outside ? styles.otherMonth : {}),
                ...(day === today ? styles.today : {}),
              }}
            >
              {shown.view === 'month' && (
                <button
                  type="button"
                  style={styles.dayNumber}
                  title="Show this week"
                  onClick={() => go({ view: 'week', date: day })}
                >
                  {Number(day.slice(8))}
                </button>
              )}
              {(placed.get(day) ?? []).map((entry) => renderEvent(entry, shown.view))}
            </div>
          )
        })}
      </div>
    </div>
  )
}
