import type { CSSProperties } from 'react'
import type { CalendarViewKind, Placed } from '../calendar/calendarGrid'
import type { CalendarEvent } from './calendarReads'
import { calendarStyles as styles } from './calendarStyles'
import type { useWallClockFormat } from './wallClockFormat'

type WallClockFormat = ReturnType<typeof useWallClockFormat>

/** The series an event belongs to (its first event's id), and how the calendar names it. */
function seriesOf(event: CalendarEvent, seriesTitles: Map<number, string>) {
  const seriesId = event.recurrence?.trim() ? event.id : (event.parent ?? undefined)
  const seriesTitle =
    seriesId === undefined ? undefined : seriesTitles.get(seriesId) || `event ${seriesId}`
  const seriesText =
    seriesId === undefined
      ? undefined
      : seriesId === event.id
        ? 'First event of its series'
        : `Part of the series “${seriesTitle}”`
  return { seriesId, seriesText }
}

/** One event on a day of the grid, a link to its edit page, marked and named when part of a series. */
export function CalendarEventLink({
  entry: { event, continued },
  view,
  editUrl,
  seriesTitles,
  statusLabel,
  time,
  days,
}: {
  entry: Placed<CalendarEvent>
  view: CalendarViewKind
  editUrl: string
  seriesTitles: Map<number, string>
  statusLabel: (value: string | null | undefined) => string
  time: WallClockFormat
  days: WallClockFormat
}) {
  const { seriesId, seriesText } = seriesOf(event, seriesTitles)
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
      href={editUrl}
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
