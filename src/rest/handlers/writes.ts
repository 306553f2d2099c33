import type { Event, Organizer, Venue } from '../../payload-types'
import { capabilities } from '../../calendar/access/capabilities'
import { errorCodes, resourceOf, type AuthoredResource } from '../../calendar/resources'
import { slugBase, slugTaken } from '../../collections/fields/slug'
import type { RestContext } from '../context'
import { RestError } from '../../server/errors'
import { hiddenByDeveloper, visibleIdBySlug } from '../../operations/readOne'
import { createAuthored } from '../../operations/authored/create'
import type { InputOf } from '../../operations/authored/input'
import { storedItem, type AuthoredItem, type Written } from '../../operations/authored/item'
import { trashAuthored } from '../../operations/authored/trash'
import { slugTakenRefusal, updateAuthored } from '../../operations/authored/update'
import { missingReferences } from '../../operations/references'
import { findByIds } from '../../operations/read'
import { emptyRelated, loadRelated } from '../../operations/related'
import type { RestResult } from '../route'
import { readCustomFields, withCustomFields } from '../schemas/customFields'
import { authoredWriteFields } from '../schemas/write'
import { idOf } from '../serialize/common'
import { serializeEvent } from '../serialize/event'
import { serializeOrganizer } from '../serialize/organizer'
import { serializeVenue } from '../serialize/venue'

export type WritableKind = AuthoredResource['key']
/** Write parameters: the resource's fields plus the id or slug naming the item. */
export type WriteParams = { id?: number; slug?: string } & Record<string, unknown>
/** How an item route names its item; creates name none (and `slug` is then a field). */
export type ItemBy = 'id' | 'slug'

/** How each kind of authored record is rendered once written, with what the write read of its links. */
const SERIALIZE = {
  events: async (ctx: RestContext, { item, related }: Written) =>
    serializeEvent(ctx, item as Event, related ?? (await loadRelated(ctx, [item as Event])), {
      unlocked: true,
    }),
  venues: async (ctx: RestContext, { item }: Written) =>
    serializeVenue(ctx, item as Venue, await imagesOf(ctx, item), { unlocked: true }),
  organizers: async (ctx: RestContext, { item }: Written) =>
    serializeOrganizer(ctx, item as Organizer, await imagesOf(ctx, item), { unlocked: true }),
} as const

async function imagesOf(ctx: RestContext, doc: AuthoredItem) {
  const related = emptyRelated()
  const image = idOf(doc.image)
  if (image) related.media = await findByIds(ctx, 'media', [image])
  return related
}

/** The item an item route names, looked up once per request and shared by validation, the permission check and the write. */
export type WriteTarget = { id: number | undefined; stored: AuthoredItem | undefined }

const singularOf = (kind: WritableKind) => resourceOf(kind).singular

/** Resolves a by-id or by-slug route's item; creates name none. Unknown items are reported by validation or the handler. */
export async function writeTarget(
  ctx: RestContext,
  kind: WritableKind,
  params: WriteParams,
  by?: ItemBy,
): Promise<WriteTarget> {
  if (!by) return { id: undefined, stored: undefined }
  if (by === 'slug') {
    const id = await visibleIdBySlug(ctx, kind, String(params.slug))
    return { id, stored: id === undefined ? undefined : await storedItem(ctx, kind, id) }
  }
  const id = Number(params.id)
  // An item a developer's read rule hides from the caller is one they cannot name (docs/api.md §9):
  // a 403 for it, beside the 404 of an id no item has, would tell that it is there.
  if (await hiddenByDeveloper(ctx, kind, id)) return { id, stored: undefined }
  return { id, stored: await storedItem(ctx, kind, id) }
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
  const invalid: Record<string, string> = {
    ...(await missingReferences(ctx, params)),
    ...readCustomFields(ctx, kind, params).invalid,
  }
  if (!by) return invalid
  const { id } = target
  // An unknown slug is a 400 (docs/api.md §5), and leaves nothing else to check.
  if (id === undefined) return { ...invalid, slug: `No ${singularOf(kind)} has this slug.` }
  if (kind !== 'events' && !target.stored) invalid.id = `No ${singularOf(kind)} has this id.`
  const slug = newSlug(ctx, params, by)
  if (slug.invalid) invalid.slug = slug.invalid
  else if (
    slug.value !== undefined &&
    (await slugTaken(ctx.req, kind, slugBase(slug.value), id, ctx.language))
  ) {
    invalid.slug = slugTakenRefusal(kind)
  }
  return invalid
}

/**
 * The slug an update sets: on a by-slug route the body's `slug` (the path's names the item), else the
 * `slug` parameter. Renaming to a slug another item has in the language is refused, not suffixed:
 * the caller asked for that exact address.
 */
function newSlug(
  ctx: RestContext,
  params: WriteParams,
  by: ItemBy,
): { value?: string; invalid?: string } {
  if (by === 'id') return { value: params.slug }
  const given = ctx.shadowedByPath.slug
  if (given === undefined) return {}
  const parsed = authoredWriteFields.slug.safeParse(given)
  return parsed.success
    ? { value: parsed.data }
    : { invalid: parsed.error.issues[0]?.message ?? 'Invalid slug.' }
}

/** The capability matrix for a write on an item, or for creating one when it does not exist. */
export function mayWrite(
  ctx: RestContext,
  action: 'edit' | 'delete',
  target: WriteTarget,
): boolean {
  return target.stored
    ? capabilities[action](ctx.actor, target.stored)
    : capabilities.create(ctx.actor)
}

/** The stored item a write changes; validation has already refused unknown venues and organizers (docs/api.md §5). */
function existing(kind: WritableKind, target: WriteTarget): AuthoredItem {
  if (!target.stored)
    throw new RestError(
      errorCodes(resourceOf(kind)).notFound,
      `Event with ID ${target.id} does not exist.`,
      404,
    )
  return target.stored
}

/** The validated parameters as the operation's typed input, the developers' fields read. */
const inputOf = <K extends WritableKind>(ctx: RestContext, kind: K, params: WriteParams) =>
  withCustomFields(ctx, kind, params) as InputOf[K]

/** `POST /events|venues|organizers`: 201 with the new (or, for duplicates, existing) record. */
export async function createItem(
  ctx: RestContext,
  kind: WritableKind,
  params: WriteParams,
): Promise<RestResult> {
  return {
    status: 201,
    body: await SERIALIZE[kind](ctx, await createAuthored(ctx, kind, inputOf(ctx, kind, params))),
  }
}

/** `POST|PUT|PATCH` on an item: a partial update; omitted fields keep their values (docs/api.md §6.1). */
export async function updateItem(
  ctx: RestContext,
  kind: WritableKind,
  params: WriteParams,
  target: WriteTarget,
  by: ItemBy,
): Promise<RestResult> {
  const input = inputOf(ctx, kind, { ...params, slug: newSlug(ctx, params, by).value })
  return {
    body: await SERIALIZE[kind](
      ctx,
      await updateAuthored(ctx, kind, existing(kind, target), input),
    ),
  }
}

/** `DELETE` on an item: to the trash (never permanently), 410 when already there (docs/api.md §6.7). */
export async function trashItem(
  ctx: RestContext,
  kind: WritableKind,
  target: WriteTarget,
): Promise<RestResult> {
  return {
    body: await SERIALIZE[kind](ctx, await trashAuthored(ctx, kind, existing(kind, target))),
  }
}
