import type { CollectionSlug } from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import { sameSecret } from '../calendar/sameSecret'
import { clearFailures, failuresOf, recordFailure } from '../database/loginThrottle'
import { clientOf } from './client'
import type { Reader } from './reader'
import { Refusal } from './refusal'

type Protected = {
  id: number
  author?: unknown
  status?: string | null
  password?: string | null
  hasPassword?: boolean | null
}

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
  reader: Reader,
  collection: CollectionSlug,
  item: Protected,
  given: { password?: string; context?: string },
  whenThrottled: WhenThrottled,
): Promise<boolean> {
  if (!item.hasPassword) return true
  if (given.context === 'edit' && capabilities.edit(reader.actor, item)) return true
  if (!given.password) return false
  const subject = `password:${clientOf(reader)}|${collection}:${item.id}`
  // One read of the count on the common path (a read path of at most 3 queries, docs/performance.md);
  // unlike sign-in, a burst of concurrent guesses is compared before it is counted, then waits.
  const { failures, wait } = await throttleOf(reader, subject)
  if (wait > 0 && whenThrottled === 'stay locked') return false
  if (wait > 0) {
    const error = new Refusal(
      'rest_too_many_password_attempts',
      `Too many wrong passwords for this item: try again in ${wait} s.`,
      429,
    )
    error.headers['Retry-After'] = String(wait)
    throw error
  }
  const stored =
    item.password ??
    (
      (await reader.req.payload.findByID({
        collection,
        id: item.id,
        depth: 0,
        overrideAccess: true,
        req: reader.req,
        select: { password: true },
      })) as Protected
    ).password
  const matches = sameSecret(given.password, stored)
  if (!matches) await recordFailure(reader.req.payload, subject, FORGET_SECONDS)
  else if (failures) await clearFailures(reader.req.payload, subject)
  return matches
}

/** The client's recent failures with this item's password, and how long it must still wait (s). */
async function throttleOf(
  reader: Reader,
  subject: string,
): Promise<{ failures: number; wait: number }> {
  const seen = await failuresOf(reader.req.payload, subject, FORGET_SECONDS)
  if (!seen || seen.failures < FREE_FAILURES) return { failures: seen?.failures ?? 0, wait: 0 }
  return {
    failures: seen.failures,
    wait: Math.max(
      0,
      Math.ceil(Math.min(LONGEST_WAIT_SECONDS, 2 ** (seen.failures - FREE_FAILURES)) - seen.ago),
    ),
  }
}
