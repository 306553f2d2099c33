import type { CollectionSlug, PayloadRequest, SanitizedCollectionConfig, Where } from 'payload'

/**
 * What a bulk update or delete may reach, before Payload checks its access: the request's `where`
 * within the caller's access (`false` when they may write none). Hooks that prepare such a write
 * (its series, its turns) run before that check, and with the request's `where` alone an anonymous
 * bulk update read and held every row it named before its 403.
 */
export async function reachableWhere(
  collection: SanitizedCollectionConfig,
  operation: 'update' | 'delete',
  req: PayloadRequest,
  args: { where?: Where; overrideAccess?: boolean },
): Promise<Where | false> {
  const access = args.overrideAccess
    ? true
    : await collection.access[operation]?.({ req, collectionConfig: collection })
  // Payload takes any falsy answer (`null`, `undefined`) for no access, and an object for a `where`.
  if (!access) return false
  const where = args.where ?? {}
  return typeof access === 'object' ? { and: [where, access] } : where
}

/**
 * Whether the request's caller may update item `id` of `collection`, by the collection's own update
 * rule (a developer's included), in the trash too: for what Payload asks only of the item a write
 * names, not of the one it links to (a series' parent, the item an admin lock holds).
 */
export async function mayUpdate(
  req: PayloadRequest,
  collection: CollectionSlug,
  id: number | string,
): Promise<boolean> {
  const config = req.payload.collections[collection]?.config
  if (!config) return false
  const where = await reachableWhere(config, 'update', req, { where: { id: { equals: id } } })
  if (!where) return false
  const { totalDocs } = await req.payload.count({
    collection,
    where,
    overrideAccess: true,
    trash: Boolean(config.trash),
    req,
  })
  return totalDocs > 0
}
