import { sql } from '@payloadcms/db-postgres'
import type { Where } from 'payload'
import { requestQuery, type SQL } from '../rawQuery'
import { revisionCacheOf } from '../../calendar/caches'
import type { ReadScope } from '../readScope'

/**
 * A visitor's list total from the counts kept per day (`calendar_list_days`,
 * src/migrations/calendarSchema/listDays.ts) instead of a count of every match: at a million events a new mix of
 * category, tag and window counted tens of thousands of rows (0.1–1 s of PostgreSQL) and bounded the
 * varied lists to a few a second (docs/performance.md, "Totals by day").
 */

/** What a list's total is made of when the kept counts can give it: one category and one tag at most (0: any), and its window. */
export type DayCountable = { category: number; tag: number; from: string; to: string }

type Leaf = { field: string; operator: string; operand: unknown }

/** The conditions of a `where` that only ands them, or undefined when it has an `or`. */
function leaves(where: Where): Leaf[] | undefined {
  const found: Leaf[] = []
  for (const [key, value] of Object.entries(where)) {
    if (key === 'or') return undefined
    if (key === 'and') {
      if (!Array.isArray(value)) return undefined
      for (const item of value as Where[]) {
        const inner = leaves(item)
        if (!inner) return undefined
        found.push(...inner)
      }
      continue
    }
    if (!value || typeof value !== 'object') return undefined
    for (const [operator, operand] of Object.entries(value)) found.push({ field: key, operator, operand })
  }
  return found
}

const single = (operand: unknown): number | undefined => {
  const value = Array.isArray(operand) && operand.length === 1 ? operand[0] : operand
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined
}

/**
 * Whether the counts kept per day can give the total of the events matching `where` (the list's
 * filters and the caller's read access): exactly what they count (published, listed) within a
 * window from a start to an end, in one category and one tag at most. Anything else (drafts an
 * editor sees, several terms, a search, a venue) is counted match by match.
 */
export function dayCountable(where: Where): DayCountable | undefined {
  const found = leaves(where)
  if (!found) return undefined
  const kept: Partial<DayCountable> & { published?: boolean; listed?: boolean } = {}
  const once = <K extends keyof DayCountable>(key: K, value: DayCountable[K] | undefined) => {
    if (value === undefined || kept[key] !== undefined) return false
    kept[key] = value
    return true
  }
  for (const { field, operator, operand } of found) {
    const known =
      (field === 'status' && operator === 'equals' && operand === 'publish' && (kept.published = true)) ||
      (field === 'hideFromListings' && operator === 'not_equals' && operand === true && (kept.listed = true)) ||
      (field === 'start' && operator === 'greater_than_equal' && typeof operand === 'string' && once('from', operand)) ||
      (field === 'end' && operator === 'less_than_equal' && typeof operand === 'string' && once('to', operand)) ||
      // The local start's bounds that go with `start` and `end` never change which events match (eventList.ts).
      (field === 'startLocal' && (operator === 'greater_than_equal' || operator === 'less_than_equal')) ||
      (field === 'categories' && (operator === 'in' || operator === 'equals') && once('category', single(operand))) ||
      (field === 'tags' && (operator === 'in' || operator === 'equals') && once('tag', single(operand)))
    if (!known) return undefined
  }
  if (!kept.published || !kept.listed || kept.from === undefined || kept.to === undefined) return undefined
  return { category: kept.category ?? 0, tag: kept.tag ?? 0, from: kept.from, to: kept.to }
}

const DAY = 86_400_000

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** How long the longest event lasts, in milliseconds (an index's last entry), once per content revision. */
export function longestEvent(scope: ReadScope): Promise<number> {
  return revisionCacheOf(scope.req.payload, 'revision').get(scope.revision, 'longest-event', async () => {
    const [row] = await requestQuery<{ ms: number | null }>(scope.req, sql`select extract(epoch from max("end" - start)) * 1000 as ms from events`)
    return Math.max(0, Number(row?.ms ?? 0))
  })
}

/**
 * The number of events matching `condition` (on the row `e`), which `days` describes, when no event
 * lasts longer than `longest` milliseconds (`total`), and about how many events of every category
 * and tag the window holds (`span`, its whole days). The window splits in three by the events' start:
 * - before the first whole UTC day: counted match by match (less than a day of events);
 * - from it to the day before the window's end less the longest event: read from the kept counts,
 *   since every event that starts there ends within the window;
 * - from there to the window's end: counted match by match, as these may end after the window (with
 *   events of a few hours, two days of them).
 * The days are constants of the query, so that PostgreSQL sees how few events the two ends hold;
 * `condition` tests their links event by event (`LinkTest` 'probed'), which is how PostgreSQL reads so
 * few anyway, and plans in less time than a join (2.2 ms against 3.1 for a category and a tag). An
 * event that ends within the window starts within it: every writer through Payload checks that an
 * event does not end before it starts (collections/Events.ts).
 */
export function dayCounted(condition: SQL, days: DayCountable, longest: number): { total: SQL; span: SQL } {
  const from = Date.parse(days.from)
  const firstDay = Math.ceil(from / DAY) * DAY
  const tailDay = Math.max(firstDay, Math.floor((Date.parse(days.to) - longest) / DAY) * DAY)
  const kept = (category: number, tag: number) => sql`(select coalesce(sum(d.n), 0) from calendar_list_days d
    where d.category = ${category} and d.tag = ${tag} and d.day >= ${day(firstDay)}::date and d.day < ${day(tailDay)}::date)`
  // A window from midnight UTC (every date in a site on UTC) has no part day before its first.
  const head =
    firstDay > from ? sql`+ (select count(*) from events e where ${condition} and e.start < ${new Date(firstDay).toISOString()}::timestamptz)` : sql``
  return {
    total: sql`(select (${kept(days.category, days.tag)}
                    ${head}
                    + (select count(*) from events e
                         where ${condition} and e.start >= ${new Date(tailDay).toISOString()}::timestamptz and e.start <= ${days.to}::timestamptz))::int)`,
    span: sql`${kept(0, 0)}::int`,
  }
}
