import type { Access, FieldAccess, Where } from 'payload'
import type { Actor } from './roles'
import { capabilities } from './capabilities'

const actorOf = (user: unknown): Actor => user as Actor

/**
 * Payload collection access for authored content (events, venues, organizers): the capability
 * matrix expressed as `where` constraints, so Payload's REST API, GraphQL and admin obey the same
 * rules as the namespace.
 */
export const authoredContentAccess: {
  read: Access
  create: Access
  update: Access
  delete: Access
} = {
  read: ({ req }) => {
    const actor = actorOf(req.user)
    if (capabilities.editOthers(actor)) return true
    const published: Where = { status: { equals: 'publish' } }
    if (actor && capabilities.create(actor)) return { or: [published, { author: { equals: actor.id } }] }
    return published
  },
  create: ({ req }) => capabilities.create(actorOf(req.user)),
  update: ({ req }) => editableWhere(actorOf(req.user)),
  delete: ({ req }) => editableWhere(actorOf(req.user)),
}

function editableWhere(actor: Actor): boolean | Where {
  if (capabilities.editOthers(actor)) return true
  if (!actor || !capabilities.create(actor)) return false
  const own: Where = { author: { equals: actor.id } }
  if (capabilities.publish(actor)) return own
  return { and: [own, { status: { in: [...capabilities.unpublishedStatuses] } }] }
}

/**
 * Field access for the content of password-protected items: readers who may not edit the item see
 * its name and dates but none of its content (contract §5, §7).
 */
export const protectedContentRead: FieldAccess = ({ req, doc }) => {
  if (!doc || !doc.password) return true
  return capabilities.edit(actorOf(req.user), doc)
}

/** The password itself is visible only to those who may edit the item. */
export const passwordRead: FieldAccess = ({ req, doc }) => (doc ? capabilities.edit(actorOf(req.user), doc) : false)

export const termAccess: { read: Access; create: Access; update: Access; delete: Access } = {
  read: () => true,
  create: ({ req }) => capabilities.manageTerms(actorOf(req.user)),
  update: ({ req }) => capabilities.manageTerms(actorOf(req.user)),
  delete: ({ req }) => capabilities.manageTerms(actorOf(req.user)),
}

export const isAdministrator: Access = ({ req }) => capabilities.administer(actorOf(req.user))
export { actorOf }
