/**
 * Source items as the operations' typed input (`operations/authored/input.ts`, `terms/checks.ts`),
 * made into Payload data by the operations' own data step, as the namespace's writes are: the same
 * rules, the same refusals. What only an import knows is resolved here first, inside the item's
 * transaction: links to the item the source's id was imported as, else to the local item of that
 * name, else to a new item with only that name (each mapped for the next run); images by URL,
 * downloaded once per source.
 */
import { DateTime } from 'luxon'
import { parseZone } from '../calendar/dates/zone'
import { webUrl } from '../calendar/webUrl'
import { inUnitedStates } from '../collections/hooks/stateProvince'
import { ImageDownloadError, mediaFromUrl } from '../collections/mediaFromUrl'
import type { LanguageCode } from '../i18n/languages'
import type {
  AuthoredInput,
  EventInput,
  OrganizerInput,
  VenueInput,
} from '../operations/authored/input'
import { dataOf, type AuthoredItem, type AuthoredKind } from '../operations/authored/item'
import { termData } from '../operations/terms/checks'
import { REFUSED_NOTE } from './guard'
import type {
  EventItem,
  ItemRef,
  OrganizerItem,
  SourceItem,
  TermItem,
  Translations,
  VenueItem,
} from './items'
import {
  createLocal,
  localByName,
  localSibling,
  mappedLocal,
  type ItemContext,
  type StoredItem,
} from './localItems'

/** A problem with one item's content: reported with the item, the run goes on, whatever its text says (never a lost database). */
export class ItemError extends Error {}

type Data = Record<string, unknown>

/** The kinds an item links to by reference. */
type LinkKind = 'category' | 'tag' | 'venue' | 'organizer'

const AUTHORED_KIND = { venue: 'venues', organizer: 'organizers', event: 'events' } as const

/** Text the source gives or clears (null: empty), or says nothing of (undefined). */
const text = (value: string | null | undefined) => (value === undefined ? undefined : (value ?? ''))

/** The operation's data step of an authored kind, for a new item or the stored one it changes. */
const authoredData = <K extends AuthoredKind>(
  ctx: ItemContext,
  kind: K,
  input: K extends 'events' ? EventInput : VenueInput | OrganizerInput,
  stored: StoredItem | undefined,
  language?: LanguageCode,
) =>
  dataOf(
    language ? { ...ctx.writer, language } : ctx.writer,
    kind,
    input as never,
    stored as unknown as AuthoredItem | undefined,
  )

/** Payload data of a source item in the default language, for a new item or the stored one. */
export async function itemData(
  ctx: ItemContext,
  item: SourceItem,
  stored: StoredItem | undefined,
): Promise<Data> {
  switch (item.kind) {
    case 'category':
    case 'tag':
      return termData(await termInput(ctx, item.kind, item.data))
    case 'venue':
      return authoredData(ctx, 'venues', await venueInput(ctx, item.data, stored), stored)
    case 'organizer':
      return authoredData(ctx, 'organizers', await organizerInput(ctx, item.data, stored), stored)
    case 'event':
      return authoredData(ctx, 'events', await eventInput(ctx, item.data, stored), stored)
  }
}

/**
 * Payload data of the item's values in a language other than the default that the source
 * translates (its localized fields only), for the stored item as that language reads it.
 */
export async function translationData(
  ctx: ItemContext,
  item: SourceItem,
  language: LanguageCode,
  values: Translations[string],
  stored: StoredItem,
): Promise<Data> {
  const name = values.title ?? values.name ?? undefined
  const shared = { excerpt: text(values.excerpt), slug: values.slug ?? undefined }
  const description = values.description === undefined ? undefined : asHtml(values.description)
  switch (item.kind) {
    case 'category':
    case 'tag':
      return termData({ name, description: text(values.description), slug: shared.slug })
    case 'venue':
      return authoredData(ctx, 'venues', { ...shared, description, venue: name }, stored, language)
    case 'organizer':
      return authoredData(
        ctx,
        'organizers',
        { ...shared, description, organizer: name },
        stored,
        language,
      )
    case 'event':
      return authoredData(ctx, 'events', { ...shared, description, title: name }, stored, language)
  }
}

