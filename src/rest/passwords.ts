import { createHash, timingSafeEqual } from 'node:crypto'
import type { CollectionSlug } from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import type { RestContext } from './context'

/** Compares in constant time: hashing first makes the lengths equal without revealing them. */
export function passwordMatches(given: string | undefined, stored: string | null | undefined): boolean {
  if (!given || !stored) return false
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(given), digest(stored))
}

type Protected = { id: number; author?: unknown; status?: string | null; password?: string | null; hasPassword?: boolean | null }

/**
 * Whether the caller may see a protected item's content (docs/api.md §3.2, docs/api.md §9): the right
 * `password`, or `context=edit` by a user who may edit the item. Unprotected items are always open.
 */
export async function unlocks(ctx: RestContext, collection: CollectionSlug, item: Protected, given: { password?: string; context?: string }): Promise<boolean> {
  if (!item.hasPassword) return true
  if (given.context === 'edit' && capabilities.edit(ctx.actor, item)) return true
  if (!given.password) return false
  const stored =
    item.password ??
    ((await ctx.req.payload.findByID({ collection, id: item.id, depth: 0, overrideAccess: true, req: ctx.req, select: { password: true } })) as Protected)
      .password
  return passwordMatches(given.password, stored)
}
