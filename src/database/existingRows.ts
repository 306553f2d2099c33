import { sql } from '@payloadcms/db-postgres'
import type { CollectionSlug, PayloadRequest } from 'payload'
import { requestQuery } from './rawQuery'
import { tableNameOf } from './seriesCopy'
import { isStoredId } from './unreadableValues'

/**
 * Which of these ids name a row of their collection, whoever may read it, for several collections in
 * one statement: a write's existence checks (`operations/references.ts`), which Payload's API asks
 * one collection at a time. An id no row can have (past an integer's range) names none.
 */
export async function existingRows(
  req: PayloadRequest,
  asked: { collection: CollectionSlug; ids: number[] }[],
): Promise<Map<string, Set<number>>> {
  const parts = asked
    .map(({ collection, ids }) => ({ collection, ids: ids.filter(isStoredId) }))
    .filter(({ ids }) => ids.length)
    .map(
      ({ collection, ids }) =>
        sql`select ${collection}::text as collection, id from ${sql.identifier(tableNameOf(req.payload, collection))}
          where id = any(${`{${ids.join(',')}}`}::int[])`,
    )
  const found = new Map<string, Set<number>>()
  if (!parts.length) return found
  const rows = await requestQuery<{ collection: string; id: number }>(
    req,
    sql.join(parts, sql` union all `),
  )
  for (const { collection, id } of rows) {
    const ids = found.get(collection) ?? new Set<number>()
    found.set(collection, ids.add(Number(id)))
  }
  return found
}
