import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'
import { requestQuery } from '../rawQuery'
import { TERM_TABLES, type TermCollection } from './termIds'

export type { TermCollection }

/** A term collection's tables, and its parent column as a value (0: the top level; tags have none). */
function tablesOf(collection: TermCollection) {
  const table = TERM_TABLES[collection]
  return {
    table: sql.raw(table),
    locales: sql.raw(`${table}_locales`),
    parent: collection === 'event-categories' ? sql`coalesce(t.parent_id, 0)` : sql`0`,
  }
}

/**
 * The term that has this name, in one of these languages, among the siblings under `parent` (0: the
 * top level; tags are all siblings), other than `self`: names compared case aside and trimmed, as
 * WordPress's `term_exists` compares them (names are stored trimmed: `terms.ts`; `btrim` takes
 * spaces alone, which are one byte in any encoding the database may have), both sides in the
 * database's own collation: the column's ICU collation maps "İ" and a final "Σ" to other letters
 * than the default one does, and "İzmir" never matched itself. The caller holds the
 * names first (`holdInOrder`), so that two writes of one name at once find each other (docs/api.md §8).
 */
export async function sameNamedTerm(
  req: PayloadRequest,
  collection: TermCollection,
  languages: string[],
  name: string,
  parent: number,
  self?: number,
): Promise<number | undefined> {
  const { table, locales } = tablesOf(collection)
  const sibling =
    collection === 'event-categories' ? sql`coalesce(t.parent_id, 0) = ${parent}` : sql`true`
  const [row] = await requestQuery<{ id: number }>(
    req,
    sql`select t.id from ${table} t join ${locales} l on l._parent_id = t.id
      where l._locale::text in (${sql.join(
        languages.map((language) => sql`${language}`),
        sql`, `,
      )})
        and lower(btrim(l.name) collate "default") = lower(${name.trim()}) and ${sibling} and t.id <> ${self ?? 0}
      order by t.id limit 1`,
  )
  return row === undefined ? undefined : Number(row.id)
}

/**
 * These terms' names in `language` (their own: null where it has none) and parents (0: the top
 * level; tags have none), read without Payload's API, whose local calls move the request's language.
 */
export async function namesOfTerms(
  req: PayloadRequest,
  collection: TermCollection,
  ids: number[],
  language: string,
): Promise<{ id: number; name: string | null; parent: number }[]> {
  if (!ids.length) return []
  const { table, locales, parent } = tablesOf(collection)
  const rows = await requestQuery<{ id: number; name: string | null; parent: number }>(
    req,
    sql`select t.id, l.name, ${parent} as parent from ${table} t
      left join ${locales} l on l._parent_id = t.id and l._locale::text = ${language}
      where t.id = any(${`{${ids.join(',')}}`}::int[]) order by t.id`,
  )
  return rows.map((row) => ({ id: Number(row.id), name: row.name, parent: Number(row.parent) }))
}

/** Every name these terms have of their own, language by language: what a move takes along. */
export async function everyNameOfTerms(
  req: PayloadRequest,
  collection: TermCollection,
  ids: number[],
): Promise<{ id: number; language: string; name: string }[]> {
  if (!ids.length) return []
  const { locales } = tablesOf(collection)
  const rows = await requestQuery<{ id: number; language: string; name: string }>(
    req,
    sql`select l._parent_id as id, l._locale::text as language, l.name from ${locales} l
      where l._parent_id = any(${`{${ids.join(',')}}`}::int[]) and btrim(coalesce(l.name, '')) <> ''
      order by l._parent_id, l._locale`,
  )
  return rows.map((row) => ({ ...row, id: Number(row.id) }))
}
