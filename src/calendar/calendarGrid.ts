/**
 * The admin's calendar grids, on wall-clock days (`YYYY-MM-DD`) without luxon, for the browser:
 * which days a month or a week shows, and on which of them an event falls, read from its wall-clock
 * start and end in its own zone, so an event is on the day its venue lives it whatever the reader's zone.
 */

export const CALENDAR_VIEWS = ['month', 'week'] as const
export type CalendarViewKind = (typeof CALENDAR_VIEWS)[number]

export type CalendarPeriod = {
  /** The first and last day shown: whole weeks, Monday to Sunday, but for the calendar's end. */
  first: string
  last: string
  /** Every day shown, in weeks of seven; the week of the calendar's last day stops at it. */
  weeks: string[][]
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const DAY_MS = 86_400_000
/** The last day a day's text can name (`readDay`). */
const LAST_DAY = '9999-12-31'

function dateOf(day: string): Date {
  return new Date(`${day}T00:00:00Z`)
}

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** A real calendar day written `YYYY-MM-DD` (years 1000..9999), or null. */
export function readDay(text: string | null | undefined): string | null {
  if (!text || !DAY.test(text)) return null
  const date = dateOf(text)
  return !Number.isNaN(date.getTime()) && dayOf(date) === text && text >= '1000-01-01' ? text : null
}

export function addDays(day: string, days: number): string {
  return dayOf(new Date(dateOf(day).getTime() + days * DAY_MS))
}

/** The Monday of the day's ISO week. */
export function weekStart(day: string): string {
  return addDays(day, -((dateOf(day).getUTCDay() + 6) % 7))
}

export function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`
}

/** The first day of the month `months` after the day's month. */
export function addMonths(day: string, months: number): string {
  const date = dateOf(monthStart(day))
  date.setUTCMonth(date.getUTCMonth() + months)
  return dayOf(date)
}

/** The last day of the day's month. */
function monthEnd(day: string): string {
  const date = dateOf(monthStart(day))
  date.setUTCMonth(date.getUTCMonth() + 1, 0)
  return dayOf(date)
}

/**
 * The weeks a view shows around a day: the weeks holding any day of its month, or its week. The
 * week of 9999-12-31 stops on that Friday: the days after it have no text (`dayOf` wrote
 * `+010000-01` for them, and the page of December 9999 failed).
 */
export function calendarPeriod(view: CalendarViewKind, day: string): CalendarPeriod {
  const first = weekStart(view === 'month' ? monthStart(day) : day)
  const lastMonday = dateOf(weekStart(view === 'month' ? monthEnd(day) : day)).getTime()
  const end = dateOf(LAST_DAY).getTime()
  const weeks: string[][] = []
  for (let monday = dateOf(first).getTime(); monday <= lastMonday; monday += 7 * DAY_MS) {
    const times = Array.from({ length: 7 }, (_, index) => monday + index * DAY_MS)
    weeks.push(times.filter((time) => time <= end).map((time) => dayOf(new Date(time))))
  }
  return { first, last: weeks.at(-1)!.at(-1)!, weeks }
}

/**
 * The day the previous or next button shows: the first of the adjacent month, or the same weekday
 * a week away; null past the days a calendar's address can name (`readDay`: 1000 to 9999).
 */
export function shiftPeriod(view: CalendarViewKind, day: string, direction: 1 | -1): string | null {
  const shifted = view === 'month' ? addMonths(day, direction) : addDays(day, 7 * direction)
  return readDay(shifted)
}

/**
 * The first and last wall-clock day an event covers, from its start's day to its end's. An end at
 * midnight closes the previous day (22:00 to 00:00 is one evening), unless the event also starts then.
 */
export function daysCovered(
  startLocal: string,
  endLocal: string,
): { first: string; last: string } | null {
  const first = readDay(startLocal.slice(0, 10))
  if (!first) return null
  let last = readDay(endLocal.slice(0, 10))
  if (last && endLocal.slice(11) === '00:00:00' && last > first) last = addDays(last, -1)
  return { first, last: last && last > first ? last : first }
}

/**
 * The namespace's bounds (`ends_after`, `starts_before`) that list every event touching the days
 * `first` to `last` on its own clock. The bounds are days of the site's clock (docs/api.md §4.2),
 * an event's days those of its own zone, up to 26 hours apart: the window reaches two days beyond
 * the period on either side (within the calendar's last day), and `placeEvents` keeps the period's
 * days. Read from the period's edge days alone, an evening in Los Angeles on the 31st of a site in
 * UTC was in neither month.
 */
export function periodBounds(
  first: string,
  last: string,
): { endsAfter: string; startsBefore: string } {
  const after = addDays(last, 2)
  return {
    endsAfter: addDays(first, -3),
    startsBefore: readDay(after) ? after : '9999-12-31',
  }
}

/**
 * The list view's reading, the same for the widget and the `/events/` page, so that page N of one is
 * page N of the other: the events that end on `from` or later (a relative bound snaps to the end of
 * its day, docs/api.md §4.2, so the day before keeps the whole day), each series once, ten a page
 * unless the widget's `per-page` says otherwise.
 */
export function listWindow(from: string, perPage = 10): Record<string, string> {
  return {
    ends_after: addDays(from, -1),
    hide_subsequent_recurrences: '1',
    per_page: String(perPage),
  }
}

export type Placed<T> = {
  event: T
  day: string
  /** Whether the event began on an earlier day. */ continued: boolean
}

/**
 * The period's days, each with the events it holds: all-day events first, then by start, so an
 * event spanning days keeps its place as far as the days allow.
 */
export function placeEvents<
  T extends { startLocal: string; endLocal: string; allDay?: boolean | null },
>(events: T[], period: CalendarPeriod): Map<string, Placed<T>[]> {
  const byDay = new Map<string, Placed<T>[]>(period.weeks.flat().map((day) => [day, []]))
  const ordered = [...events].sort(
    (a, b) =>
      Number(Boolean(b.allDay)) - Number(Boolean(a.allDay)) ||
      a.startLocal.localeCompare(b.startLocal) ||
      a.endLocal.localeCompare(b.endLocal),
  )
  for (const event of ordered) {
    const covered = daysCovered(event.startLocal, event.endLocal)
    if (!covered) continue
    // The days shown, not the event's: an exhibition may run for months, or to the calendar's end.
    for (const [day, placed] of byDay)
      if (day >= covered.first && day <= covered.last)
        placed.push({ event, day, continued: day !== covered.first })
  }
  return byDay
}
