import { addDays, addMonths, monthStart } from '../calendar/calendarGrid'

export const VIEWS = ['month', 'week', 'list', 'day'] as const
export type View = (typeof VIEWS)[number]

/** The days a view shows around its anchor day; the list shows pages from the anchor on instead. */
export type Period = { first: string; last: string; weeks: string[][] }

/** 0 = Sunday … 6 = Saturday, as `Date.getUTCDay`. */
export function weekStartOf(day: string, weekStart: number): string {
  return addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() - weekStart + 7) % 7))
}

export function periodOf(view: View, day: string, weekStart: number): Period {
  if (view === 'day' || view === 'list') return { first: day, last: day, weeks: [[day]] }
  const first = weekStartOf(view === 'month' ? monthStart(day) : day, weekStart)
  const last =
    view === 'month'
      ? addDays(weekStartOf(addDays(addMonths(day, 1), -1), weekStart), 6)
      : addDays(first, 6)
  const weeks: string[][] = []
  for (let start = first; start <= last; start = addDays(start, 7))
    weeks.push(Array.from({ length: 7 }, (_, index) => addDays(start, index)))
  return { first, last, weeks }
}

/** The anchor day of the previous or next period. */
export function shift(view: View, day: string, direction: 1 | -1): string {
  if (view === 'month') return addMonths(day, direction)
  return addDays(day, (view === 'week' ? 7 : 1) * direction)
}

/** Today on the reader's clock, as `YYYY-MM-DD`. */
export function today(): string {
  const now = new Date()
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
}
