import type { Event } from '../../payload-types'
import type { RestContext } from '../context'
import {
  dateDetails,
  isoStartOfDay,
  isoWithOffset,
  wallClockOfInstant,
} from '../../calendar/dates/format'
import { zoneAbbr } from '../../calendar/dates/zone'
import { servedWebUrl } from '../../calendar/webUrl'
import {
  excerptHtml,
  globalIds,
  idOf,
  permalink,
  postDates,
  schemaDescription,
  schemaName,
  withSchemaContext,
} from './common'
import { customFieldsOf } from './customFields'
import { jsonArray, JsonObjectWriter, JsonText } from '../http/jsonText'
import type { CurrencyPosition } from '../../calendar/cost'
import { costDetails, offerPrice, renderCost } from './cost'
import { serializeImage } from './image'
import { organizerJsonLd, serializeOrganizer } from './organizer'
import type { Related } from '../../operations/related'
import { serializeEmbeddedTerm, type TermKind } from './term'
import { serializeVenue, venueJsonLd } from './venue'

export type EventOptions = {
  /** Single reads add `json_ld` (docs/api.md §3.1), unless the event is password-protected. */
  single?: boolean
  /** A protected event whose password was given, or that the reader may edit with `context=edit`. */
  unlocked?: boolean
}

function eventZone(ctx: RestContext, event: Event): string {
  return event.timezone || ctx.settings.timezone
}

function byName<T extends { name: string }>(items: T[]): T[] {
  return items.sort((a, b) => a.name.localeCompare(b.name))
}

function linked<T>(ids: unknown, map: Map<number, T>): T[] {
  return (Array.isArray(ids) ? ids : [])
    .map((value) => map.get(idOf(value) ?? 0))
    .filter((item): item is T => item !== undefined)
}

function costOf(ctx: RestContext, event: Event) {
  const values = event.cost ?? []
  const position: CurrencyPosition = event.currencyPosition ?? ''
  return {
    cost: renderCost(
      values,
      event.currencySymbol || ctx.settings.currencySymbol,
      position || ctx.settings.currencyPosition,
    ),
    cost_details: costDetails(
      values,
      event.currencySymbol ?? '',
      event.currencyCode ?? '',
      position,
    ),
  }
}

/** What a protected event shows to a reader who has not unlocked it (docs/api.md §3.2), in place of its own values. */
const REDACTED: Record<string, unknown> = {
  description: '',
  excerpt: '',
  image: false,
  all_day: null,
  cost: '',
  // Upstream's list of protected fields orders these keys differently from its event object.
  cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
  website: '',
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
  custom_fields: [],
}

/**
 * What the events of one answer share, written once: a page's events embed the same few categories,
 * tags, images, venues and organizers again and again.
 */
export type Fragments = Map<string, JsonText | undefined>

function fragment(
  fragments: Fragments,
  key: string,
  write: () => JsonText | undefined,
): JsonText | undefined {
  if (fragments.has(key)) return fragments.get(key)
  const written = write()
  fragments.set(key, written)
  return written
}

function embeddedTerms(
  ctx: RestContext,
  kind: TermKind,
  ids: unknown,
  related: Related,
  fragments: Fragments,
): JsonText {
  const terms = byName(linked(ids, kind === 'category' ? related.categories : related.tags))
  return jsonArray(
    terms.map((term) =>
      fragment(fragments, `${kind}:${term.id}`, () =>
        new JsonObjectWriter().addAll(serializeEmbeddedTerm(ctx, kind, term, related)).done(),
      ),
    ),
  )
}

/** The event's venue object, or `[]` without one (upstream's shape). */
function embeddedVenue(
  ctx: RestContext,
  event: Event,
  related: Related,
  options: EventOptions,
  fragments: Fragments,
) {
  const venue = related.venues.get(idOf(event.venue) ?? 0)
  if (!venue) return []
  return fragment(fragments, `venue:${venue.id}`, () =>
    serializeVenue(ctx, venue, related, { single: options.single }),
  )
}

function embeddedOrganizers(
  ctx: RestContext,
  event: Event,
  related: Related,
  options: EventOptions,
  fragments: Fragments,
): JsonText {
  return jsonArray(
    linked(event.organizers, related.organizers).map((organizer) =>
      fragment(fragments, `organizer:${organizer.id}`, () =>
        serializeOrganizer(ctx, organizer, related, { single: options.single }),
      ),
    ),
  )
}

/**
 * The event object of docs/api.md §3.1, key for key and in order, written as JSON in one pass;
 * `fragments` holds what the other events of the same answer embed too.
 */
