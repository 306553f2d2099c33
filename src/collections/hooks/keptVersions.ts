import { sql } from '@payloadcms/db-postgres'
import type { CollectionAfterChangeHook, CollectionConfig } from 'payload'
import { requestQuery } from '../../database/rawQuery'
import { tableNameOf } from '../../database/seriesCopy'
import { AUTHORED_VERSIONS } from '../fields/authored'

/**
 * The authored versions with Payload's own limit off: `pruneVersions` keeps the same last
 * `maxPerDoc`. Payload counts an item's versions after every save that makes one, a create's
 * included (which can only have one), through a query its adapter builds for each; the hook does
 * it in one statement, on updates alone.
 */
export const PRUNED_VERSIONS = {
  ...AUTHORED_VERSIONS,
  maxPerDoc: 0,
} as const satisfies CollectionConfig['versions']

/**
 * An item's versions beyond its last `AUTHORED_VERSIONS.maxPerDoc` (by `updatedAt`, as Payload
 * orders them), removed with their texts and links in the save's transaction, whichever door saved.
 */
export const pruneVersions: CollectionAfterChangeHook = async ({
  collection,
  doc,
  operation,
  req,
}) => {
  if (operation !== 'update') return doc
  const versions = sql.identifier(tableNameOf(req.payload, collection.slug, true))
  await requestQuery(
    req,
    sql`delete from ${versions} where parent_id = ${doc.id} and updated_at <= (select updated_at from ${versions} where parent_id = ${doc.id} order by updated_at desc offset ${AUTHORED_VERSIONS.maxPerDoc} limit 1)`,
  )
  return doc
}
