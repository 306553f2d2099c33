import type { Event, Organizer, Venue } from '../../payload-types'
import type { RestContext } from '../context'
import { idOf, permalink } from '../serialize/common'
import { serializeImage } from '../serialize/image'
import type { Related } from '../../operations/related'
import { uriValue } from './syntax'
import { plainText } from './text'
import { eventTimes } from './times'
import type { VEvent } from './vevent'

/** An event's zone: its own, else the site's. */
export function zoneOf(ctx: RestContext, event: Pick<Event, 'timezone'>): string {
  return event.timezone || ctx.settings.timezone
}

/** `{id}@{host}`: the same event keeps its UID in every feed, file and language. */
export function uidOf(ctx: RestContext, id: number): string {
  return `${id}@${new URL(ctx.root).host}`
}

/** Published events (public or private) are confirmed; scheduled, draft and pending ones tentative. */
const STATUS: Record<Event['status'], VEvent['status']> = {
  publish: 'CONFIRMED',
  private: 'CONFIRMED',
  future: 'TENTATIVE',
  draft: 'TENTATIVE',
  pending: 'TENTATIVE',
  trash: undefined,
}

function linked<T>(ids: unknown, records: Map<number, T>): T[] {
  return (Array.isArray(ids) ? ids : [])
    .map((value) => records.get(idOf(value) ?? 0))
    .filter((record): record is T => record !== undefined)
}

/** LOCATION and GEO: the venue's name, and its address and coordinates unless the venue is protected (name only). */
function location(venue: Venue | undefined): VEvent['location'] {
  if (!venue) return undefined
  if (venue.hasPassword) return { title: venue.name }
  const region = venue.stateprovince || venue.state || venue.province
  const address = [venue.address, venue.city, region, venue.zip, venue.country]
    .filter(Boolean)
    .join(', ')
  const geo =
    typeof venue.geoLat === 'number' && typeof venue.geoLng === 'number'
      ? { lat: venue.geoLat, lon: venue.geoLng }
      : undefined
  return { title: venue.name, ...(address ? { address } : {}), ...(geo ? { geo } : {}) }
}

/** ORGANIZER: its value is a `mailto:` address, so it names the first organizer with an e-mail it may show. */
function organizer(organizers: Organizer[]): VEvent['organizer'] {
  const found = organizers.find((candidate) => candidate.email && !candidate.hasPassword)
  return found ? { name: found.name, email: found.email! } : undefined
}

/** What RFC 5545 asks to grow with each revision: the seconds between the event's creation and its last change. */
function sequenceOf(event: Event): number {
  return Math.max(
    0,
    Math.floor((new Date(event.updatedAt).getTime() - new Date(event.createdAt).getTime()) / 1000),
  )
}

/**
 * One event's VEVENT, but for the series parts (docs/api.md §22). A password-protected event that the
 * request did not unlock shows its title and times only, as lists show it (docs/api.md §3.2). DTSTAMP
 * is the last change, as RFC 5545 asks of a calendar without METHOD: the same content gives the same
 * text, and so the same ETag.
 */
export function eventData(
  ctx: RestContext,
  event: Event,
  related: Related,
  unlocked: boolean,
): VEvent {
  const base: VEvent = {
    uid: uidOf(ctx, event.id),
    sequence: sequenceOf(event),
    modified: new Date(event.updatedAt),
    times: eventTimes(event, zoneOf(ctx, event)),
    summary: event.title ?? '',
    categories: [],
  }
  if (event.hasPassword && !unlocked) return base
  const html = (event.descriptionHtml ?? '').trim()
  const text = html ? plainText(html) : (event.excerpt ?? '').trim()
  const image = serializeImage(ctx, related.media.get(idOf(event.image) ?? 0))
  return {
    ...base,
    created: new Date(event.createdAt),
    description: text || html ? { plain: text, ...(html ? { html } : {}) } : undefined,
    location: location(related.venues.get(idOf(event.venue) ?? 0)),
    url: permalink(ctx, 'event', event.slug),
    image: image ? uriValue(String(image.url)) : undefined,
    categories: linked(event.categories, related.categories).map((category) => category.name),
    organizer: organizer(linked(event.organizers, related.organizers)),
    status: STATUS[event.status],
    private: event.status === 'private',
  }
}
