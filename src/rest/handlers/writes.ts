import type { Event, Organizer, Venue } from '../../payload-types'
import { capabilities } from '../../calendar/access/capabilities'
import { errorCodes, resourceOf, type AuthoredResource } from '../../calendar/resources'
import { slugBase, slugTaken } from '../../collections/fields/slug'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import { eventData } from '../operations/eventData'
import { organizerData, venueData } from '../operations/linked'
import { missingReferences } from '../operations/references'
import { createInLanguage, updateInLanguage } from '../operations/localizedWrite'
import { inTransaction } from '../../database/transaction'
import { unlinkEverywhere } from '../operations/unlink'
import { idBySlug } from '../../database/slugs'
import { findByIds, readOptions } from '../../operations/read'
import { loadRelated } from '../../operations/related'
import type { RestResult } from '../route'
import { authoredWriteFields, type EventInput, type OrganizerInput, type VenueInput } from '../schemas/write'
import { idOf } from '../serialize/common'
import { readCustomFields } from '../operations/customFieldInput'
import { serializeEvent } from '../serialize/event'
import { serializeOrganizer } from '../serialize/organizer'
import { emptyRelated } from '../../operations/related'
import { serializeVenue } from '../serialize/venue'

export type WritableKind = AuthoredResource['key']
type Item = Event | Venue | Organizer
/** Write parameters: the resource's fields plus the id or slug naming the item. */
export type WriteParams = { id?: number; slug?: string } & Record<string, unknown>
/** How an item route names its item; creates name none (and `slug` is then a field). */
export type ItemBy = 'id' | 'slug'

/** What differs between the three kinds of authored records; the write flow is one (docs/api.md §6). */
const KINDS = {
  events: {
    data: (ctx: RestContext, input: WriteParams, stored?: Item) => eventData(ctx, input as Partial<EventInput>, stored as Event | undefined),
    serialize: async (ctx: RestContext, doc: Item) => serializeEvent(ctx, doc as Event, await loadRelated(ctx, [doc as Event]), { unlocked: true }),
  },
  venues: {
    data: (ctx: RestContext, input: WriteParams, stored?: Item) => venueData(ctx, input as Partial<VenueInput>, stored ? 'update' : 'create'),
    serialize: async (ctx: RestContext, doc: Item) => serializeVenue(ctx, doc as Venue, await imagesOf(ctx, doc), { unlocked: true }),
  },
  organizers: {
    data: (ctx: RestContext, input: WriteParams, stored?: Item) => organizerData(ctx, input as Partial<OrganizerInput>, stored ? 'update' : 'create'),
    serialize: async (ctx: RestContext, doc: Item) => serializeOrganizer(ctx, doc as Organizer, await imagesOf(ctx, doc), { unlocked: true }),
  },
} as const

async function imagesOf(ctx: RestContext, doc: Item) {
  const related = emptyRelated()
  const image = idOf(doc.image)
  if (image) related.media = await findByIds(ctx, 'media', [image])
  return related
}

/** The item an item route names, looked up once per request and shared by validation, the permission check and the write. */
export type WriteTarget = { id: number | undefined; stored: Item | undefined }

const singularOf = (kind: WritableKind) => resourceOf(kind).singular

/** Resolves a by-id or by-slug route's item; creates name none. Unknown items are reported by validation or the handler. */
export async function writeTarget(ctx: RestContext, kind: WritableKind, params: WriteParams, by?: ItemBy): Promise<WriteTarget> {
  if (!by) return { id: undefined, stored: undefined }
  const id = by === 'id' ? Number(params.id) : await idBySlug(ctx, kind, String(params.slug))
  if (id === undefined) return { id, stored: undefined }
  const stored = await ctx.req.payload.findByID({
    collection: kind,
    id,
    depth: 0,
    overrideAccess: true,
    req: ctx.req,
    disableErrors: true,
    locale: ctx.language,
    fallbackLocale: 'en',
  })
  return { id, stored: (stored as Item | null) ?? undefined }
}

/**
 * Validation of writes against stored data, once the caller may write: records named by id must
 * exist, and so must a venue or organizer being changed (events: an unknown id is a 404, docs/api.md §6.1).
 */
