import { Button } from '@payloadcms/ui'
import type { ComponentProps } from 'react'
import { shiftPeriod } from '../calendar/calendarGrid'
import type { CalendarMove, CalendarQuery } from './calendarQuery'
import { calendarStyles as styles } from './calendarStyles'

const VIEWS = [
  { view: 'month', label: 'Month' },
  { view: 'week', label: 'Week' },
] as const

/** A button of the toolbar: small, secondary unless told otherwise. */
function ToolbarButton(props: ComponentProps<typeof Button>) {
  return <Button buttonStyle="secondary" size="small" margin={false} {...props} />
}

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
  const previous = shiftPeriod(query.view, query.date, -1)
  const next = shiftPeriod(query.view, query.date, 1)
  return (
    <div style={styles.toolbar}>
      <h1 id="calendar-heading" style={styles.title}>
        {heading}
      </h1>
      <ToolbarButton
        id="calendar-previous"
        aria-label="Previous"
        disabled={!previous}
        onClick={() => previous && go({ date: previous })}
      >
        ‹
      </ToolbarButton>
      <ToolbarButton id="calendar-today" onClick={() => go({ date: today })}>
        Today
      </ToolbarButton>
      <ToolbarButton
        id="calendar-next"
        aria-label="Next"
        disabled={!next}
        onClick={() => next && go({ date: next })}
      >
        ›
      </ToolbarButton>
      {VIEWS.map(({ view, label }) => (
        <ToolbarButton
          key={view}
          buttonStyle={query.view === view ? 'primary' : 'secondary'}
          id={`calendar-${view}`}
          onClick={() => go({ view })}
        >
          {label}
        </ToolbarButton>
      ))}
      <ToolbarButton
        buttonStyle="subtle"
        el="anchor"
        url={`${admin}/collections/events`}
        id="calendar-list"
      >
        Events list
      </ToolbarButton>
    </div>
  )
}
