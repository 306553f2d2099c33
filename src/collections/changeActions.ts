import type { CollectionSlug, PayloadRequest } from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import type { Actor } from '../calendar/access/roles'
import { RESOURCES } from '../calendar/resources'
import { everPublic, type ChangeRow } from '../database/changeLog'
import { onPrimary } from '../database/transaction'

export type ChangeAction = 'upsert' | 'delete'

/**
 * Each change as `actor` may see it (docs/api.md §18): an item that no longer exists, is in the trash,
 * or that the actor may not read (an event that left `publish`, for anonymous callers; one a
 * developer's read rule hides from them) is a `delete`. Read with the access of `req`'s user, who is
 * `actor`. One query per kind of item, whatever the number of changes.
 */
export async function changeActions(
  req: PayloadRequest,
  actor: Actor,
  rows: ChangeRow[],
): Promise<(row: ChangeRow) => ChangeAction> {
  const upserts = new Set<string>()
  // The change log is the primary's: a replica behind it would answer a new item as gone, a `delete`.
  await onPrimary(req, async () => {
    for (const resource of RESOURCES) {
      const ids = rows.filter((row) => row.type === resource.singular).map((row) => row.item_id)
      if (!ids.length) continue
      const authored = resource.family === 'authored'
      const { docs } = await req.payload.find({
        collection: resource.collection as CollectionSlug,
        where: { id: { in: ids } },
        select: authored ? { status: true, author: true } : {},
        depth: 0,
        pagination: false,
        overrideAccess: false,
        user: actor,
        req,
      })
      // The read rule let these through; an item in the trash, which those who edit everyone's items read, is gone.
      for (const doc of docs as { id: number; status?: string }[])
        if (!authored || doc.status !== 'trash') upserts.add(`${resource.singular}:${doc.id}`)
    }
  })
  return (row) => (upserts.has(`${row.type}:${row.item_id}`) ? 'upsert' : 'delete')
}

/**
 * The changes `actor` hears of (docs/api.md §18): a `delete` of an event, venue or organizer that was
 * never public would tell of a draft nobody but its editors could read, so only those who edit
 * everyone's items hear of it; everyone hears of every `upsert` (the item is theirs to read) and of
 * every change of a category or tag.
 */
export async function changesHeard(
  req: PayloadRequest,
  actor: Actor,
  rows: ChangeRow[],
  actionOf: (row: ChangeRow) => ChangeAction,
): Promise<ChangeRow[]> {
  if (capabilities.editOthers(actor)) return rows
  const authored = new Set(
    RESOURCES.filter((resource) => resource.family === 'authored').map(
      (resource) => resource.singular as string,
    ),
  )
  const doubtful = rows.filter((row) => authored.has(row.type) && actionOf(row) === 'delete')
  const published = await everPublic(req.payload, doubtful)
  return rows.filter(
    (row) => !doubtful.includes(row) || published.has(`${row.type}:${row.item_id}`),
  )
}
