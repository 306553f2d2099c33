import {
  Forbidden,
  type Access,
  type CollectionAfterReadHook,
  type CollectionBeforeOperationHook,
  type FieldAccess,
  type Where,
} from 'payload'
import type { Actor } from './roles'
import { capabilities } from './capabilities'
import { readVisibility, visibilityWhere } from './readVisibility'

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
  readVersions: Access
} = {
  read: ({ req }) => visibilityWhere(readVisibility(actorOf(req.user))),
  create: ({ req }) => capabilities.create(actorOf(req.user)),
  update: ({ req }) => editableWhere(actorOf(req.user)),
  delete: ({ req }) => editableWhere(actorOf(req.user)),
  // Versions hold every past state, drafts and passwords included: for those who edit everyone's items.
  readVersions: ({ req }) => capabilities.editOthers(actorOf(req.user)),
}

/** The items `actor` may edit, as a `where` (or all, or none). */
export function editableWhere(actor: Actor): boolean | Where {
  if (capabilities.editOthers(actor)) return true
  if (!actor || !capabilities.create(actor)) return false
  const own: Where = { author: { equals: actor.id } }
  if (capabilities.publish(actor)) return own
  return { and: [own, { status: { in: [...capabilities.unpublishedStatuses] } }] }
}

/** The operations that select items by a caller's `where`: lists and single reads, counts, distinct values. */
const QUERIES = new Set(['read', 'count', 'readDistinct'])

/**
 * Queries on withheld fields would confirm a protected item's content one guess at a time
 * (`where[city][equals]=...`, a count of such a `where`, a sort by the field among known neighbours,
 * the field's distinct values): for readers who may not see every item's content, such queries only
 * reach items without a password, whichever door asks (Payload's REST and GraphQL, the admin's list
 * filters). A query through a relation into the related item's fields (`where[venue.city]`) would
 * do the same to the related item, whose protection this item's rule cannot see: refused to them.
 * Versions need no guard: only those who edit everyone's items read them.
 */
function guardWithheldQueries(
  fields: string[],
  relations: string[],
): CollectionBeforeOperationHook {
  const segments = (path: string) => path.trim().replace(/^-/, '').split('.')
  const withheld = (path: string) => fields.includes(segments(path)[0]!)
  const throughRelation = (path: string) => {
    const [first, ...rest] = segments(path)
    return relations.includes(first!) && rest.length > 0 && rest.join('.') !== 'id'
  }
  const keysOf = (where: unknown): string[] =>
    Array.isArray(where)
      ? where.flatMap(keysOf)
      : where && typeof where === 'object'
        ? Object.entries(where).flatMap(([key, value]) => [key, ...keysOf(value)])
        : []
  const sortPaths = (sort: unknown): string[] =>
    (Array.isArray(sort) ? sort : typeof sort === 'string' ? sort.split(',') : []).filter(
      (path): path is string => typeof path === 'string',
    )
  return ({ args, operation, req }) => {
    // The namespace words its own queries with the same rule, condition by condition (`withheldAware`).
    if (req.context.calendarNamespace) return args
    const query = args as {
      overrideAccess?: boolean
      where?: Where
      sort?: unknown
      field?: string
    }
    if (
      !QUERIES.has(operation) ||
      query.overrideAccess ||
      capabilities.editOthers(actorOf(req.user))
    )
      return args
    const paths = [
      ...keysOf(query.where),
      ...sortPaths(query.sort),
      ...(query.field ? [query.field] : []),
    ]
    if (paths.some(throughRelation)) throw new Forbidden(req.t)
    if (!paths.some(withheld)) return args
    const unprotected: Where = { hasPassword: { not_equals: true } }
    return { ...args, where: query.where ? { and: [query.where, unprotected] } : unprotected }
  }
}

function withholdProtectedContent(fields: string[]): CollectionAfterReadHook {
  // Callers that override access (the namespace once a password matched, the seed) read everything.
  return ({ doc, req, overrideAccess }) => {
    if (overrideAccess || !doc?.hasPassword || capabilities.edit(actorOf(req.user), doc)) return doc
    for (const field of fields) delete doc[field]
    return doc
  }
}

/**
 * The content of password-protected items (`fields`): readers who may not edit the item see its name
 * and dates but none of these, through every door (docs/api.md §2, §9). A collection read hook rather
 * than field access, which breaks Payload's `locale=all` reads of localized fields; what access
 * control decides on is always selected (forceSelect), so a client's `select` cannot hide the
 * protection. `relations` are the fields linking to other password-protected items. Each authored
 * collection uses all three, beside its own hooks.
 */
export function passwordProtection(
  fields: string[],
  relations: string[] = [],
): {
  forceSelect: { hasPassword: true; author: true; status: true }
  afterRead: CollectionAfterReadHook[]
  beforeOperation: CollectionBeforeOperationHook[]
} {
  return {
    forceSelect: { hasPassword: true, author: true, status: true },
    afterRead: [withholdProtectedContent(fields)],
    beforeOperation: [guardWithheldQueries(fields, relations)],
  }
}

/** A field only administrators read and write (an import's credentials). */
export const administratorsOnly: FieldAccess = ({ req }) =>
  capabilities.administer(actorOf(req.user))

/** The password itself is visible only to those who may edit the item. */
export const passwordRead: FieldAccess = ({ req, doc }) =>
  doc ? capabilities.edit(actorOf(req.user), doc) : false

export const termAccess: { read: Access; create: Access; update: Access; delete: Access } = {
  read: () => true,
  create: ({ req }) => capabilities.manageTerms(actorOf(req.user)),
  update: ({ req }) => capabilities.manageTerms(actorOf(req.user)),
  delete: ({ req }) => capabilities.manageTerms(actorOf(req.user)),
}

export const isAdministrator: Access = ({ req }) => capabilities.administer(actorOf(req.user))

/** A collection only administrators read and write: imports, subscriptions, webhooks. */
export const administratorAccess: { read: Access; create: Access; update: Access; delete: Access } =
  {
    read: isAdministrator,
    create: isAdministrator,
    update: isAdministrator,
    delete: isAdministrator,
  }
export { actorOf }
