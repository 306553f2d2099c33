import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'
import { requestQuery } from '../rawQuery'

/** The table of each term collection. */
export const TERM_TABLES = {
  'event-categories': 'event_categories',
  'event-tags': 'event_tags',
} as const

export type TermCollection = keyof typeof TERM_TABLES

/**
 * Which of these ids name terms of the collection (`found`, in the order given: a write stores an
 * event's terms as its caller lists them), and the ids a filter on them selects (`ids`): those found,
 * or with `subcategories` those and every category below them, at any depth, as WordPress's taxonomy
 * queries read a hierarchical taxonomy. One statement: a recursive query, which Payload's API cannot
 * ask; `union` stops at a cycle. Terms have no drafts, trash or read rule, so the ids are the rows.
 */
export async function termIds(
  req: PayloadRequest,
  collection: TermCollection,
  ids: number[],
  { subcategories }: { subcategories: boolean },
): Promise<{ found: number[]; ids: number[] }> {
  if (!ids.length) return { found: [], ids: [] }
  const given = sql`select g.id, g.n from unnest(${`{${ids.join(',')}}`}::int[]) with ordinality g(id, n)
    where exists (select from ${sql.raw(TERM_TABLES[collection])} t where t.id = g.id)`
  const [row] = await requestQuery<{ found: number[]; tree: number[] | null }>(
    req,
    subcategories
      ? sql`with recursive roots as (${given}),
          tree(id) as (
            select id from (select id from roots order by n) r
            union
            select c.id from event_categories c join tree t on c.parent_id = t.id)
          select array(select id from roots order by n) as found, array(select id from tree) as tree`
      : sql`select array(select id from (${given}) r order by n) as found, null as tree`,
  )
  const found = (row?.found ?? []).map(Number)
  return { found, ids: row?.tree ? row.tree.map(Number) : found }
}
