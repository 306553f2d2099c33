'use client'
import { SetStepNav, useConfig, useLocale, useTranslation } from '@payloadcms/ui'
import { useSearchParams } from 'next/navigation'
import { useMemo } from 'react'
import { calendarPeriod, placeEvents } from '../calendar/calendarGrid'
import { useAdminApi } from './adminApi'
import { CalendarDays } from './CalendarDays'
import { CalendarEventLink } from './CalendarEventLink'
import { CalendarFilters } from './CalendarFilters'
import { calendarChoices } from './calendarChoices'
import {
  calendarSearch,
  readCalendarQuery,
  RECORD_FILTERS,
  type CalendarMove,
} from './calendarQuery'
import { useCalendarEvents, useRecordOptions, type Loaded } from './calendarReads'
import { calendarStyles as styles } from './calendarStyles'
import { CalendarToolbar } from './CalendarToolbar'
import { useWallClockFormat } from './wallClockFormat'

const TIME_FORMAT: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' }
const MONTH_FORMAT: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric' }
const DAY_FORMAT: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' }
const WEEKDAY_FORMAT: Intl.DateTimeFormatOptions = { weekday: 'short' }
const WEEKDAY_DAY_FORMAT: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric' }

/** What the calendar says above the grid: a failed read, a period cut at the limit, the count. */
function CalendarNotes({ loaded }: { loaded: Loaded }) {
  return (
    <>
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
    </>
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
  const { admin } = useAdminApi()
  const language = i18n.language
  const time = useWallClockFormat(language, TIME_FORMAT)
  const month = useWallClockFormat(language, MONTH_FORMAT)
  const days = useWallClockFormat(language, DAY_FORMAT)
  const weekday = useWallClockFormat(language, WEEKDAY_FORMAT)
  const weekdayAndDay = useWallClockFormat(language, WEEKDAY_DAY_FORMAT)
  const options = useRecordOptions(config.collections, locale)
  const loaded = useCalendarEvents(query, locale)
  const choices = calendarChoices(config, language)

  /** Pushes a query to the address; Next hands it to `useSearchParams`, and Payload's locale follows `locale`. */
  const go: CalendarMove = (change, language) => {
    const current = new URLSearchParams(window.location.search)
    if (language) current.set('locale', language)
    window.history.pushState(null, '', `?${calendarSearch({ ...query, ...change }, current)}`)
  }

  const shown = loaded.query
  const period = calendarPeriod(shown.view, shown.date)
  const placed = useMemo(() => placeEvents(loaded.events, period), [loaded])
  const week = calendarPeriod('week', query.date)
  const heading =
    query.view === 'month' ? month.format(query.date) : days.range(week.first, week.last)

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
      <CalendarToolbar heading={heading} query={query} today={today} admin={admin} go={go} />
      <CalendarFilters query={query} locale={locale} options={options} choices={choices} go={go} />
      <CalendarNotes loaded={loaded} />
      <CalendarDays
        shown={shown}
        period={period}
        placed={placed}
        busy={loaded.state === 'loading'}
        today={today}
        weekday={weekday}
        weekdayAndDay={weekdayAndDay}
        go={go}
        eventLink={(entry) => (
          <CalendarEventLink
            key={`${entry.event.id}`}
            entry={entry}
            view={shown.view}
            editUrl={`${admin}/collections/events/${entry.event.id}`}
            seriesTitles={loaded.seriesTitles}
            statusLabel={choices.statusLabel}
            time={time}
            days={days}
          />
        )}
      />
    </div>
  )
}
