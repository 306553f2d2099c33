/**
 * Objects of the REST API v1 (this service's `cal/events/v1`, upstream's `tribe/events/v1`) as import
 * items (docs/api.md §23.5): what an answer shows becomes the item's fields, what it omits is empty,
 * and an item whose content the site withholds (password-protected, not unlocked) is unreadable
 * rather than imported empty.
 */
import { isAmount, type CurrencyPosition } from '../../calendar/cost'
import { decodeEntities } from '../../calendar/escapeHtml'
import { slugify } from '../../collections/fields/slug'
import type {
  EventItem,
  ImportKind,
  ItemRef,
  OrganizerItem,
  SourceItem,
  TermItem,
  Translations,
  UnreadableItem,
  VenueItem,
} from '../items'

type Json = Record<string, unknown>

/** What converting one object needs besides the object. */
export type ObjectContext = {
  /** Upstream (WordPress) writes titles and names with HTML entities (`&#8217;`): decoded. */
  wordpress: boolean
  /** Passwords of the kind by id, when the credentials could read them; undefined: unknown, left as stored. */
  passwords?: Map<number, string>
  /** The same object in each other language, by language. */
  translations: Map<string, Json>
  /** Categories by id (for a parent's name). */
  categories?: Map<number, Json>
  /** A later event of a series: its first event's id. */
  parentOf?: Map<number, number>
}

const PROTECTED =
  'password-protected: the site withholds its content; import with credentials that may edit it'

/** An excerpt as served (paragraphs of escaped text) back to the text it was written as. */
export function excerptText(html: unknown): string | null {
  if (typeof html !== 'string' || !html.trim()) return null
  const text = html
    .replace(/<br\s*\/?>\s*\n?/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
  return decodeEntities(text).trim() || null
}

const str = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value : null
const text = (ctx: ObjectContext, value: unknown): string =>
  typeof value === 'string' ? (ctx.wordpress ? decodeEntities(value) : value) : ''
const bool = (value: unknown): boolean | undefined =>
  typeof value === 'boolean' ? value : undefined
const num = (value: unknown): number | null => {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim()
        ? Number(value)
        : NaN
  return Number.isFinite(n) ? n : null
}

/** `2031-06-12 17:30:00` (UTC) as ISO 8601. */
function utcInstant(value: unknown): string | null {
  const match = typeof value === 'string' && /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(value)
  return match ? `${match[1]}T${match[2]}.000Z` : null
}

function idOf(object: Json): number | undefined {
  const id = Number(object.id)
  return Number.isInteger(id) && id > 0 ? id : undefined
}

function refTo(value: unknown, nameKey: string, ctx: ObjectContext): ItemRef | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  const id = idOf(value as Json)
  return id === undefined
    ? undefined
    : { sourceId: String(id), name: text(ctx, (value as Json)[nameKey]) }
}

function refsTo(value: unknown, nameKey: string, ctx: ObjectContext): ItemRef[] {
  return (Array.isArray(value) ? value : [])
    .map((entry) => refTo(entry, nameKey, ctx))
    .filter((ref): ref is ItemRef => ref !== undefined)
}

/** `trash` is listed only when the import asks for the trash (docs/api.md §23.5). */
const STATUSES = new Set(['publish', 'future', 'draft', 'pending', 'private', 'trash'])

function status(value: unknown) {
  return typeof value === 'string' && STATUSES.has(value) ? (value as 'publish') : undefined
}

/** The localized fields of an object as the item holds them. */
type Localized = Record<string, string | null>

function translationsOf(
  ctx: ObjectContext,
  own: Localized,
  localized: (object: Json) => Localized,
): Translations | undefined {
  const translations: Translations = {}
  for (const [language, object] of ctx.translations) {
    const values = localized(object)
    if (Object.keys(values).some((field) => (values[field] ?? null) !== (own[field] ?? null)))
      translations[language] = values
  }
  return Object.keys(translations).length ? translations : undefined
}

function unreadable(
  kind: ImportKind,
  label: string,
  sourceId: string | undefined,
  error: string,
): UnreadableItem {
  return { kind, label, sourceId, error }
}

/** `12 (Jazz night)`: how a report names an object of the site. */
const labelOf = (id: number | undefined, name: string) => `${id ?? '?'}${name ? ` (${name})` : ''}`

