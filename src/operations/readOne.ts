import type { PayloadRequest, TypedLocale, Where } from 'payload'
import { developersReadRule } from '../collections/overrides'
import { capabilities } from '../calendar/access/capabilities'
import { holdRows } from '../collections/hooks/rowLocks'
import { tableNameOf, tableOf } from '../database/seriesCopy'
import { idsBySlug } from '../database/slugs'
import { unlockFor } from '../calendar/access/collectionAccess'
import { errorCodes, resourceOf, type AuthoredResource, type Resource } from '../calendar/resources'
import { readOptions } from './read'
import type { Reader } from './reader'
import { Refusal } from './refusal'
import type { Related } from './related'

type AuthoredKind = AuthoredResource['collection']

/**
 * The first read of a single read (docs/api.md §5): what its decisions need, whoever may read the
 * item; none if it does not exist, or if a developer's read rule hides it from the caller, before
 * its trash, its status or a password can tell that it is there.
 */
export async function probeOne(reader: Reader, kind: AuthoredKind, id: number) {
  const probe = await reader.req.payload.findByID({
    collection: kind,
    id,
    depth: 0,
    overrideAccess: true,
    req: reader.req,
    disableErrors: true,
    // The stored password too, so that checking a given one costs no second read.
    select: { status: true, author: true, hasPassword: true, password: true },
  })
  return probe && !(await hiddenByDeveloper(reader, kind, id)) ? probe : null
}

/**
 * The id of the item whose slug is `slug` as the caller may know of it: in the request language, else
 * in English, leaving out an item a developer's read rule hides, so that a hidden item's French slug
 * neither answers for nor hides a readable item's English one.
 */
export async function visibleIdBySlug(
  reader: Reader,
  kind: AuthoredKind,
  slug: string,
): Promise<number | undefined> {
  for (const id of await idsBySlug(reader, kind, slug))
    if (!(await hiddenByDeveloper(reader, kind, id))) return id
  return undefined
}

/** `visibleIdBySlug`, where none is a 400 (docs/api.md §5). */
export async function idOfSlug(reader: Reader, kind: AuthoredKind, slug: string): Promise<number> {
  const id = await visibleIdBySlug(reader, kind, slug)
  if (id === undefined)
    throw Refusal.invalidParams({ slug: `No ${resourceOf(kind).singular} has this slug.` })
  return id
}

/**
 * Whether a developer's read rule, alone, hides the item from the caller: such an item is answered as
 * one that does not exist before its trash, its status or a wrong password's throttle can tell that it
 * is there (docs/api.md §9). Costs nothing where no developer gave the collection a rule.
 */
export async function hiddenByDeveloper(
  reader: Reader,
  kind: AuthoredKind,
  id: number,
): Promise<boolean> {
  const rule = developersReadRule(reader.req.payload.collections[kind].config.access)
  if (!rule) return false
  const { req } = reader
  const allowed = await rule({ req, id })
  if (allowed === true) return false
  if (!allowed) return true
  const where: Where = { and: [{ id: { equals: id } }, allowed] }
  // In the read's language: a rule on a translated field decides by the caller's text.
  const locale = reader.language as TypedLocale
  const { totalDocs } = await req.payload.count({
    collection: kind,
    where,
    overrideAccess: true,
    req,
    locale,
  })
  return !totalDocs
}

export function notAccessible(resource: AuthoredResource): Refusal {
  return new Refusal(
    errorCodes(resource).notAccessible,
    `The requested ${resource.singular} is not accessible`,
    403,
  )
}

/** Refuses an item that is not published and not the caller's to read. */
export function refuseUnreadable(
  reader: Reader,
  resource: AuthoredResource,
  probe: { status?: string | null; author?: unknown },
): void {
  if (probe.status !== 'publish' && !capabilities.readUnpublished(reader.actor, probe))
    throw notAccessible(resource)
}

/**
 * The item with the caller's access; `unlockedProtected`: a protected one whose password the caller
 * gave, its content unlocked and nothing else (a developer's rules still hold). An item a
 * developer's read rule hides from the caller is answered as one that does not exist.
 */
export async function readOne(
  reader: Reader,
  kind: AuthoredKind,
  id: number,
  unlockedProtected: boolean,
) {
  if (unlockedProtected) unlockFor(reader.req, kind, [id])
  const doc = await reader.req.payload.findByID({
    ...readOptions(reader, kind),
    collection: kind,
    id,
    disableErrors: true,
  })
  if (!doc) throw missing(resourceOf(kind), id)
  return doc
}

/** The answer to an id no item has, or none the caller may know of (docs/api.md §5). */
export function missing(resource: Resource, id: number): Refusal {
  return resource.collection === 'events'
    ? new Refusal(errorCodes(resource).notFound, `Event with ID ${id} does not exist.`, 404)
    : Refusal.invalidParams({ id: `No ${resource.singular} has this id.` })
}

/**
 * A write on an item the route found, which another writer deleted before this one took its turn, is
 * answered as one to an id no item has, as if the route had not found it: Payload says 404 or, to a
 * caller whose access is a rule (an author's own items), 403; whether the item is still there decides.
 */
export async function whileItExists<T>(
  req: PayloadRequest,
  resource: Resource,
  id: number,
  write: () => Promise<T>,
) {
  try {
    return await write()
  } catch (error) {
    const status = (error as { status?: unknown }).status
    if (status === 404 || status === 403) {
      const stored = await req.payload.findByID({
        collection: resource.collection,
        id,
        depth: 0,
        overrideAccess: true,
        req,
        disableErrors: true,
        select: {},
      })
      if (!stored) throw missing(resource, id)
    }
    throw error
  }
}

/**
 * Holds a write's item to the end of its transaction, in the order an update holds it
 * (`holdRows`), and answers the `columns` it stores once held: what the writer before committed, not
 * what the route read. One another writer deleted meanwhile is an id no item has.
 */
export async function heldItem<Row>(
  req: PayloadRequest,
  resource: Resource,
  id: number,
  columns: string[] = [],
): Promise<Row> {
  const table = tableOf(req, tableNameOf(req.payload, resource.collection))!
  const [held] = await holdRows<Row>(req, table, [id], columns)
  if (!held) throw missing(resource, id)
  return held
}

/** What a single read answers: the item and what it embeds. */
export type OneRead<T> = { doc: T; related: Related }

/** The item with what it embeds, loaded by its resource's own loader. */
export async function withRelated<T>(
  doc: T,
  related: (docs: T[]) => Promise<Related>,
): Promise<OneRead<T>> {
  return { doc, related: await related([doc]) }
}
