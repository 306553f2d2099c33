import type { Actor } from './roles'
import { roleOf } from './roles'

/** The statuses an item can have, as upstream's post statuses. */
export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const
export type Status = (typeof STATUSES)[number]

/** Statuses a contributor may still edit or trash: anything not yet public. */
const UNPUBLISHED: readonly Status[] = ['draft', 'pending']

type Owned = { author?: unknown; status?: string | null }

function authorId(item: Owned): string | undefined {
  const { author } = item
  if (author === null || author === undefined) return undefined
  if (typeof author === 'object' && 'id' in author) return String((author as { id: unknown }).id)
  return String(author)
}

function owns(actor: Actor, item: Owned): boolean {
  return Boolean(actor) && authorId(item) === String(actor?.id)
}

/**
 * The capability matrix of events, venues and organizers (docs/api.md §2, docs/api.md §2): the single
 * authority both Payload's collection access and the namespace consult.
 */
export const capabilities = {
  /** May create items at all (contributors only as drafts or pending). */
  create(actor: Actor): boolean {
    return ['administrator', 'editor', 'author', 'contributor'].includes(roleOf(actor))
  },
  /** May give an item a public status (publish, future, private) rather than have it scaled back. */
  publish(actor: Actor): boolean {
    return ['administrator', 'editor', 'author'].includes(roleOf(actor))
  },
  /** Sees and edits every item regardless of author; sees every status (`edit_others_posts`). */
  editOthers(actor: Actor): boolean {
    return ['administrator', 'editor'].includes(roleOf(actor))
  },
  edit(actor: Actor, item: Owned): boolean {
    const role = roleOf(actor)
    if (role === 'administrator' || role === 'editor') return true
    if (role === 'author') return owns(actor, item)
    if (role === 'contributor')
      return owns(actor, item) && UNPUBLISHED.includes(item.status as Status)
    return false
  },
  /** Trash or delete; the same rule as editing, as WordPress's `delete_post` for these roles. */
  delete(actor: Actor, item: Owned): boolean {
    return capabilities.edit(actor, item)
  },
  /** May read an item whatever its status (own items for authors and contributors). */
  readUnpublished(actor: Actor, item: Owned): boolean {
    return (
      capabilities.editOthers(actor) ||
      (['author', 'contributor'].includes(roleOf(actor)) && owns(actor, item))
    )
  },
  /** Categories and tags are managed by editors and administrators only (docs/api.md §6.1). */
  manageTerms(actor: Actor): boolean {
    return capabilities.editOthers(actor)
  },
  /** May attach images by uploading or by URL (`upload_files`). */
  upload(actor: Actor): boolean {
    return capabilities.publish(actor)
  },
  administer(actor: Actor): boolean {
    return roleOf(actor) === 'administrator'
  },
  /**
   * The status an item gets when this actor asks for `requested` (docs/api.md §2 scaling): every
   * publication (public, scheduled or private) by a role that may not publish is held for review.
   */
  scaleStatus(actor: Actor, requested: Status | undefined): Status {
    if (capabilities.publish(actor)) return requested ?? 'publish'
    if (requested === 'publish' || requested === 'future' || requested === 'private')
      return 'pending'
    return requested ?? 'draft'
  },
  unpublishedStatuses: UNPUBLISHED,
}
