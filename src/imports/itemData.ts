/**
 * Source items as Payload data, and whether that data would change a stored item. Links are resolved
 * here, inside the item's transaction: to the item the source's id was imported as, else to the local
 * item of that name, else to a new item with only that name; each is mapped for the next run.
 */
import { DateTime } from 'luxon'
import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'
import { parseZone, toLuxonZone } from '../calendar/dates/zone'
import { webUrl } from '../calendar/webUrl'
import { renderDescriptionHtml } from '../collections/fields/descriptionHtml'
import { htmlToRichText } from '../collections/fields/richText'
import { inUnitedStates } from '../collections/hooks/stateProvince'
import { ImageDownloadError, mediaFromUrl } from '../collections/mediaFromUrl'
import { REFUSED_NOTE } from './guard'
import type {
  EventItem,
  ImportKind,
  ItemRef,
  OrganizerItem,
  SourceItem,
  TermItem,
  VenueItem,
} from './items'
import {
  createLocal,
  localByName,
  localExists,
  mappedLocal,
  type ItemContext,
  type StoredItem,
} from './localItems'
import { findMapping, recordMapping } from './mapping'

/** A problem with one item's content: reported with the item, the run goes on, whatever its text says (never a lost database). */
export class ItemError extends Error {}

type Data = Record<string, unknown>

export async function payloadData(
  ctx: ItemContext,
  item: SourceItem,
  stored: StoredItem | undefined,
): Promise<Data> {
  switch (item.kind) {
    case 'category':
    case 'tag':
      return termData(ctx, item.kind, item.data)
    case 'venue':
      return venueData(ctx, item.data, stored)
    case 'organizer':
      return organizerData(ctx, item.data)
    case 'event':
      return eventData(ctx, item.data, stored)
  }
}

/** Sets `data[field]` to `value` unless the source said nothing of it (undefined). */
function put(data: Data, field: string, value: unknown): void {
  if (value !== undefined) data[field] = value
}

async function description(
  ctx: ItemContext,
  text: string | null | undefined,
): Promise<SerializedEditorState | null | undefined> {
  if (text === undefined) return undefined
  return text
    ? ((await htmlToRichText(ctx.req.payload.config, asHtml(text))) as SerializedEditorState)
    : null
}

