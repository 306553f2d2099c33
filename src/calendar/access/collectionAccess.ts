import {
  type Access,
  type CollectionAfterReadHook,
  type CollectionBeforeOperationHook,
  type CollectionSlug,
  type FieldAccess,
  type PayloadRequest,
  type Where,
} from 'payload'
import type { Actor } from './roles'
import { capabilities } from './capabilities'
import { readVisibility, visibilityWhere } from './readVisibility'
import { queryPaths, throughLink, type QueryArgs } from './queryPaths'
import { RefusedQuery } from './refusedQuery'

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

/** Those that select the items they change by a caller's `where` (bulk update and delete). */
const CHANGES = new Set(['update', 'delete'])

/** What access control and the protection decide on: never left out of a read (`forceSelect`). */
const CONTROL_FIELDS = { hasPassword: true, author: true, status: true } as const

/**
 * A `select` that leaves fields out (`select[hasPassword]=false`) is not widened by `forceSelect`, as
 * one that names fields is: without `hasPassword` a protected item read as unprotected. The control
 * fields are taken out of such a select, so they are read whatever it says.
 */
function keepingControlFields(select: unknown): unknown {
  if (!select || typeof select !== 'object') return select
  const kept = Object.fromEntries(
    Object.entries(select).filter(([key, value]) => !(key in CONTROL_FIELDS && value === false)),
  )
  return Object.keys(kept).length ? kept : undefined
}

/**
 * Queries on withheld fields would confirm a protected item's content one guess at a time
 * (`where[city][equals]=...`, a count of such a `where`, a sort by the field among known neighbours,
 * the field's distinct values): for readers who may not see every item's content, such queries only
 * reach items without a password, whichever door asks (Payload's REST and GraphQL, the admin's list
 * filters). A query through a relation into the related item's fields (`where[venue.city]`) would
 * do the same to the related item, whose protection this item's rule cannot see: refused to them.
 * Versions need no guard: only those who edit everyone's items read them. Queries through a link to
 * an account are guarded for every collection (`collections/accountLinks.ts`).
 */
function guardWithheldQueries(
  fields: string[],
  relations: string[],
): CollectionBeforeOperationHook {
  const withheld = (path: string[]) => fields.includes(path[0]!)
  const links = relations.map((relation) => [relation])
  return ({ args: given, operation, req }) => {
    const query = given as QueryArgs & { overrideAccess?: boolean; where?: Where; select?: unknown }
    if (query.overrideAccess) return given
    const args =
      'select' in query ? { ...given, select: keepingControlFields(query.select) } : given
    // The namespace words its own queries with the same rule, condition by condition (`withheldAware`).
    if (req.context.calendarNamespace) return args
    const actor = actorOf(req.user)
    if (capabilities.editOthers(actor)) return args
    const paths = queryPaths(query)
    // A bulk change reaches only items the caller may edit, whose content they read; but its
    // `where` could still read a linked item they may not, one guess at a time.
    if (CHANGES.has(operation)) {
      if (paths.some((path) => throughLink(links, path))) throw new RefusedQuery(req)
      return args
    }
    if (!QUERIES.has(operation)) return args
    if (paths.some((path) => throughLink(links, path))) throw new RefusedQuery(req)
    if (!paths.some(withheld)) return args
    const unprotected: Where = { hasPassword: { not_equals: true } }
    return { ...args, where: query.where ? { and: [query.where, unprotected] } : unprotected }
  }
}

/** Where a request keeps the items whose password its caller gave (`unlockFor`). */
const UNLOCKED = 'calendarUnlocked'

/**
 * The items of `collection` whose password the caller of `req` gave: their content is theirs to read
 * for the rest of the request (docs/api.md §9). Nothing else is unlocked: the read stays one with the
 * caller's access, so a developer's rules, of the collection and of each field, still hold.
 */
export function unlockFor(req: PayloadRequest, collection: CollectionSlug, ids: number[]): void {
  const unlocked = ((req.context[UNLOCKED] as Map<string, Set<number>> | undefined) ??= new Map())
  const items = unlocked.get(collection) ?? new Set<number>()
  for (const id of ids) items.add(id)
  unlocked.set(collection, items)
}

function unlockedIn(req: PayloadRequest, collection: string, id: unknown): boolean {
  const unlocked = req.context[UNLOCKED] as Map<string, Set<number>> | undefined
  return typeof id === 'number' && unlocked?.get(collection)?.has(id) === true
}

function withholdProtectedContent(fields: string[]): CollectionAfterReadHook {
  // Callers that override access (jobs, the seed) read everything.
  return ({ doc, req, overrideAccess, collection }) => {
    if (
      overrideAccess ||
      !doc?.hasPassword ||
      unlockedIn(req, collection.slug, doc.id) ||
      capabilities.edit(actorOf(req.user), doc)
    )
      return doc
    for (const field of fields) delete doc[field]
    return doc
  }
}

/**
 * The content of password-protected items (`fields`): readers who may not edit the item see its name
 * and dates but none of these, through every door (docs/api.md §2, §9). A collection read hook rather
 * than field access, which breaks Payload's `locale=all` reads of localized fields; what access
 * control decides on is always selected (forceSelect, and taken out of a select that leaves fields
 * out), so a client's `select` cannot hide the protection. `relations` are the fields linking to other password-protected items. Each authored
 * collection uses all three, beside its own hooks.
 */
export function passwordProtection(
  fields: string[],
  relations: string[] = [],
): {
  forceSelect: typeof CONTROL_FIELDS
  afterRead: CollectionAfterReadHook[]
  beforeOperation: CollectionBeforeOperationHook[]
} {
  return {
    forceSelect: CONTROL_FIELDS,
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
