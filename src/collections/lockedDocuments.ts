import type { Access, CollectionBeforeChangeHook, Payload, Where } from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import { actorOf } from '../calendar/access/collectionAccess'
import type { Actor } from '../calendar/access/roles'

const LOCKS = 'payload-locked-documents'

/** The locks held by the caller. */
function ownLocks(actor: Actor): Where | boolean {
  if (!actor) return false
  return {
    and: [
      { 'user.relationTo': { equals: (actor as { collection?: string }).collection ?? 'users' } },
      { 'user.value': { equals: actor.id } },
    ],
  }
}

/**
 * Who may see and change the admin's document locks (docs/api.md §2.1). Those who edit others'
 * items take over and clear anyone's locks, as the admin offers them to; those who edit items of
 * their own see every lock, so the admin can warn them that an item is being edited, and change
 * only their own; other accounts only their own. Nobody creates one through Payload's REST or
 * GraphQL but administrators: the admin makes its locks without them.
 */
const LOCK_ACCESS: Record<'read' | 'create' | 'update' | 'delete', Access> = {
  read: ({ req }) => capabilities.create(actorOf(req.user)) || ownLocks(actorOf(req.user)),
  create: ({ req }) => capabilities.administer(actorOf(req.user)),
  update: ({ req }) => capabilities.editOthers(actorOf(req.user)) || ownLocks(actorOf(req.user)),
  delete: ({ req }) => capabilities.editOthers(actorOf(req.user)) || ownLocks(actorOf(req.user)),
}

/** A lock written through an API is held by whoever writes it: nobody locks in another's name. */
const heldByWriter: CollectionBeforeChangeHook = ({ data, req }) =>
  req.user ? { ...data, user: { relationTo: req.user.collection, value: req.user.id } } : data

/**
 * Payload keeps the admin's document locks in a collection of its own, open to every signed-in
 * account through its REST and GraphQL: a subscriber could lock an event in an editor's name, so
 * that every Payload REST write of it answered 423, and read which drafts were being edited and by
 * whom. The collection is made as Payload sanitizes the config, after every plugin has run, so its
 * rules are set on the running config, as `guardFieldTypes` sets its checks.
 */
export function guardLockedDocuments(payload: Payload): void {
  const locks = payload.collections[LOCKS as keyof typeof payload.collections]
  if (!locks) return
  locks.config.access = { ...locks.config.access, ...LOCK_ACCESS }
  locks.config.hooks.beforeChange = [...(locks.config.hooks.beforeChange ?? []), heldByWriter]
}