/** Text without markup reads as paragraphs separated by blank lines, as WordPress reads post content. */
function asHtml(text: string): string {
  if (/<[a-z!/][^>]*>/i.test(text)) return text
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  return escaped
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${paragraph.replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n')
}

/**
 * The item's values in each language other than the default that the source translates, as
 * Payload data of those languages (localized fields only).
 */
export async function translationData(
  ctx: ItemContext,
  item: SourceItem,
): Promise<[string, Data][]> {
  const translated: [string, Data][] = []
  for (const [language, values] of Object.entries(item.data.translations ?? {})) {
    const data: Data = {}
    for (const [field, value] of Object.entries(values))
      data[field] =
        field === 'description' && item.kind !== 'category' && item.kind !== 'tag'
          ? await description(ctx, value)
          : value
    translated.push([language, data])
  }
  return translated
}

async function termData(ctx: ItemContext, kind: 'category' | 'tag', item: TermItem): Promise<Data> {
  const data: Data = { name: item.name }
  put(data, 'description', item.description)
  put(data, 'slug', item.slug)
  if (kind === 'category' && item.parent !== undefined)
    data.parent = item.parent && (await resolveRef(ctx, 'category', item.parent))
  return data
}

/** What events, venues and organizers share: slug, excerpt, status, password, publication date, image. */
async function authoredData(
  ctx: ItemContext,
  item: EventItem | VenueItem | OrganizerItem,
  data: Data,
): Promise<void> {
  put(data, 'description', await description(ctx, item.description))
  for (const field of ['slug', 'excerpt', 'status', 'password', 'publishedAt'] as const)
    put(data, field, item[field])
  if (item.image !== undefined) data.image = item.image ? await image(ctx, item.image) : null
}

async function venueData(
  ctx: ItemContext,
  item: VenueItem,
  stored: StoredItem | undefined,
): Promise<Data> {
  const data: Data = { name: item.name }
  await authoredData(ctx, item, data)
  for (const field of [
    'address',
    'city',
    'country',
    'zip',
    'phone',
    'state',
    'province',
    'geoLat',
    'geoLng',
    'showMap',
    'showMapLink',
  ] as const)
    put(data, field, item[field])
  put(data, 'website', website(ctx, item.website))
  if (item.stateProvince !== undefined) {
    const country = item.country !== undefined ? item.country : stored?.country
    if (item.state === undefined && item.province === undefined)
      data[inUnitedStates(country) ? 'state' : 'province'] = item.stateProvince
    data.stateprovince = item.stateProvince
  }
  return data
}

/** What only a new item gets from the source item. */
export function creationData(item: SourceItem): Data {
  return item.kind === 'venue' && item.data.newAddress && item.data.address === undefined
    ? { address: item.data.newAddress }
    : {}
}

async function organizerData(ctx: ItemContext, item: OrganizerItem): Promise<Data> {
  const data: Data = { name: item.name }
  await authoredData(ctx, item, data)
  for (const field of ['email', 'phone'] as const) put(data, field, item[field])
  put(data, 'website', website(ctx, item.website))
  return data
}

const FLAGS = [
  'allDay',
  'featured',
  'sticky',
  'showMap',
  'showMapLink',
  'hideFromListings',
] as const

async function eventData(
  ctx: ItemContext,
  item: EventItem,
  stored: StoredItem | undefined,
): Promise<Data> {
  const data: Data = { title: item.title }
  await authoredData(ctx, item, data)
  let timezone = item.timezone
  if (timezone) {
    timezone = parseZone(timezone)
    if (!timezone) throw new ItemError(`timezone: not a known time zone (${item.timezone}).`)
  }
  put(data, 'timezone', timezone)
  const zone = toLuxonZone(
    (timezone !== undefined ? timezone : (stored?.timezone as string | null | undefined)) ||
      ctx.siteZone,
  )
  const start = DateTime.fromFormat(item.start, 'yyyy-MM-dd HH:mm:ss', { zone })
  const end = DateTime.fromFormat(item.end, 'yyyy-MM-dd HH:mm:ss', { zone })
  if (!start.isValid || !end.isValid)
    throw new ItemError(`start or end: not a date and time (${item.start}, ${item.end}).`)
  data.start = start.toUTC().toISO()
  data.end = end.toUTC().toISO()
  for (const flag of FLAGS) put(data, flag, item[flag])
  put(data, 'cost', item.cost)
  put(data, 'currencySymbol', item.currencySymbol)
  put(data, 'currencyCode', item.currencyCode)
  put(data, 'recurrence', item.recurrence)
  if (item.currencyPosition !== undefined) data.currencyPosition = item.currencyPosition || null
  put(data, 'website', website(ctx, item.website))
  if (item.venue !== undefined)
    data.venue = item.venue && (await resolveRef(ctx, 'venue', item.venue))
  for (const [field, kind] of [
    ['organizers', 'organizer'],
    ['categories', 'category'],
    ['tags', 'tag'],
  ] as const) {
    const refs = item[field]
    if (refs === undefined) continue
    const ids: number[] = []
    for (const ref of refs) ids.push(await resolveRef(ctx, kind, ref))
    data[field] = [...new Set(ids)]
  }
  if (ctx.extraCategories.length) {
    const own =
      (data.categories as number[] | undefined) ??
      ((stored?.categories as number[] | undefined) ?? []).map(Number)
    data.categories = [...new Set([...own, ...ctx.extraCategories])]
  }
  if (item.occurrenceOf) {
    // An occurrence whose first event was not imported (yet) stands alone; one made here is an exception, so its series' upkeep leaves it as it is.
    data.parent = (await mappedLocal(ctx, 'event', item.occurrenceOf.parent.sourceId)) ?? null
    if (!stored && data.parent) data.recurrenceException = true
  }
  return data
}

/**
 * A website as the source gives it; one that is no web address by the core's rule (iCloud's
 * `message:`, `mailto:`, `javascript:`, or text without a scheme, which the collection would refuse)
 * is left out, so the item imports without it, and noted.
 */
function website(ctx: ItemContext, value: string | null | undefined): string | null | undefined {
  if (!value) return value
  const url = webUrl(value)
  if (url) return url
  ctx.notes.push(
    `website ${value.length > 60 ? `${value.slice(0, 60)}…` : value}: not a web address (http or https), left out`,
  )
  return null
}

/** The media item of an image: a stored one by id, else the download of its URL, once per source. */
async function image(ctx: ItemContext, value: string): Promise<number> {
  if (/^\d+$/.test(value)) {
    const media = await ctx.req.payload.findByID({
      collection: 'media',
      id: Number(value),
      depth: 0,
      req: ctx.req,
      disableErrors: true,
    })
    if (!media?.mimeType?.startsWith('image/'))
      throw new ItemError(`image: no image has the id ${value}.`)
    return media.id
  }
  if (!webUrl(value)) throw new ItemError(`image: neither an image URL nor an image id (${value}).`)
  const mapped = await findMapping(ctx.req, ctx.source, 'image', value)
  if (mapped) {
    const media = await ctx.req.payload.count({
      collection: 'media',
      where: { id: { equals: mapped.localId } },
      req: ctx.req,
      overrideAccess: true,
    })
    if (media.totalDocs) return mapped.localId
  }
  let id: number
  try {
    id = await mediaFromUrl(ctx.req, value, ctx.origins, {
      allowPrivate: ctx.allowPrivateImages,
      refusedNote: REFUSED_NOTE,
    })
  } catch (error) {
    if (error instanceof ImageDownloadError) throw new ItemError(`image: ${error.message}`)
    throw error
  }
  await recordMapping(ctx.req, ctx.source, 'image', value, { localId: id, hash: null })
  return id
}

/**
 * The local id of a linked item (docs/api.md §23.2): the item its source id was imported as, else (for
 * the kinds the source matches by name) the local item of that name, else a new one; an item it had to
 * make counts as created.
 */
async function resolveRef(ctx: ItemContext, kind: ImportKind, ref: ItemRef): Promise<number> {
  const mapped = await findMapping(ctx.req, ctx.source, kind, ref.sourceId)
  if (mapped && (await localExists(ctx, kind, mapped.localId))) return mapped.localId
  let id = ctx.matchByName.includes(kind) ? await localByName(ctx, kind, ref.name) : undefined
  if (id === undefined) {
    id = await createLocal(ctx, kind, kind === 'event' ? { title: ref.name } : { name: ref.name })
    ctx.madeFromLinks.push(kind)
  }
  // No hash: the linked item's own content was never imported, so its own row will be compared in full.
  await recordMapping(ctx.req, ctx.source, kind, ref.sourceId, { localId: id, hash: null })
  return id
}

/** Whether writing `data` would change the stored item (empty text and no value are the same). */
export function changes(data: Data, stored: StoredItem): boolean {
  return Object.entries(data).some(([field, value]) => {
    if (field === 'description')
      return (
        renderDescriptionHtml(value as SerializedEditorState | null) !==
        ((stored.descriptionHtml as string | null) ?? '')
      )
    if (field === 'start' || field === 'end' || field === 'publishedAt')
      return !sameInstant(value, stored[field])
    return !same(value, stored[field])
  })
}

function sameInstant(value: unknown, stored: unknown): boolean {
  if (!value || !stored) return !value && !stored
  return new Date(value as string).getTime() === new Date(stored as string).getTime()
}

function same(value: unknown, stored: unknown): boolean {
  if (typeof value === 'boolean') return value === Boolean(stored)
  if (Array.isArray(value)) {
    const list = Array.isArray(stored) ? stored : []
    return value.length === list.length && value.every((entry, i) => same(entry, list[i]))
  }
  if (stored && typeof stored === 'object' && 'id' in stored) return same(value, stored.id)
  const empty = (entry: unknown) => entry === null || entry === undefined || entry === ''
  if (empty(value) || empty(stored)) return empty(value) && empty(stored)
  return String(value) === String(stored)
}
