import { sql } from '@payloadcms/db-postgres'
import { getTableColumns } from '@payloadcms/db-postgres/drizzle'
import type { PayloadRequest } from 'payload'
import { requestQuery, type SQL } from './rawQuery'
import { columnsOf, list, tableNameOf, tableOf } from './seriesCopy'

/** A record written in one language, to hold the same values in another where it has none. */
export type LanguageCopy = {
  collection: string
  id: number
  from: string
  to: string
  slug: string
}

/**
 * Copies a record's translation from one language to another, its slug excepted (`slug`, free in
 * that language), in its row and in its versions, in the request's transaction: what Payload would
 * have written had the create been made in both languages at once. A row or version that has the
 * other language already (a copy made with every language) keeps it. The database's statement
 * triggers (revision, change log) see the rows as they see Payload's own.
 */
export async function copyLanguage(req: PayloadRequest, copy: LanguageCopy): Promise<void> {
  const table = tableNameOf(req.payload, copy.collection)
  await copyTranslation(req, `${table}_locales`, 'slug', sql`${copy.id}::integer`, copy)
  const versions = tableNameOf(req.payload, copy.collection, true)
  if (!tableOf(req, versions)) return
  const ofRecord = sql`select id from ${sql.identifier(versions)} where parent_id = ${copy.id}::integer`
  await copyTranslation(
    req,
    `${versions}_locales`,
    'version_slug',
    sql`any(array(${ofRecord}))`,
    copy,
  )
}

async function copyTranslation(
  req: PayloadRequest,
  table: string,
  slug: string,
  parents: SQL,
  copy: LanguageCopy,
): Promise<void> {
  const columns = columnsOf(req, table)
  const copied = columns.filter(({ name }) => !['id', '_locale', '_parent_id', slug].includes(name))
  const localeKey = columns.find(({ name }) => name === '_locale')!.key
  // The language column is an enum: the parameters are cast to its type, which an insert's select does not infer.
  const language = sql.identifier(getTableColumns(tableOf(req, table)!)[localeKey]!.getSQLType())
  await requestQuery(
    req,
    sql`insert into ${sql.identifier(table)} (${list(copied)}, ${sql.identifier(slug)}, _locale, _parent_id)
        select ${list(copied)}, ${copy.slug}, ${copy.to}::text::${language}, _parent_id from ${sql.identifier(table)} source
         where _parent_id = ${parents} and _locale = ${copy.from}::text::${language}
           and not exists (select from ${sql.identifier(table)} kept
                            where kept._parent_id = source._parent_id and kept._locale = ${copy.to}::text::${language})`,
  )
}
