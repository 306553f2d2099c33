import { sql } from '@payloadcms/db-postgres'
import { requestQuery } from '../rawQuery'
import { revisionCacheOf } from '../../calendar/caches'
import type { ReadScope } from '../readScope'

/** Deeper than any real tree; ends the walk should the admin ever have stored a loop. */
const MAX_DEPTH = 32

/**
 * For each of these categories that has a parent, its ancestors' slugs, outermost first, in the
 * request's language with fallback to English: one recursive query for those of a page not yet
 * known at this content revision.
 */
export async function ancestorSlugs(
  scope: ReadScope,
  categories: { id: number; parent?: unknown }[],
): Promise<Map<number, string[]>> {
  const children = categories
    .filter((category) => category.parent !== null && category.parent !== undefined)
    .map((category) => String(category.id))
  const kept = await revisionCacheOf(scope.req.payload, 'revision').getMany(
    scope.revision,
    `category-ancestors:${scope.language}`,
    children,
    (missing) => ancestorsOf(scope, missing),
    [],
  )
  return new Map([...kept].map(([id, chain]) => [Number(id), chain]))
}

async function ancestorsOf(scope: ReadScope, children: string[]): Promise<Map<string, string[]>> {
  const rows = await requestQuery<{ start: number; slug: string | null }>(
    scope.req,
    sql`
    with recursive up (id, start, depth) as (
      select c.parent_id, c.id, 1 from event_categories c where c.id in (${sql.join(
        children.map((id) => sql`${Number(id)}`),
        sql`, `,
      )}) and c.parent_id is not null
      union all
      select c.parent_id, up.start, up.depth + 1 from up join event_categories c on c.id = up.id
       where c.parent_id is not null and up.depth < ${MAX_DEPTH})
    select up.start, coalesce(nullif(l.slug, ''), en.slug) as slug
      from up
      left join event_categories_locales l on l._parent_id = up.id and l._locale = ${scope.language}
      left join event_categories_locales en on en._parent_id = up.id and en._locale = 'en'
     order by up.start, up.depth desc`,
  )
  const ancestors = new Map<string, string[]>()
  for (const row of rows) {
    const start = String(row.start)
    const chain = ancestors.get(start) ?? []
    chain.push(row.slug ?? '')
    ancestors.set(start, chain)
  }
  return ancestors
}
