import { sql } from '@payloadcms/db-postgres'
import { requestQuery, type SQL } from '../rawQuery'
import type { ReadScope } from '../readScope'
import type { DateBound } from '../../calendar/dates/resolve'

const COMPARE: Record<DateBound['op'], string> = { gte: '>=', lte: '<=', gt: '>', lt: '<' }

function inWindow(alias: string, bounds: DateBound[]): SQL {
  const conditions = bounds.map(
    ({ field, op, value }) =>
      sql`${sql.raw(`${alias}."${field}"`)} ${sql.raw(COMPARE[op])} ${value}::timestamptz`,
  )
  return sql.join([sql`true`, ...conditions], sql` and `)
}

/**
 * `hide_subsequent_recurrences` (docs/api.md §4.1): the events in the window that an earlier event of
 * their series (the first event and those whose parent it is) precedes in the same window and status.
 * A condition on ids (`EventMatch.excluded`) serves both list paths, the page query and Payload's.
 */
export async function laterOccurrences(scope: ReadScope, bounds: DateBound[]): Promise<number[]> {
  const rows = await requestQuery<{ id: number }>(
    scope.req,
    sql`select e.id from events e
      where ${inWindow('e', bounds)} and exists (
        select 1 from events s
        where coalesce(s.parent_id, s.id) = coalesce(e.parent_id, e.id) and s.id <> e.id and s.status = e.status
          and s.hide_from_listings is not true and ${inWindow('s', bounds)}
          and (s.start_local, s.id) < (e.start_local, e.id))`,
  )
  return rows.map((row) => row.id)
}
