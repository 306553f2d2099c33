import type { CollectionBeforeChangeHook } from 'payload'
import { capabilities, type Status } from '../../calendar/access/capabilities'
import { actorOf } from '../../calendar/access/collectionAccess'

/**
 * Authorship and status rules that hold whichever door a write comes through (admin, Payload REST,
 * the namespace): the author is the writer unless an editor says otherwise, and roles that may not
 * publish have `publish`/`future` scaled back to `pending` (docs/api.md §2).
 */
export const enforceAuthorship: CollectionBeforeChangeHook = ({ data, req, operation, originalDoc }) => {
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