export function termItem(
  kind: 'category' | 'tag',
  object: Json,
  ctx: ObjectContext,
): SourceItem | UnreadableItem {
  const id = idOf(object)
  const name = text(ctx, object.name).trim()
  const label = labelOf(id, name)
  if (id === undefined || !name)
    return unreadable(
      kind,
      label,
      id === undefined ? undefined : String(id),
      'not a term of the REST API v1: no id or name',
    )
  const localized = (term: Json): Localized => ({
    name: text(ctx, term.name).trim(),
    description: str(term.description),
    slug: str(term.slug),
  })
  const own = localized(object)
  const data: TermItem = {
    name,
    description: own.description,
    slug: own.slug,
    translations: translationsOf(ctx, own, localized),
  }
  if (kind === 'category') {
    const parent = Number(object.parent) || 0
    const parentTerm = ctx.categories?.get(parent)
    data.parent = parent
      ? { sourceId: String(parent), name: parentTerm ? text(ctx, parentTerm.name) : '' }
      : null
  }
  return { kind, label, sourceId: String(id), data } as SourceItem
}

/** What venues and organizers share; their objects leave out what is empty. */
function authoredFields(object: Json, ctx: ObjectContext, id: number) {
  const image =
    object.image && typeof object.image === 'object' ? str((object.image as Json).url) : null
  return {
    description: str(object.description),
    excerpt: excerptText(object.excerpt),
    slug: str(object.slug),
    status: status(object.status),
    publishedAt: utcInstant(object.date_utc),
    image,
    password: ctx.passwords ? (ctx.passwords.get(id) ?? null) : undefined,
  }
}

/**
 * A venue or organizer as an item: its name under `nameKey`, the authored fields every record has and
 * `own`, its kind's fields; unreadable without an id or a name, or when the site withholds it.
 */
function linkedItem<K extends 'venue' | 'organizer'>(
  kind: K,
  object: Json,
  ctx: ObjectContext,
  withheld: boolean,
  own: Omit<
    { venue: VenueItem; organizer: OrganizerItem }[K],
    'name' | 'translations' | keyof ReturnType<typeof authoredFields>
  >,
): SourceItem | UnreadableItem {
  const id = idOf(object)
  const name = typeof object[kind] === 'string' ? text(ctx, object[kind]).trim() : ''
  const label = labelOf(id, name)
  if (id === undefined)
    return unreadable(kind, label, undefined, `not a ${kind} of the REST API v1: no id`)
  // Upstream replaces a protected venue's or organizer's name with [].
  if (Array.isArray(object[kind]) || withheld) return unreadable(kind, label, String(id), PROTECTED)
  if (!name) return unreadable(kind, label, String(id), `no name (${kind})`)
  const localized = (each: Json): Localized => ({
    name: text(ctx, each[kind]).trim(),
    description: str(each.description),
    excerpt: excerptText(each.excerpt),
    slug: str(each.slug),
  })
  const data = {
    name,
    ...authoredFields(object, ctx, id),
    ...own,
    translations: translationsOf(ctx, localized(object), localized),
  }
  return { kind, label, sourceId: String(id), data } as SourceItem
}

export function venueItem(object: Json, ctx: ObjectContext): SourceItem | UnreadableItem {
  // Ours keeps a protected venue's name and nulls its flags.
  return linkedItem('venue', object, ctx, object.show_map === null, {
    address: str(object.address),
    city: str(object.city),
    country: str(object.country),
    state: str(object.state),
    province: str(object.province),
    stateProvince: str(object.stateprovince),
    zip: str(object.zip),
    phone: str(object.phone),
    website: str(object.website),
    geoLat: num(object.geo_lat),
    geoLng: num(object.geo_lng),
    showMap: bool(object.show_map),
    showMapLink: bool(object.show_map_link),
  })
}

export function organizerItem(object: Json, ctx: ObjectContext): SourceItem | UnreadableItem {
  return linkedItem('organizer', object, ctx, false, {
    email: str(object.email),
    phone: str(object.phone),
    website: str(object.website),
  })
}

const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
const POSITIONS = new Set<CurrencyPosition>(['prefix', 'postfix', ''])

/**
 * The cost values as the event was written: `cost_details.values` gives amounts, but a cost in words
 * only as its slug (`Free` → `free`); the `cost` text shows such a cost as written (its values joined
 * by `, `), so each slug is read back from there. A word beside amounts, which the text leaves out,
 * stays a slug.
 */
export function costValues(values: unknown, text: unknown): string[] {
  if (!Array.isArray(values)) return []
  const shown = typeof text === 'string' ? text.trim() : ''
  const written = shown ? [shown, ...shown.split(', ')] : []
  return values
    .map(String)
    .map((value) =>
      isAmount(value) ? value : (written.find((word) => slugify(word) === value) ?? value),
    )
}

/**
 * The currency symbol and position the site showed the event's cost with (`25€`, `$10 – $20`): an
 * event without its own is shown with the site's defaults, which `cost_details` leaves empty, so the
 * event keeps here what readers saw there rather than taking this site's defaults.
 */
