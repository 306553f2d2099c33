import { sql } from '@payloadcms/db-postgres'
import type { CollectionSlug } from 'payload'
import { requestQuery } from './rawQuery'
import type { ReadScope } from './readScope'

/** The tables of the collections that have slugs, for the slug lookup below. */
const SLUGGED: Partial<Record<CollectionSlug, string>> = {
  events: 'events',
  venues: 'venues',
  organizers: 'organizers',
}

/**
 * The ids of the records whose slug is `slug`, the request language's first, then English's: one
 * each (a slug is unique in its language; were it stored twice, the lower id). Existence only,
 * whoever may read them (upstream resolves slugs across statuses before checking access). One
 * hand-written query for both languages, which Payload's API would ask one after the other.
 */
export async function idsBySlug(
  scope: ReadScope,
  collection: CollectionSlug,
  slug: string,
): Promise<number[]> {
  const table = SLUGGED[collection]
  if (!table) throw new Error(`no slug lookup for ${collection}`)
  const locales = sql.raw(`${table}_locales`)
  const rows = await requestQuery<{ id: number }>(
    scope.req,
    sql`select id from (select distinct on (_locale) _locale, _parent_id as id from ${locales}
           where slug = ${slug} and _locale in (${scope.language}::_locales, 'en') order by _locale, _parent_id) s
         order by (_locale = ${scope.language}::_locales) desc`,
  )
  return [...new Set(rows.map((row) => Number(row.id)))]
}
