import { sql } from '@payloadcms/db-postgres'
import type { SQL } from '../rawQuery'

/**
 * A visitor's list total from the counts kept per day (`calendar_list_days`,
 * src/migrations/calendarSchema/listDays.ts) instead of a count of every match: at a million events a new mix of
 * category, tag and window counted tens of thousands of rows (0.1–1 s of PostgreSQL) and bounded the
 * varied lists to a few a second (docs/performance.md, "Totals by day").
 */

/** What a list's total is made of when the kept counts can give it: one category and one tag at most (0: any), and its window. */
export type DayCountable = { category: number; tag: number; from: string; to: string }

const DAY = 86_400_000

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/**
 * The number of events matching `condition` (on the row `e`), which `days` describes, its values
 * entered by `bind` (`shape` names what its text depends on beyond the condition's), when no event
 * lasts longer than `longest` milliseconds (`total`), and about how many events of every category
 * and tag the window holds (`span`, its whole days). The window splits in three by the events' start:
 * - before the first whole UTC day: counted match by match (less than a day of events);
 * - from it to the day before the window's end less the longest event: read from the kept counts,
 *   since every event that starts there ends within the window;
 * - from there to the window's end: counted match by match, as these may end after the window (with
 *   events of a few hours, two days of them).
 * The days are bound values, which PostgreSQL plans for (a custom plan, kept while a generic one
 * would cost more), so that it sees how few events the two ends hold;
 * `condition` tests their links event by event (`LinkTest` 'probed'), which is how PostgreSQL reads so
 * few anyway, and plans in less time than a join (2.2 ms against 3.1 for a category and a tag). An
 * event that ends within the window starts within it: every writer through Payload checks that an
 * event does not end before it starts (collections/Events.ts).
 */
export function dayCounted(
  condition: SQL,
  days: DayCountable,
  longest: number,
  bind: (value: string | number) => SQL,
): { total: SQL; span: SQL; shape: string } {
  const from = Date.parse(days.from)
  const firstDay = Math.ceil(from / DAY) * DAY
  const tailDay = Math.max(firstDay, Math.floor((Date.parse(days.to) - longest) / DAY) * DAY)
  const kept = (
    category: number,
    tag: number,
  ) => sql`(select coalesce(sum(d.n), 0) from calendar_list_days d
    where d.category = ${bind(category)} and d.tag = ${bind(tag)} and d.day >= ${bind(day(firstDay))}::date and d.day < ${bind(day(tailDay))}::date)`
  // A window from midnight UTC (every date in a site on UTC) has no part day before its first.
  const head =
    firstDay > from
      ? sql`+ (select count(*) from events e where ${condition} and e.start < ${bind(new Date(firstDay).toISOString())}::timestamptz)`
      : sql``
  return {
    total: sql`(select (${kept(days.category, days.tag)}
                    ${head}
                    + (select count(*) from events e
                         where ${condition} and e.start >= ${bind(new Date(tailDay).toISOString())}::timestamptz and e.start <= ${bind(days.to)}::timestamptz))::int)`,
    span: sql`${kept(0, 0)}::int`,
    shape: firstDay > from ? 'part day first' : 'whole days',
  }
}
