import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'
import { requestQuery } from '../rawQuery'
import { isStoredId } from '../unreadableValues'
import type { LinkedKind } from './linkedWithEvents'

/** A venue or organizer a write links, with its status as held. */
export type HeldLink = { kind: LinkedKind; id: number; status: string }

const held = (table: LinkedKind, ids: number[]) =>
  sql`select ${table}::text as kind, id, status::text from (select id, status from ${sql.identifier(table)}
    where id = any(${`{${ids.join(',')}}`}::int[]) order by id for share) ${sql.identifier(table)}`

/**
 * The status of each venue and organizer named, all in one statement in the request's transaction,
 * each row held `for share` to its end: a trash (an update of the row) that comes after waits for
 * this write's commit, and then finds the event it links and unlinks it, as trashing does; one that
 * came before is waited for, and its `trash` read. Read without the hold, a venue trashed between the
 * read and the commit stayed linked. Rows are held in order of id, as an update holds them
 * (`collections/hooks/rowLocks.ts`). An id no row can have is left out: it names nothing to hold.
 */
export async function heldLinks(
  req: PayloadRequest,
  ids: Record<LinkedKind, number[]>,
): Promise<HeldLink[]> {
  const parts = (['venues', 'organizers'] as const)
    .map((kind) => [kind, ids[kind].filter(isStoredId)] as const)
    .filter(([, some]) => some.length)
    .map(([kind, some]) => held(kind, some))
  if (!parts.length) return []
  const rows = await requestQuery<HeldLink>(req, sql.join(parts, sql` union all `))
  return rows.map((row) => ({ ...row, id: Number(row.id) }))
}
