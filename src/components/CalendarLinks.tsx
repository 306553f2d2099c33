import type { Payload } from 'payload'
import { formatAdminURL } from 'payload/shared'
import { CALENDAR_VIEW_PATH } from './calendarQuery'

function calendarUrl(payload: Payload): string {
  return formatAdminURL({ adminRoute: payload.config.routes.admin, path: CALENDAR_VIEW_PATH })
}

/** The calendar in the admin's navigation, under the collections. */
export function CalendarNavLink({ payload }: { payload: Payload }) {
  return (
    <a className="nav__link" id="nav-calendar" href={calendarUrl(payload)}>
      <span className="nav__link-label">Calendar</span>
    </a>
  )
}

/** Above the events list: the same events as a calendar. */
export function CalendarListLink({ payload }: { payload: Payload }) {
  return (
    <p style={{ margin: '0 0 calc(var(--base) * 0.75)' }}>
      <a id="events-calendar-link" href={calendarUrl(payload)}>
        ▦ Calendar view
      </a>
    </p>
  )
}