/** Text without markup reads as paragraphs separated by blank lines, as WordPress reads post content. */
function asHtml(value: string | null): string {
  if (!value || /<[a-z!/][^>]*>/i.test(value)) return value ?? ''
  const escaped = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  return escaped
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${paragraph.replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n')
}

async function termInput(ctx: ItemContext, kind: 'category' | 'tag', item: TermItem) {
  return {
    name: item.name,
    description: text(item.description),
    slug: item.slug ?? undefined,
    parent:
      kind === 'category' && item.parent !== undefined
        ? item.parent && (await resolveRef(ctx, 'category', item.parent))
        : undefined,
  }
}

/** What events, venues and organizers share: text, publication, protection, an image; a new item gets the run's status unless the source gives one. */
async function sharedInput(
  ctx: ItemContext,
  item: EventItem | VenueItem | OrganizerItem,
  stored: StoredItem | undefined,
): Promise<AuthoredInput> {
  return {
    description: item.description === undefined ? undefined : asHtml(item.description),
    excerpt: text(item.excerpt),
    slug: item.slug ?? undefined,
    status: item.status ?? (stored ? undefined : ctx.status),
    password: text(item.password),
    date_utc: item.publishedAt ?? undefined,
    image: item.image === undefined ? undefined : item.image ? await image(ctx, item.image) : '',
  }
}

async function venueInput(
  ctx: ItemContext,
  item: VenueItem,
  stored: StoredItem | undefined,
): Promise<VenueInput> {
  const input: VenueInput = {
    ...(await sharedInput(ctx, item, stored)),
    venue: item.name,
    // A new venue gets the address its source's text gave after the name; an existing one keeps its own.
    address: item.address !== undefined || stored ? text(item.address) : text(item.newAddress),
    city: text(item.city),
    country: text(item.country),
    zip: text(item.zip),
    phone: text(item.phone),
    state: text(item.state),
    province: text(item.province),
    website: text(website(ctx, item.website)),
    geo_lat: item.geoLat === undefined ? undefined : (item.geoLat ?? ''),
    geo_lng: item.geoLng === undefined ? undefined : (item.geoLng ?? ''),
    show_map: item.showMap,
    show_map_link: item.showMapLink,
  }
  if (item.stateProvince !== undefined) {
    const country = item.country !== undefined ? item.country : stored?.country
    if (item.state === undefined && item.province === undefined)
      input[inUnitedStates(country) ? 'state' : 'province'] = text(item.stateProvince)
    input.stateprovince = text(item.stateProvince)
  }
  return input
}

async function organizerInput(
  ctx: ItemContext,
  item: OrganizerItem,
  stored: StoredItem | undefined,
): Promise<OrganizerInput> {
  return {
    ...(await sharedInput(ctx, item, stored)),
    organizer: item.name,
    email: text(item.email),
    phone: text(item.phone),
    website: text(website(ctx, item.website)),
  }
}

const WALL = 'yyyy-MM-dd HH:mm:ss'

/** A zone the source names must be one the calendar knows; a date and time must be one. */
function checkWhen(item: EventItem): void {
  if (item.timezone && !parseZone(item.timezone))
    throw new ItemError(`timezone: not a known time zone (${item.timezone}).`)
  if (![item.start, item.end].every((wall) => DateTime.fromFormat(wall, WALL).isValid))
    throw new ItemError(`start or end: not a date and time (${item.start}, ${item.end}).`)
}

async function eventInput(
  ctx: ItemContext,
  item: EventItem,
  stored: StoredItem | undefined,
): Promise<EventInput> {
  checkWhen(item)
  const input: EventInput = {
    ...(await sharedInput(ctx, item, stored)),
    title: item.title,
    timezone: text(item.timezone),
    start_date: item.start,
    end_date: item.end,
    all_day: item.allDay,
    featured: item.featured,
    sticky: item.sticky,
    // A new event the source says nothing of shows its map, as the collection's default (the
    // namespace's create, as upstream's, stores no map unless asked).
    show_map: item.showMap ?? (stored ? undefined : true),
    show_map_link: item.showMapLink ?? (stored ? undefined : true),
    hide_from_listings: item.hideFromListings,
    spelled_cost: {
      values: item.cost,
      symbol: item.currencySymbol,
      code: item.currencyCode,
      position: item.currencyPosition,
    },
    recurrence: text(item.recurrence),
    website: text(website(ctx, item.website)),
    venue:
      item.venue === undefined
        ? undefined
        : item.venue && (await resolveRef(ctx, 'venue', item.venue)),
    organizer: item.organizers && (await resolveRefs(ctx, 'organizer', item.organizers)),
    categories: (await eventCategories(ctx, item, stored))?.map(String),
    tags: item.tags && (await resolveRefs(ctx, 'tag', item.tags)).map(String),
  }
  if (item.occurrenceOf) {
    // An occurrence whose first event was not imported (yet) stands alone; one made here is an exception, so its series' upkeep leaves it as it is.
    input.parent = (await mappedLocal(ctx, 'event', item.occurrenceOf.parent.sourceId)) ?? null
    if (!stored && input.parent) input.recurrence_exception = true
  }
  return input
}

/** The event's own categories, and those the run gives every event (a subscription's). */
async function eventCategories(
  ctx: ItemContext,
  item: EventItem,
  stored: StoredItem | undefined,
): Promise<number[] | undefined> {
  const own = item.categories && (await resolveRefs(ctx, 'category', item.categories))
  if (!ctx.extraCategories.length) return own
  const kept = own ?? ((stored?.categories as number[] | undefined) ?? []).map(Number)
  return [...new Set([...kept, ...ctx.extraCategories])]
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

/** An image: a stored one's id, checked by the operation, else the download of its URL, once per source. */
async function image(ctx: ItemContext, value: string): Promise<string | number> {
  // The namespace reads 0 as "no image" (docs/api.md §6.4): written in a file's cell, it is an id
  // that names nothing, and the event was imported without its image, unsaid.
  if (/^0+$/.test(value)) throw new ItemError(`image: No image has this id (${value}).`)
  if (/^\d+$/.test(value)) return value
  if (!webUrl(value)) throw new ItemError(`image: neither an image URL nor an image id (${value}).`)
  const mapped = await ctx.mappings.find('image', value)
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
  await ctx.mappings.record('image', value, { localId: id, hash: null })
  return id
}

async function resolveRefs(ctx: ItemContext, kind: LinkKind, refs: ItemRef[]): Promise<number[]> {
  const ids: number[] = []
  for (const ref of refs) ids.push(await resolveRef(ctx, kind, ref))
  return [...new Set(ids)]
}

/** A new linked item with only its name, by the operation's data step; venues and organizers get the run's status. */
function newLinkData(ctx: ItemContext, kind: LinkKind, name: string): Promise<Data> | Data {
  if (kind === 'category' || kind === 'tag') return termData({ name })
  const input = {
    status: ctx.status,
    ...(kind === 'venue' ? { venue: name } : { organizer: name }),
  }
  return authoredData(ctx, AUTHORED_KIND[kind], input, undefined)
}

/**
 * The local id of a linked item (docs/api.md §23.2): the item its source id was imported as, else (for
 * the kinds the source matches by name) the local item of that name, else (a term, made at the top
 * level) the top-level term of that name, else a new one; an item it had to
 * make counts as created. A mapping found is left as it is: its hash stays the one its own item was
 * imported with.
 */
async function resolveRef(ctx: ItemContext, kind: LinkKind, ref: ItemRef): Promise<number> {
  const mapped = await mappedLocal(ctx, kind, ref.sourceId)
  if (mapped !== undefined) return mapped
  let id = ctx.matchByName.includes(kind) ? await localByName(ctx, kind, ref.name) : undefined
  if (id === undefined && (kind === 'category' || kind === 'tag'))
    id = await localSibling(ctx, kind, ref.name, 0)
  if (id === undefined) {
    id = await createLocal(ctx, kind, await newLinkData(ctx, kind, ref.name))
    ctx.madeFromLinks.push(kind)
  }
  // No hash: the linked item's own content was never imported, so its own row will be compared in full.
  await ctx.mappings.record(kind, ref.sourceId, { localId: id, hash: null })
  return id
}
