import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { revisionCache } from '../../database/revision'
import type { RestContext } from '../context'

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

/**
 * Published events per term for a batch of terms, in one query for those not yet counted at this
 * request's revision (counting over a large `events_rels` is the costly part of a page).
 */
export async function termCounts(ctx: RestContext, categoryIds: number[], tagIds: number[]): Promise<Map<string, number>> {
  const keys = [...new Set([...categoryIds.map((id) => `category:${id}`), ...tagIds.map((id) => `tag:${id}`)])]
  const cache = revisionCache(ctx.req.payload)
  let batch: Promise<Map<string, number>> | undefined
  const missing: string[] = []
  const counts = keys.map((key) =>
    cache.get(ctx.revision, `term-count:${key}`, () => {
      missing.push(key)
      batch ??= Promise.resolve().then(() => countTerms(ctx.req.payload, missing))
      return batch.then((found) => found.get(key) ?? 0)
    }),
  )
  const values = await Promise.all(counts)
  return new Map(keys.map((key, index) => [key, values[index]!]))
}

async function countTerms(payload: Payload, keys: string[]): Promise<Map<string, number>> {
  const db = payload.db as unknown as { drizzle: { execute: (query: unknown) => Promise<{ rows: Row[] }> } }
  const ids = (kind: string) => keys.filter((key) => key.startsWith(`${kind}:`)).map((key) => Number(key.slice(kind.length + 1)))
  const list = (values: number[]) => sql.join((values.length ? values : [0]).map((id) => sql`${id}`), sql`, `)
  const { rows } = await db.drizzle.execute(termCountsSql(list(ids('category')), list(ids('tag'))))
  return new Map(rows.map((row) => [`${row.kind}:${row.id}`, Number(row.count)]))
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