export async function validateWrite(
  ctx: RestContext,
  kind: WritableKind,
  params: WriteParams,
  target: WriteTarget,
  by?: ItemBy,
): Promise<Record<string, string>> {
  const invalid: Record<string, string> = { ...(await missingReferences(ctx, params)), ...readCustomFields(ctx, kind, params).invalid }
  if (!by) return invalid
  const { id } = target
  // An unknown slug is a 400 (docs/api.md §5), and leaves nothing else to check.
  if (id === undefined) return { ...invalid, slug: `No ${singularOf(kind)} has this slug.` }
  if (kind !== 'events' && !target.stored) invalid.id = `No ${singularOf(kind)} has this id.`
  const slug = newSlug(ctx, params, by)
  if (slug.invalid) invalid.slug = slug.invalid
  else if (slug.value !== undefined && (await slugTaken(ctx.req, kind, slugBase(slug.value), id, ctx.language))) {
    invalid.slug = `Another ${singularOf(kind)} has this slug in this language.`
  }
  return invalid
}

/**
 * The slug an update sets: on a by-slug route the body's `slug` (the path's names the item), else the
 * `slug` parameter. Renaming to a slug another item has in the language is refused, not suffixed:
 * the caller asked for that exact address.
 */
function newSlug(ctx: RestContext, params: WriteParams, by: ItemBy): { value?: string; invalid?: string } {
  if (by === 'id') return { value: params.slug }
  const given = ctx.shadowedByPath.slug
  if (given === undefined) return {}
  const parsed = authoredWriteFields.slug.safeParse(given)
  return parsed.success ? { value: parsed.data } : { invalid: parsed.error.issues[0]?.message ?? 'Invalid slug.' }
}

/** The capability matrix for a write on an item, or for creating one when it does not exist. */
export function mayWrite(ctx: RestContext, action: 'edit' | 'delete', target: WriteTarget): boolean {
  return target.stored ? capabilities[action](ctx.actor, target.stored) : capabilities.create(ctx.actor)
}

/** The stored item a write changes; validation has already refused unknown venues and organizers (docs/api.md §5). */
function existing(kind: WritableKind, target: WriteTarget): Item {
  if (!target.stored) throw new RestError(errorCodes(resourceOf(kind)).notFound, `Event with ID ${target.id} does not exist.`, 404)
  return target.stored
}

async function reread(ctx: RestContext, kind: WritableKind, id: number): Promise<Item> {
  return (await ctx.req.payload.findByID({ ...readOptions(ctx, kind), collection: kind, id, overrideAccess: true })) as Item
}

/** `POST /events|venues|organizers`: 201 with the new (or, for duplicates, existing) record. */
export async function createItem(ctx: RestContext, kind: WritableKind, params: WriteParams, createOrReuse?: () => Promise<number>): Promise<RestResult> {
  const id = await inTransaction(ctx.req, async () => {
    if (createOrReuse) return createOrReuse()
    return createInLanguage(ctx, kind, await KINDS[kind].data(ctx, params))
  })
  return { status: 201, body: await KINDS[kind].serialize(ctx, await reread(ctx, kind, id)) }
}

/** `POST|PUT|PATCH` on an item: a partial update; omitted fields keep their values (docs/api.md §6.1). */
export async function updateItem(ctx: RestContext, kind: WritableKind, params: WriteParams, target: WriteTarget, by: ItemBy): Promise<RestResult> {
  const stored = existing(kind, target)
  const input = { ...params, slug: newSlug(ctx, params, by).value }
  await inTransaction(ctx.req, async () => {
    await updateInLanguage(ctx, kind, stored.id, await KINDS[kind].data(ctx, input, stored))
  })
  return { body: await KINDS[kind].serialize(ctx, await reread(ctx, kind, stored.id)) }
}

/** `DELETE` on an item: to the trash (never permanently), 410 when already there (docs/api.md §6.7). */
export async function trashItem(ctx: RestContext, kind: WritableKind, target: WriteTarget): Promise<RestResult> {
  const stored = existing(kind, target)
  const singular = singularOf(kind)
  if (stored.status === 'trash') throw new RestError(errorCodes(resourceOf(kind)).inTrash, `The ${singular} is already trashed`, 410)
  await inTransaction(ctx.req, async () => {
    await updateInLanguage(ctx, kind, stored.id, { status: 'trash' })
    if (kind !== 'events') await unlinkEverywhere(ctx, kind, stored.id)
  })
  return { body: await KINDS[kind].serialize(ctx, await reread(ctx, kind, stored.id)) }
}
