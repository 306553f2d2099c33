import { Button } from '@payloadcms/ui'
import { shiftPeriod } from '../calendar/calendarGrid'
import type { CalendarMove, CalendarQuery } from './calendarQuery'
import { calendarStyles as styles } from './calendarStyles'

/** The period's heading, the buttons that move through periods and switch views, and the list's link. */
export function CalendarToolbar({
  heading,
  query,
  today,
  admin,
  go,
}: {
  heading: string
  query: CalendarQuery
  today: string
  admin: string
  go: CalendarMove
}) {
  return (
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
  )
}
