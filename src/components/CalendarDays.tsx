import type { ReactNode } from 'react'
import type { CalendarPeriod, Placed } from '../calendar/calendarGrid'
import type { CalendarMove, CalendarQuery } from './calendarQuery'
import type { CalendarEvent } from './calendarReads'
import { calendarStyles as styles } from './calendarStyles'
import type { useWallClockFormat } from './wallClockFormat'

type WallClockFormat = ReturnType<typeof useWallClockFormat>

/** The grid: a row of weekday names, then a cell per day of the period holding its events. */
export function CalendarDays({
  shown,
  period,
  placed,
  busy,
  today,
  weekday,
  weekdayAndDay,
  go,
  eventLink,
}: {
  shown: CalendarQuery
  period: CalendarPeriod
  placed: Map<string, Placed<CalendarEvent>[]>
  busy: boolean
  today: string
  weekday: WallClockFormat
  weekdayAndDay: WallClockFormat
  go: CalendarMove
  eventLink: (entry: Placed<CalendarEvent>) => ReactNode
}) {
  return (
    <div id="calendar-grid" role="grid" aria-busy={busy} style={styles.grid}>
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
            {(placed.get(day) ?? []).map(eventLink)}
          </div>
        )
      })}
    </div>
  )
}
