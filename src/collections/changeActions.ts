import type { CollectionSlug, PayloadRequest } from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import type { Actor } from '../calendar/access/roles'
import { RESOURCES } from '../calendar/resources'
import type { ChangeRow } from '../database/changeLog'

export type ChangeAction = 'upsert' | 'delete'

/**
 * Each change as `actor` may see it (docs/api.md §18): an item that no longer exists, is in the trash,
 * or that the actor may not read (an event that left `publish`, for anonymous callers) is a `delete`.
 * One query per kind of item, whatever the number of changes.
 */
export async function changeActions(req: PayloadRequest, actor: Actor, rows: ChangeRow[]): Promise<(row: ChangeRow) => ChangeAction> {
  const upserts = new Set<string>()
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
      overrideAccess: true,
      req,
    })
    for (const doc of docs as { id: number; status?: string; author?: unknown }[]) {
      const readable = !authored || (doc.status !== 'trash' && (doc.status === 'publish' || capabilities.readUnpublished(actor, doc)))
      if (readable) upserts.add(`${resource.singular}:${doc.id}`)
    }
  }
  return (row) => (upserts.has(`${row.type}:${row.item_id}`) ? 'upsert' : 'delete')
}
