import { sql } from '@payloadcms/db-postgres'
import { getTableColumns } from '@payloadcms/db-postgres/drizzle'
import type { CollectionSlug, PayloadRequest } from 'payload'
import { requestQuery, type SQL } from './rawQuery'
import { tableNameOf, tableOf } from './seriesCopy'
import { isStoredId } from './unreadableValues'

type Asked = { collection: CollectionSlug; ids: number[] }
type NamedRow = { collection: string; id: number }

/**
 * Rows outside Payload's trash, for a collection an app gave one (`trash`, as the README's example app
 * gives its users): Payload finds no row there, so naming one is naming nothing.
 */
function outsidePayloadTrash(req: PayloadRequest, collection: CollectionSlug, name: string): SQL {
  const table = req.payload.collections[collection]?.config.trash && tableOf(req, name)
  const deletedAt = table ? getTableColumns(table).deletedAt : undefined
  return deletedAt ? sql` and ${sql.identifier(deletedAt.name)} is null` : sql``
}

/**
 * The rows these ids name, for several collections in one statement, whoever may read them; with
 * their status, each held `for share` in order of id (as an update holds them,
 * `collections/hooks/rowLocks.ts`) to the transaction's end, when `held`. An id no row can have (past
 * an integer's range) names none.
 */
async function namedRows<Row extends NamedRow>(
  req: PayloadRequest,
  asked: Asked[],
  held: boolean,
): Promise<Row[]> {
  const parts = asked
    .map(({ collection, ids }) => ({ collection, ids: ids.filter(isStoredId) }))
    .filter(({ ids }) => ids.length)
    .map(({ collection, ids }) => {
      const name = tableNameOf(req.payload, collection)
      const table = sql.identifier(name)
      const named = sql`id = any(${`{${ids.join(',')}}`}::int[])`
      return held
        ? sql`select ${collection}::text as collection, id, status::text from (select id, status from ${table}
            where ${named} order by id for share) held`
        : sql`select ${collection}::text as collection, id from ${table}
            where ${named}${outsidePayloadTrash(req, collection, name)}`
    })
  if (!parts.length) return []
  const rows = await requestQuery<Row>(req, sql.join(parts, sql` union all `))
  return rows.map((row) => ({ ...row, id: Number(row.id) }))
}

/**
 * Which of these ids name a row of their collection, outside Payload's trash: a write's existence
 * checks (`operations/references.ts`), which Payload's API asks one collection at a time.
 */
export async function existingRows(
  req: PayloadRequest,
  asked: Asked[],
): Promise<Map<string, Set<number>>> {
  const found = new Map<string, Set<number>>()
  for (const { collection, id } of await namedRows(req, asked, false))
    found.set(collection, (found.get(collection) ?? new Set<number>()).add(id))
  return found
}

/** A row a write links, with its status as held. */
export type HeldRow = NamedRow & { status: string }

/**
 * The status of each venue or organizer a write newly links, in the write's transaction, each row
 * held to its end: a trash (an update of the row) that comes after waits for this write's commit, and
 * then finds the event it links and unlinks it, as trashing does; one that came before is waited for,
 * and its `trash` read. Read without the hold, a venue trashed between the read and the commit
 * stayed linked.
 */
export function heldRows(req: PayloadRequest, asked: Asked[]): Promise<HeldRow[]> {
  return namedRows<HeldRow>(req, asked, true)
}
