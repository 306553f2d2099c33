import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'
import { requestQuery } from '../rawQuery'

/**
 * These categories and every category below them, at any depth. Hand-written: a recursive query,
 * which Payload's API cannot ask; `union` stops at a cycle.
 */
export async function subcategoryTree(req: PayloadRequest, ids: number[]): Promise<number[]> {
  const rows = await requestQuery<{ id: number }>(
    req,
    sql`
    with recursive tree(id) as (
      select unnest(${`{${ids.join(',')}}`}::int[])
      union
      select c.id from event_categories c join tree t on c.parent_id = t.id)
    select id from tree`,
  )
  return rows.map((row) => Number(row.id))
}
