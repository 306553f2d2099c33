import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'
import { requestQuery } from '../rawQuery'

/**
 * The start of the latest event each series has made, whoever may see it, trashed ones included: how
 * far its rule has been materialized, so that only days up to there can lack an event.
 */
export async function latestMemberStarts(
  req: PayloadRequest,
  parents: number[],
): Promise<Map<number, Date>> {
  if (!parents.length) return new Map()
  const rows = await requestQuery<{ parent: number; latest: Date | string }>(
    req,
    sql`select parent_id as parent, max(start) as latest from events where parent_id = any(${`{${parents.join(',')}}`}::int[]) group by parent_id`,
  )
  return new Map(rows.map((row) => [Number(row.parent), new Date(row.latest)]))
}
