import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { rawQuery } from './rawQuery'

/** One item's latest change: the feed keeps one row per item, moved to the end of the log by each write. */
export type ChangeRow = { seq: string; type: string; item_id: number; modified_utc: string }

/** The log's last sequence number: `since=now`. */
export async function lastChange(payload: Payload): Promise<string> {
  const rows = await rawQuery<{ seq: string | null }>(
    payload,
    sql`select max(seq)::text as seq from calendar_changes`,
  )
  return rows[0]?.seq ?? '0'
}

/**
 * Whether `seq` lies past every number the log has given out: a cursor no answer can have handed
 * out (tampered, or from a database restored to an earlier state). The sequence, not the table's
 * highest number, is the log's end: pruning may have emptied the table, and every instance shares it.
 */
export async function pastTheEnd(payload: Payload, seq: string): Promise<boolean> {
  const rows = await rawQuery<{ past: boolean }>(
    payload,
    sql`select ${seq}::bigint > case when is_called then last_value else 0 end as past from calendar_changes_seq`,
  )
  return rows[0]?.past ?? false
}

/** Up to `limit` items changed after `after`, in the order of their latest change; only of `types` when given. */
export async function changesAfter(
  payload: Payload,
  after: string,
  limit: number,
  types?: string[],
): Promise<ChangeRow[]> {
  const ofTypes = types?.length
    ? sql`and c.type in (${sql.join(
        types.map((type) => sql`${type}`),
        sql`, `,
      )})`
    : sql``
  return rawQuery<ChangeRow>(
    payload,
    sql`select c.seq::text as seq, c.type, c.item_id, to_char(c.modified_utc at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as modified_utc
          from calendar_changes c where c.seq > ${after}::bigint ${ofTypes} order by c.seq limit ${limit}`,
  )
}

/** Which of `rows` name an item that was public at some time (`type:id`). */
export async function everPublic(payload: Payload, rows: ChangeRow[]): Promise<Set<string>> {
  if (!rows.length) return new Set()
  const found = await rawQuery<{ type: string; item_id: number }>(
    payload,
    sql`select p.type, p.item_id from calendar_public_items p
          join unnest(${`{${rows.map((row) => `"${row.type}"`).join(',')}}`}::text[], ${`{${rows.map((row) => row.item_id).join(',')}}`}::int[]) as k(type, item_id)
            on p.type = k.type and p.item_id = k.item_id`,
  )
  return new Set(found.map((row) => `${row.type}:${row.item_id}`))
}

/** Forgets changes older than the retention; the feed answers cursors that old with a 410. */
export async function pruneChanges(payload: Payload, retentionDays: number): Promise<number> {
  const rows = await rawQuery<{ pruned: number }>(
    payload,
    sql`with gone as (delete from calendar_changes where modified_utc < now() - make_interval(days => ${retentionDays}) returning 1)
        select count(*)::integer as pruned from gone`,
  )
  return rows[0]?.pruned ?? 0
}
