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
import type { CurrencyPosition } from '../../calendar/cost'
import { costDetails, offerPrice, renderCost } from './cost'
import { serializeImage } from './image'
import { organizerJsonLd, serializeOrganizer } from './organizer'
import type { Related } from '../../operations/related'
import { serializeEmbeddedTerm } from './term'
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

/** What a protected event shows to a reader who has not unlocked it (docs/api.md §3.2). */
const REDACTED = {
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

/** The event object of docs/api.md §3.1, key for key and in order. */
export function serializeEvent(
  ctx: RestContext,
  event: Event,
  related: Related,
  options: EventOptions = {},
) {
  const zone = eventZone(ctx, event)
  const startDate = wallClockOfInstant(event.start, zone)
  const endDate = wallClockOfInstant(event.end, zone)
  const utcStart = wallClockOfInstant(event.start, 'UTC')
  const utcEnd = wallClockOfInstant(event.end, 'UTC')
  const url = permalink(ctx, 'event', event.slug)
  const venues = linked([event.venue], related.venues).map((venue) =>
    serializeVenue(ctx, venue, related, { single: options.single }),
  )
  const locked = Boolean(event.hasPassword) && !options.unlocked
  const data = {
    id: event.id,
    ...globalIds(ctx, event.id),
    author: String(idOf(event.author) ?? 0),
    status: event.status,
    ...postDates(ctx, event),
    url,
    rest_url: `${ctx.root}/events/${event.id}`,
    title: event.title ?? '',
    description: event.descriptionHtml ?? '',
    excerpt: excerptHtml(event.excerpt),
    slug: event.slug ?? '',
    image: serializeImage(ctx, related.media.get(idOf(event.image) ?? 0)) ?? false,
    all_day: Boolean(event.allDay),
    start_date: startDate,
    start_date_details: dateDetails(startDate),
    end_date: endDate,
    end_date_details: dateDetails(endDate),
    utc_start_date: utcStart,
    utc_start_date_details: dateDetails(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: dateDetails(utcEnd),
    timezone: zone,
    timezone_abbr: zoneAbbr(zone, new Date(event.start)),
    ...costOf(ctx, event),
    // Never set: the permalink; set to nothing, or to what is no web URL: empty (docs/api.md §3.1, §6.6).
    website: event.website == null ? url : servedWebUrl(event.website),
    show_map: event.showMap !== false,
    show_map_link: event.showMapLink !== false,
    hide_from_listings: Boolean(event.hideFromListings),
    sticky: Boolean(event.sticky),
    featured: Boolean(event.featured),
    categories: byName(linked(event.categories, related.categories)).map((term) =>
      serializeEmbeddedTerm(ctx, 'category', term, related),
    ),
    tags: byName(linked(event.tags, related.tags)).map((term) =>
      serializeEmbeddedTerm(ctx, 'tag', term, related),
    ),
    venue: venues.length === 1 ? venues[0] : venues,
    organizer: linked(event.organizers, related.organizers).map((organizer) =>
      serializeOrganizer(ctx, organizer, related, { single: options.single }),
    ),
    custom_fields: customFieldsOf(ctx, event as unknown as Record<string, unknown>) as unknown,
    recurrence: event.recurrence ?? '',
    post_parent: idOf(event.parent) ?? 0,
  }
  if (locked) return { ...data, ...REDACTED }
  // Upstream builds no schema.org data for a protected post, even once the reader has unlocked it.
  return options.single && !event.hasPassword
    ? { ...data, json_ld: eventJsonLd(ctx, event, related) }
    : data
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
