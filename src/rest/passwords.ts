import type { CollectionSlug } from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import { forgiveAttempt, takeAttempt } from '../database/loginThrottle'
import type { RestContext } from './context'
import { RestError } from './http/errors'
import { clientOf } from './rateLimit'
import { sameSecret } from './sameSecret'

type Protected = { id: number; author?: unknown; status?: string | null; password?: string | null; hasPassword?: boolean | null }

/**
 * Wrong passwords for one item from one client (the user, else the address): a few are free, then
 * each further try waits twice as long as the one before, up to a quarter of an hour; failures are
 * forgotten an hour after the last (docs/api.md §9). Counted in PostgreSQL, as failed sign-ins are,
 * so every instance throttles alike.
 */
const FREE_FAILURES = 5
const LONGEST_WAIT_SECONDS = 15 * 60
const FORGET_SECONDS = 60 * 60

/**
 * What a read does with an item whose password the client must wait to try again: a single read
 * refuses with a 429 and `Retry-After`; a list or feed, where the item is one of many, shows it locked.
 * Either way the password given is not compared, so waiting is the only way on.
 */
export type WhenThrottled = 'refuse' | 'stay locked'

/**
 * Whether the caller may see a protected item's content (docs/api.md §3.2, docs/api.md §9): the right
 * `password`, or `context=edit` by a user who may edit the item. Unprotected items are always open.
 */
export async function unlocks(
  ctx: RestContext,
  collection: CollectionSlug,
  item: Protected,
  given: { password?: string; context?: string },
  whenThrottled: WhenThrottled,
): Promise<boolean> {
  if (!item.hasPassword) return true
  if (given.context === 'edit' && capabilities.edit(ctx.actor, item)) return true
  if (!given.password) return false
  const subject = `password:${clientOf(ctx)}|${collection}:${item.id}`
  // The attempt is taken (and counted as a failure) before the comparison, in one locking
  // transaction, so concurrent guesses cannot compare more passwords than the throttle allows.
  const wait = await takeAttempt(ctx.req.payload, { [subject]: { free: FREE_FAILURES, ceiling: LONGEST_WAIT_SECONDS } }, FORGET_SECONDS)
  if (wait > 0 && whenThrottled === 'stay locked') return false
  if (wait > 0) {
    const error = new RestError('rest_too_many_password_attempts', `Too many wrong passwords for this item: try again in ${wait} s.`, 429)
    error.headers['Retry-After'] = String(wait)
    throw error
  }
  const stored =
    item.password ??
    ((await ctx.req.payload.findByID({ collection, id: item.id, depth: 0, overrideAccess: true, req: ctx.req, select: { password: true } })) as Protected)
      .password
  const matches = sameSecret(given.password, stored)
  if (matches) await forgiveAttempt(ctx.req.payload, [subject], [subject])
  return matches
}
