import {
  createLocalReq,
  Forbidden,
  type Access,
  type CollectionBeforeChangeHook,
  type CollectionSlug,
  type Payload,
  type PayloadRequest,
  type Where,
} from 'payload'
import { mayUpdate } from './hooks/reach'
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

type LockTarget = {
  document?: { relationTo?: string; value?: number | string | { id?: number | string } } | null
  globalSlug?: string | null
}

/**
 * A lock is taken only on an item its holder may edit, and stays on the item it was taken on: the
 * admin's form state locks whatever item it is named (asking only whether the caller opens the
 * admin), and a lock's holder could move it onto any item, so a contributor held an editor's
 * event, or the settings, so that every Payload REST write of it answered 423 to all.
 */
const lockOnEditable: CollectionBeforeChangeHook = async ({
  data,
  operation,
  originalDoc,
  req,
}) => {
  if (!req.user) return data
  if (operation === 'update' && originalDoc) {
    const { document, globalSlug } = originalDoc as LockTarget
    return { ...data, document, globalSlug }
  }
  if (!(await mayEdit(req, data as LockTarget))) throw new Forbidden(req.t)
  return data
}

/**
 * The admin's form-state server function as it may run for its caller: Payload locks the item it is
 * named whenever it is asked for the lock's status, through its database adapter, past every hook.
 * For an item the caller may not edit it is not asked (the admin then shows no lock, as for an item
 * nobody edits), so the caller takes no lock on it.
 */
export async function formStateForCaller(
  payload: Payload,
  user: PayloadRequest['user'],
  call: { name?: unknown; args?: unknown },
): Promise<{ name?: unknown; args?: unknown }> {
  const args = call.args as
    | {
        returnLockStatus?: boolean
        collectionSlug?: string
        globalSlug?: string
        id?: number | string
      }
    | undefined
  if (call.name !== 'form-state' || !args?.returnLockStatus || !user) return call
  const req = await createLocalReq({ user }, payload)
  const target: LockTarget = args.globalSlug
    ? { globalSlug: args.globalSlug }
    : { document: { relationTo: args.collectionSlug, value: args.id } }
  if (await mayEdit(req, target)) return call
  return { ...call, args: { ...args, returnLockStatus: false, updateLastEdited: false } }
}

async function mayEdit(
  req: PayloadRequest,
  { document, globalSlug }: LockTarget,
): Promise<boolean> {
  if (globalSlug) {
    const global = req.payload.config.globals.find((config) => config.slug === globalSlug)
    return Boolean(global && (await global.access.update?.({ req })))
  }
  const value = document?.value
  const id = typeof value === 'object' ? value?.id : value
  if (!document?.relationTo || id === undefined) return false
  return mayUpdate(req, document.relationTo as CollectionSlug, id)
}

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
  locks.config.hooks.beforeChange = [
    ...(locks.config.hooks.beforeChange ?? []),
    heldByWriter,
    lockOnEditable,
  ]
}
