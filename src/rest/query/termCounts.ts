import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'

/** A fragment of SQL, as drizzle's `sql` template builds it. */
export type SQL = ReturnType<typeof sql>

type Row = { kind: 'category' | 'tag'; id: number; count: string | number }

/**
 * Published events per category and tag, as rows `(kind, id, count)`, for the terms the two
 * subqueries or id lists name. Hand-written because Payload has no grouped count over a relationship;
 * it reads the `events_rels` table Payload owns.
 */
export function termCountsSql(categories: SQL, tags: SQL): SQL {
  return sql`
    select 'category' as kind, r.event_categories_id as id, count(distinct r.parent_id) as count
      from events_rels r join events e on e.id = r.parent_id
     where e.status = 'publish' and r.path = 'categories' and r.event_categories_id in (${categories})
     group by r.event_categories_id
    union all
    select 'tag' as kind, r.event_tags_id as id, count(distinct r.parent_id) as count
      from events_rels r join events e on e.id = r.parent_id
     where e.status = 'publish' and r.path = 'tags' and r.event_tags_id in (${tags})
     group by r.event_tags_id`
}

/** `termCountsSql` for a batch of terms, in one query. */
export async function termCounts(payload: Payload, categoryIds: number[], tagIds: number[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  if (!categoryIds.length && !tagIds.length) return counts
  const db = payload.db as unknown as { drizzle: { execute: (query: unknown) => Promise<{ rows: Row[] }> } }
  const list = (ids: number[]) => sql.join((ids.length ? ids : [0]).map((id) => sql`${id}`), sql`, `)
  const { rows } = await db.drizzle.execute(termCountsSql(list(categoryIds), list(tagIds)))
  for (const row of rows) counts.set(`${row.kind}:${row.id}`, Number(row.count))
  return counts
}

/** Ids of the categories or tags that at least one published event uses (`hide_empty`). */
export async function termsInUse(payload: Payload, kind: 'category' | 'tag'): Promise<number[]> {
  const db = payload.db as unknown as { drizzle: { execute: (query: unknown) => Promise<{ rows: { id: number }[] }> } }
  const column = kind === 'category' ? sql`r.event_categories_id` : sql`r.event_tags_id`
  const path = kind === 'category' ? 'categories' : 'tags'
  const { rows } = await db.drizzle.execute(sql`
    select distinct ${column} as id from events_rels r join events e on e.id = r.parent_id
     where e.status = 'publish' and r.path = ${path} and ${column} is not null`)
  return rows.map((row) => Number(row.id))
}
