import { sql } from '@payloadcms/db-postgres'
import { rawQuery } from '../../database/rawQuery'
import { revisionCache } from '../../database/revision'
import type { RestContext } from '../context'

/**
 * Category or tag ids from entries that are ids or slugs (docs/api.md §4.1): returns the ids and the
 * entries that name no term, in two queries at most (ids and slugs in the request language, then
 * slugs in English), once per content revision (whoever asks: terms are read without access rules).
 */
export function resolveTermEntries(
  ctx: RestContext,
  collection: 'event-categories' | 'event-tags',
  entries: string[],
): Promise<{ ids: number[]; unknown: string[] }> {
  return revisionCache(ctx.req.payload).get(ctx.revision, `term-entries:${collection}:${ctx.language}:${JSON.stringify(entries)}`, () =>
    lookUpTermEntries(ctx, collection, entries),
  )
}

async function lookUpTermEntries(
  ctx: RestContext,
  collection: 'event-categories' | 'event-tags',
  entries: string[],
): Promise<{ ids: number[]; unknown: string[] }> {
  // Ids are PostgreSQL integers: a larger number names no term (and must not reach the query).
  const numeric = entries
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((id) => id <= 2_147_483_647)
  const ids = new Set<number>()
  const slugs = new Map<string, number>()
  for (const locale of new Set([ctx.language, 'en'] as const)) {
    const wanted = entries.filter((entry) => !/^\d+$/.test(entry) && !slugs.has(entry))
    const { docs } = await ctx.req.payload.find({
      collection,
      req: ctx.req,
      locale,
      depth: 0,
      pagination: false,
      select: { slug: true },
      where: { or: [{ id: { in: numeric.length ? numeric : [0] } }, { slug: { in: wanted.length ? wanted : [''] } }] },
    })
    for (const doc of docs) {
      if (numeric.includes(doc.id)) ids.add(doc.id)
      if (doc.slug && wanted.includes(doc.slug)) slugs.set(doc.slug, doc.id)
    }
    if (entries.every((entry) => ids.has(Number(entry)) || slugs.has(entry))) break
  }
  for (const id of slugs.values()) ids.add(id)
  const unknown = entries.filter((entry) => !ids.has(Number(entry)) && !slugs.has(entry))
  return { ids: [...ids], unknown }
}

/**
 * The categories and every category below them, at any depth: a category filter lists the events
 * filed under its subcategories too, as WordPress's taxonomy queries do for hierarchical taxonomies.
 * Hand-written: a recursive query, which Payload's API cannot ask; `union` stops at a cycle. Once
 * per content revision.
 */
export async function withSubcategories(ctx: RestContext, ids: number[]): Promise<number[]> {
  if (!ids.length) return ids
  return revisionCache(ctx.req.payload).get(ctx.revision, `subcategories:${[...ids].sort((a, b) => a - b).join(',')}`, () => categoryTree(ctx, ids))
}

async function categoryTree(ctx: RestContext, ids: number[]): Promise<number[]> {
  const rows = await rawQuery<{ id: number }>(
    ctx.req.payload,
    sql`
    with recursive tree(id) as (
      select unnest(${`{${ids.join(',')}}`}::int[])
      union
      select c.id from event_categories c join tree t on c.parent_id = t.id)
    select id from tree`,
  )
  return rows.map((row) => Number(row.id))
}