export function shownCurrency(text: unknown): {
  symbol: string | null
  position: CurrencyPosition
} {
  const bound = typeof text === 'string' ? text.split(' – ').at(-1)!.trim() : ''
  const match = /^(\D*?)\s*\d[\d.,]*\s*(\D*?)$/.exec(bound)
  const [prefix, postfix] = [match?.[1]?.trim() ?? '', match?.[2]?.trim() ?? '']
  if (prefix) return { symbol: prefix, position: 'prefix' }
  if (postfix) return { symbol: postfix, position: 'postfix' }
  return { symbol: null, position: '' }
}

const isWallClock = (value: unknown): value is string =>
  typeof value === 'string' && WALL_CLOCK.test(value)

/** An event's cost as the site keeps it: its values as spelled, its currency and the symbol's place. */
function eventCost(
  object: Json,
  ctx: ObjectContext,
): Pick<EventItem, 'cost' | 'currencySymbol' | 'currencyCode' | 'currencyPosition'> {
  const costDetails = (
    object.cost_details && typeof object.cost_details === 'object' ? object.cost_details : {}
  ) as Json
  const position = costDetails.currency_position
  const costText = text(ctx, object.cost)
  const shown = shownCurrency(costText)
  return {
    cost: costValues(costDetails.values, costText),
    currencySymbol: str(costDetails.currency_symbol) ?? shown.symbol,
    currencyCode: str(costDetails.currency_code),
    currencyPosition:
      POSITIONS.has(position as CurrencyPosition) && position
        ? (position as CurrencyPosition)
        : shown.position,
  }
}

/** A word beside amounts: the site showed it only as its slug. */
function costNotes(cost: string[], costText: string): string[] {
  return cost
    .filter((value) => !isAmount(value) && slugify(value) === value && !costText.includes(value))
    .map(
      (slug) => `cost "${slug}": the site gives this word beside amounts only as its slug, kept so`,
    )
}

export function eventItem(object: Json, ctx: ObjectContext): SourceItem | UnreadableItem {
  const id = idOf(object)
  const title = text(ctx, object.title).trim()
  const label = labelOf(id, title)
  if (id === undefined)
    return unreadable('event', label, undefined, 'not an event of the REST API v1: no id')
  const sourceId = String(id)
  // A protected event not unlocked: its flags are null and its content empty (docs/api.md §3.2).
  if (object.all_day === null || object.featured === null)
    return unreadable('event', label, sourceId, PROTECTED)
  const start = object.start_date
  const end = object.end_date
  if (!isWallClock(start) || !isWallClock(end))
    return unreadable(
      'event',
      label,
      sourceId,
      `start_date and end_date must be "YYYY-MM-DD HH:MM:SS" (${String(start)}, ${String(end)})`,
    )
  if (!title) return unreadable('event', label, sourceId, 'no title')
  const localized = (event: Json): Localized => ({
    title: text(ctx, event.title).trim(),
    description: str(event.description),
    excerpt: excerptText(event.excerpt),
    slug: str(event.slug),
  })
  const image =
    object.image && typeof object.image === 'object' ? str((object.image as Json).url) : null
  // A website never set is served as the event's permalink: that is no website of its own.
  const website = object.website === object.url ? null : str(object.website)
  const parent = ctx.parentOf?.get(id)
  const slug = str(object.slug)
  const data: EventItem = {
    title,
    description: str(object.description),
    excerpt: excerptText(object.excerpt),
    slug,
    status: status(object.status),
    publishedAt: utcInstant(object.date_utc),
    password: ctx.passwords ? (ctx.passwords.get(id) ?? null) : undefined,
    image,
    start,
    end: end < start ? start : end,
    allDay: bool(object.all_day),
    timezone: str(object.timezone),
    venue: refTo(object.venue, 'venue', ctx) ?? null,
    organizers: refsTo(object.organizer, 'organizer', ctx),
    categories: refsTo(object.categories, 'name', ctx),
    tags: refsTo(object.tags, 'name', ctx),
    ...eventCost(object, ctx),
    website,
    featured: bool(object.featured),
    sticky: bool(object.sticky),
    showMap: bool(object.show_map),
    showMapLink: bool(object.show_map_link),
    hideFromListings: bool(object.hide_from_listings),
    recurrence: typeof object.recurrence === 'string' ? object.recurrence || null : undefined,
    translations: translationsOf(ctx, localized(object), localized),
  }
  if (parent !== undefined) {
    // An occurrence's slug ends with the day its series gave it, which an exception moved elsewhere keeps.
    const day = /-(\d{4}-\d{2}-\d{2})$/.exec(slug ?? '')?.[1] ?? start.slice(0, 10)
    data.occurrenceOf = { parent: { sourceId: String(parent), name: '' }, day }
    data.recurrence = undefined
  }
  const notes = costNotes(data.cost ?? [], text(ctx, object.cost))
  return { kind: 'event', label, sourceId, data, ...(notes.length ? { notes } : {}) }
}
