import { sql } from '@payloadcms/db-postgres'
import type { CollectionBeforeOperationHook, PayloadRequest } from 'payload'
import { requestQuery } from '../../database/rawQuery'

/**
 * Writes to one series take turns from their start. A write to a series' event goes on to write its
 * other events (the upkeep: a split, a trash, a new rule), each from where it began: two at once took
 * the same rows in opposite orders, and PostgreSQL undid one of them as a deadlock (a split beside a
 * delete of the first event: every time). So each update or delete of an event of a series first
 * takes its series' lock, keyed by the first event's id, held to the end of the transaction; several
 * series are taken in order of their ids. A single event takes none. Re-entrant: the upkeep's own
 * writes, in the same transaction, pass.
 */
export async function lockSeriesOf(req: PayloadRequest, ids: number[]): Promise<void> {
  const known = ids.filter(Number.isSafeInteger)
  if (!known.length) return
  const held = new Set<number>()
  // A series is read before its lock is waited for: a write that held it meanwhile may have moved
  // the events to another (a split), whose lock is then taken too, until nothing moves.
  for (let round = 0; round < 3; round++) {
    const rows = await requestQuery<{ series: number }>(
      req,
      sql`select series, pg_advisory_xact_lock(hashtext('calendar_series'), series) from (select distinct coalesce(parent_id, id) as series from events where id = any(${`{${known.join(',')}}`}::int[]) and (parent_id is not null or recurrence is not null) and coalesce(parent_id, id) <> all(${`{${[...held].join(',')}}`}::int[]) order by 1) locked`,
    )
    if (!rows.length) return
    for (const { series } of rows) held.add(Number(series))
  }
}

/**
 * The series locks keyed by `ids` themselves, in order: an event that takes a parent holds its own
 * key and the parent's while the parent's own parent and its own children are checked, so that two
 * writes making a cycle (A under B beside B under A) or a chain (A under B beside C under A) take
 * turns, and the second is checked against what the first wrote.
 */
export async function lockSeriesKeys(req: PayloadRequest, ids: number[]): Promise<void> {
  const keys = [...new Set(ids.filter(Number.isSafeInteger))].sort((a, b) => a - b)
  if (keys.length)
    await requestQuery(
      req,
      sql`select pg_advisory_xact_lock(hashtext('calendar_series'), key) from unnest(${`{${keys.join(',')}}`}::int[]) with ordinality as held(key, place) order by place`,
    )
}

/**
 * The lock of the series of the event a delete by id reaches, before anything else it does (an
 * update takes it as it takes its turn, `takingTurns(lockSeriesOf)`).
 */
export const lockSeries: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation === 'delete' && 'id' in args && args.id !== undefined)
    await lockSeriesOf(req, [Number(args.id)])
  return args
}
