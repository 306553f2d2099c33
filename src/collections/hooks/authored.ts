import {
  Forbidden,
  type CollectionBeforeChangeHook,
  type CollectionBeforeOperationHook,
  type CollectionSlug,
} from 'payload'
import { capabilities, type Status } from '../../calendar/access/capabilities'
import { actorOf } from '../../calendar/access/collectionAccess'

/**
 * Authorship and status rules that hold whichever door a write comes through (admin, Payload REST,
 * the namespace): the author is the writer unless an editor says otherwise, and roles that may not
 * publish have `publish`/`future`/`private` scaled back to `pending` (docs/api.md §2).
 */
export const enforceAuthorship: CollectionBeforeChangeHook = ({
  data,
  req,
  operation,
  originalDoc,
}) => {
  const actor = actorOf(req.user)
  if (operation === 'create') {
    data.publishedAt ??= new Date().toISOString()
    if (actor && (!data.author || !capabilities.editOthers(actor))) data.author = actor.id
  } else if (actor && !capabilities.editOthers(actor) && 'author' in data) {
    data.author = originalDoc?.author
  }
  if (actor && data.status && data.status !== originalDoc?.status) {
    data.status = capabilities.scaleStatus(actor, data.status as Status)
  }
  return data
}

/**
 * A copy belongs to whoever makes it, who then reads all of it: its password, its protected content
 * and, since Payload copies the latest version, the original's autosaved edits. So only those who
 * may edit the original, and could read all that already, may duplicate it (docs/api.md §21),
 * through every door that duplicates (Payload's REST and GraphQL, the admin).
 */
export const guardDuplicates: CollectionBeforeOperationHook = async ({
  args,
  operation,
  req,
  collection,
}) => {
  const { duplicateFromID, overrideAccess } = args as {
    duplicateFromID?: number | string
    overrideAccess?: boolean
  }
  if (
    operation !== 'create' ||
    duplicateFromID === undefined ||
    duplicateFromID === null ||
    overrideAccess
  )
    return args
  const original = await req.payload.findByID({
    collection: collection.slug as CollectionSlug,
    id: duplicateFromID,
    depth: 0,
    overrideAccess: true,
    disableErrors: true,
    select: { status: true, author: true },
    req,
  })
  // An unknown id is left to Payload's own 404.
  if (
    original &&
    !capabilities.edit(actorOf(req.user), original as { status?: string; author?: unknown })
  )
    throw new Forbidden(req.t)
  return args
}

/**
 * A restore writes an old version back and answers with it: only those who read versions, the
 * editors and administrators (docs/api.md §21), restore one, through every door. Payload asks only
 * whether the caller may update the item, so an author restored, and so read, versions of their
 * items that they may not list.
 */
export const guardRestores: CollectionBeforeOperationHook = ({ args, operation, req }) => {
  if (operation !== 'restoreVersion' || (args as { overrideAccess?: boolean }).overrideAccess)
    return args
  if (!capabilities.editOthers(actorOf(req.user))) throw new Forbidden(req.t)
  return args
}
