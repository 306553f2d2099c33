import type { Event, Organizer, Venue } from '../../payload-types'
import { capabilities } from '../../access/capabilities'
import { slugBase, slugTaken } from '../../collections/fields/slug'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import { eventData } from '../operations/eventData'
import { organizerData, venueData } from '../operations/linked'
import { missingReferences } from '../operations/references'
import { createInLanguage, updateInLanguage } from '../operations/localizedWrite'
import { inTransaction } from '../operations/transaction'
import { unlinkEverywhere } from '../operations/unlink'
import { findByIds, idBySlug, readOptions } from '../query/read'
import { loadRelated } from '../query/related'
import type { RestResult } from '../route'
import { authoredWriteFields, type EventInput, type OrganizerInput, type VenueInput } from '../schemas/write'
import { idOf } from '../serialize/common'
import { readCustomFields } from '../serialize/customFields'
import { serializeEvent } from '../serialize/event'
import { serializeOrganizer } from '../serialize/organizer'
import { emptyRelated } from '../serialize/related'
import { serializeVenue } from '../serialize/venue'

export type WritableKind = 'events' | 'venues' | 'organizers'
type Item = Event | Venue | Organizer
type Probe = { id: number; status: string; author?: unknown; hasPassword?: boolean | null }
/** Write parameters: the resource's fields plus the id or slug naming the item. */
export type WriteParams = { id?: number; slug?: string } & Record<string, unknown>
/** How an item route names its item; creates name none (and `slug` is then a field). */
export type ItemBy = 'id' | 'slug'

/** What differs between the three kinds of authored records; the write flow is one (upstream §7–§11). */
const KINDS = {
  events: {
    singular: 'event',
    data: (ctx: RestContext, input: WriteParams, stored?: Item) => eventData(ctx, input as Partial<EventInput>, stored as Event | undefined),
    serialize: async (ctx: RestContext, doc: Item) => serializeEvent(ctx, doc as Event, await loadRelated(ctx, [doc as Event]), { unlocked: true }),
  },
  venues: {
    singular: 'venue',
    data: (ctx: RestContext, input: WriteParams, stored?: Item) => venueData(ctx, input as Partial<VenueInput>, stored ? 'update' : 'create'),
    serialize: async (ctx: RestContext, doc: Item) => serializeVenue(ctx, doc as Venue, await imagesOf(ctx, doc), { unlocked: true }),
  },
  organizers: {
    singular: 'organizer',
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

async function probe(ctx: RestContext, kind: WritableKind, id: number): Promise<Probe | undefined> {
  const found = await ctx.req.payload.findByID({ collection: kind, id, depth: 0, overrideAccess: true, req: ctx.req, disableErrors: true, select: { status: true, author: true, hasPassword: true } })
  return (found as Probe | null) ?? undefined
}

/** A by-slug route's lookup, once per request: validation, the permission check and the write all ask. */
const slugLookups = new WeakMap<RestContext, Promise<number | undefined>>()

/** The item a by-id or by-slug route names; an unknown slug is a 400 (upstream §6.2). */
export async function itemId(ctx: RestContext, kind: WritableKind, params: WriteParams, by: ItemBy): Promise<number> {
  if (by === 'id') return Number(params.id)
  let lookup = slugLookups.get(ctx)
  if (!lookup) slugLookups.set(ctx, (lookup = idBySlug(ctx, kind, String(params.slug))))
  const id = await lookup
  if (id === undefined) throw RestError.invalidParams({ slug: `No ${KINDS[kind].singular} has this slug.` })
  return id
}

/**
 * Validation of writes, before any permission check: records named by id must exist, and so must
 * a venue or organizer being changed (events: unknown ids are a 404 after the check, upstream §8).
 */
export async function validateWrite(ctx: RestContext, kind: WritableKind, params: WriteParams, by?: ItemBy): Promise<Record<string, string>> {
  const invalid = { ...(await missingReferences(ctx, params)), ...readCustomFields(ctx, kind, params).invalid }
  if (!by) return invalid
  const id = await itemId(ctx, kind, params, by)
  if (kind !== 'events' && !(await probe(ctx, kind, id))) invalid.id = `No ${KINDS[kind].singular} has this id.`
  const slug = newSlug(ctx, params, by)
  if (slug.invalid) invalid.slug = slug.invalid
  else if (slug.value !== undefined && (await slugTaken(ctx.req, kind, slugBase(slug.value), id, ctx.language))) {
    invalid.slug = `Another ${KINDS[kind].singular} has this slug in this language.`
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
export async function mayWrite(ctx: RestContext, kind: WritableKind, params: WriteParams, action: 'edit' | 'delete', by?: ItemBy): Promise<boolean> {
  if (!by) return capabilities.create(ctx.actor)
  const item = await probe(ctx, kind, await itemId(ctx, kind, params, by))
  return item ? capabilities[action](ctx.actor, item) : capabilities.create(ctx.actor)
}

async function existing(ctx: RestContext, kind: WritableKind, params: WriteParams, by: ItemBy): Promise<Item> {
  const id = await itemId(ctx, kind, params, by)
  const item = await ctx.req.payload.findByID({ collection: kind, id, depth: 0, overrideAccess: true, req: ctx.req, disableErrors: true, locale: ctx.language, fallbackLocale: 'en' })
  if (!item) throw new RestError(`rest-${KINDS[kind].singular}-not-found`, `Event with ID ${id} does not exist.`, 404)
  return item as Item
}

async function reread(ctx: RestContext, kind: WritableKind, id: number): Promise<Item> {
  return (await ctx.req.payload.findByID({ ...readOptions(ctx, kind), collection: kind, id, overrideAccess: true })) as Item
}

/** `POST /events|venues|organizers`: 201 with the new (or, for duplicates, existing) record. */
export async function createItem(ctx: RestContext, kind: WritableKind, params: WriteParams, createOrReuse?: () => Promise<number>): Promise<RestResult> {
  const id = await inTransaction(ctx, async () => {
    if (createOrReuse) return createOrReuse()
    return createInLanguage(ctx, kind, await KINDS[kind].data(ctx, params))
  })
  return { status: 201, body: await KINDS[kind].serialize(ctx, await reread(ctx, kind, id)) }
}

/** `POST|PUT|PATCH` on an item: a partial update; omitted fields keep their values (contract §6). */
export async function updateItem(ctx: RestContext, kind: WritableKind, params: WriteParams, by: ItemBy): Promise<RestResult> {
  const stored = await existing(ctx, kind, params, by)
  const input = { ...params, slug: newSlug(ctx, params, by).value }
  await inTransaction(ctx, async () => {
    await updateInLanguage(ctx, kind, stored.id, await KINDS[kind].data(ctx, input, stored))
  })
  return { body: await KINDS[kind].serialize(ctx, await reread(ctx, kind, stored.id)) }
}

/** `DELETE` on an item: to the trash (never permanently), 410 when already there (upstream §9). */
export async function trashItem(ctx: RestContext, kind: WritableKind, params: WriteParams, by: ItemBy): Promise<RestResult> {
  const stored = await existing(ctx, kind, params, by)
  const { singular } = KINDS[kind]
  if (stored.status === 'trash') throw new RestError(`${singular}-is-in-trash`, `The ${singular} is already trashed`, 410)
  await inTransaction(ctx, async () => {
    await updateInLanguage(ctx, kind, stored.id, { status: 'trash' })
    if (kind !== 'events') await unlinkEverywhere(ctx, kind, stored.id)
  })
  return { body: await KINDS[kind].serialize(ctx, await reread(ctx, kind, stored.id)) }
}