export function serializeEvent(
  ctx: RestContext,
  event: Event,
  related: Related,
  options: EventOptions = {},
  fragments: Fragments = new Map(),
): JsonText {
  const zone = eventZone(ctx, event)
  const startDate = wallClockOfInstant(event.start, zone)
  const endDate = wallClockOfInstant(event.end, zone)
  const utcStart = wallClockOfInstant(event.start, 'UTC')
  const utcEnd = wallClockOfInstant(event.end, 'UTC')
  const url = permalink(ctx, 'event', event.slug)
  const locked = Boolean(event.hasPassword) && !options.unlocked
  const out = new JsonObjectWriter()
  // Each redacted key keeps its place, with what a locked event shows instead.
  const add = (key: string, value: () => unknown) =>
    out.add(key, locked && key in REDACTED ? REDACTED[key] : value())
  out
    .add('id', event.id)
    .addAll(globalIds(ctx, event.id))
    .add('author', String(idOf(event.author) ?? 0))
    .add('status', event.status)
    .addAll(postDates(ctx, event))
    .add('url', url)
    .add('rest_url', `${ctx.root}/events/${event.id}`)
    .add('title', event.title ?? '')
  add('description', () => event.descriptionHtml ?? '')
  add('excerpt', () => excerptHtml(event.excerpt))
  out.add('slug', event.slug ?? '')
  add('image', () => {
    const image = idOf(event.image) ?? 0
    return (
      fragment(fragments, `image:${image}`, () => {
        const written = serializeImage(ctx, related.media.get(image))
        return written && new JsonObjectWriter().addAll(written).done()
      }) ?? false
    )
  })
  add('all_day', () => Boolean(event.allDay))
  out
    .add('start_date', startDate)
    .add('start_date_details', dateDetails(startDate))
    .add('end_date', endDate)
    .add('end_date_details', dateDetails(endDate))
    .add('utc_start_date', utcStart)
    .add('utc_start_date_details', dateDetails(utcStart))
    .add('utc_end_date', utcEnd)
    .add('utc_end_date_details', dateDetails(utcEnd))
    .add('timezone', zone)
    .add('timezone_abbr', zoneAbbr(zone, new Date(event.start)))
  const cost = locked ? undefined : costOf(ctx, event)
  add('cost', () => cost!.cost)
  add('cost_details', () => cost!.cost_details)
  // Never set: the permalink; set to nothing, or to what is no web URL: empty (docs/api.md §3.1, §6.6).
  add('website', () => (event.website == null ? url : servedWebUrl(event.website)))
  add('show_map', () => event.showMap !== false)
  add('show_map_link', () => event.showMapLink !== false)
  add('hide_from_listings', () => Boolean(event.hideFromListings))
  add('sticky', () => Boolean(event.sticky))
  add('featured', () => Boolean(event.featured))
  add('categories', () => embeddedTerms(ctx, 'category', event.categories, related, fragments))
  add('tags', () => embeddedTerms(ctx, 'tag', event.tags, related, fragments))
  add('venue', () => embeddedVenue(ctx, event, related, options, fragments))
  add('organizer', () => embeddedOrganizers(ctx, event, related, options, fragments))
  add('custom_fields', () => customFieldsOf(ctx, event as unknown as Record<string, unknown>))
  out.add('recurrence', event.recurrence ?? '').add('post_parent', idOf(event.parent) ?? 0)
  // Upstream builds no schema.org data for a protected post, even once the reader has unlocked it.
  if (options.single && !event.hasPassword) out.add('json_ld', eventJsonLd(ctx, event, related))
  return out.done()
}

/** schema.org Event for single reads of unprotected events (docs/api.md §3.9). */
function eventJsonLd(ctx: RestContext, event: Event, related: Related) {
  const zone = eventZone(ctx, event)
  const venue = related.venues.get(idOf(event.venue) ?? 0)
  const organizer = linked(event.organizers, related.organizers)[0]
  // A protected venue or organizer shows its name only, in json_ld as in its own object.
  const place =
    venue &&
    (venue.hasPassword
      ? { '@type': 'Place', name: schemaName(ctx, venue, venue.name) }
      : venueJsonLd(ctx, venue))
  const host =
    organizer &&
    (organizer.hasPassword
      ? { '@type': 'Person', name: schemaName(ctx, organizer, organizer.name) }
      : organizerJsonLd(ctx, organizer))
  const image = serializeImage(ctx, related.media.get(idOf(event.image) ?? 0))
  const price = offerPrice(event.cost ?? [])
  const url = permalink(ctx, 'event', event.slug)
  return withSchemaContext({
    '@type': 'Event',
    name: schemaName(ctx, event, event.title ?? ''),
    description: schemaDescription(event.excerpt, event.descriptionHtml),
    ...(image ? { image: image.url } : {}),
    url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(new Date(event.start), zone),
    endDate: isoWithOffset(new Date(event.end), zone),
    ...(place ? { location: place } : {}),
    ...(host ? { organizer: host } : {}),
    ...(price
      ? {
          offers: {
            '@type': 'Offer',
            price,
            priceCurrency: event.currencyCode || ctx.settings.currencyCode,
            url,
            category: 'primary',
            availability: 'inStock',
            // Upstream's `validFrom` is the publication day, from its midnight.
            validFrom: isoStartOfDay(
              new Date(event.publishedAt ?? event.createdAt),
              ctx.settings.timezone,
            ),
          },
        }
      : {}),
    performer: 'Organization',
  })
}
