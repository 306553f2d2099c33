import type { Where } from 'payload'
import { capabilities } from './capabilities'
import type { Actor } from './roles'

/**
 * Which events, venues and organizers a caller may read (docs/api.md §2): every one (those who edit
 * everyone's items), or the published ones and, for a caller who writes, its own of any status. The
 * one statement of the read rule: Payload's collection access (`visibilityWhere`) and the
 * namespace's hand-written SQL (database/events/visibility.ts) are both made from this value.
 */
export type ReadVisibility = { every: true } | { every: false; ownerId?: number | string }

export function readVisibility(actor: Actor): ReadVisibility {
  if (capabilities.editOthers(actor)) return { every: true }
  return actor && capabilities.create(actor)
    ? { every: false, ownerId: actor.id }
    : { every: false }
}

/** The rule as Payload's read access: `true`, or the `where` of the items it keeps. */
export function visibilityWhere(visibility: ReadVisibility): true | Where {
  if (visibility.every) return true
  const published: Where = { status: { equals: 'publish' } }
  return visibility.ownerId === undefined
    ? published
    : { or: [published, { author: { equals: visibility.ownerId } }] }
}
