import type { PayloadRequest, SanitizedCollectionConfig, Where } from 'payload'

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
