import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'
import { holdName } from '../nameLocks'
import { requestQuery } from '../rawQuery'

const TABLES = { 'event-categories': 'event_categories', 'event-tags': 'event_tags' } as const

export type TermCollection = keyof typeof TABLES

/**
 * The term that has this name, in one of these languages, among the siblings under `parent` (0: the
 * top level; tags are all siblings), other than `self`: names compared case aside and trimmed, as
 * WordPress's `term_exists` compares them. The names are held first (their turn, until the caller's
 * transaction ends), so that two writes of one name at once find each other (docs/api.md §8).
 */
export async function sameNamedTerm(
  req: PayloadRequest,
  collection: TermCollection,
  languages: string[],
  name: string,
  parent: number,
  self?: number,
): Promise<number | undefined> {
  // In one order whatever the write, so that two writes holding two languages' names never wait on each other.
  for (const language of [...new Set(languages)].sort())
    await holdName(req, collection, language, name)
  const table = sql.raw(TABLES[collection])
  const locales = sql.raw(`${TABLES[collection]}_locales`)
  const sibling =
    collection === 'event-categories' ? sql`coalesce(t.parent_id, 0) = ${parent}` : sql`true`
  const [row] = await requestQuery<{ id: number }>(
    req,
    sql`select t.id from ${table} t join ${locales} l on l._parent_id = t.id
      where l._locale::text = any(${`{${languages.join(',')}}`}::text[])
        and lower(btrim(l.name)) = lower(btrim(${name})) and ${sibling} and t.id <> ${self ?? 0}
      order by t.id limit 1`,
  )
  return row === undefined ? undefined : Number(row.id)
}
