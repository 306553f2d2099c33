import { ICalEventClass, ICalEventStatus, type ICalEventData } from 'ical-generator'
import type { Event, Organizer, Venue } from '../../payload-types'
import type { RestContext } from '../context'
import { idOf, permalink } from '../serialize/common'
import { serializeImage } from '../serialize/image'
import type { Related } from '../serialize/related'
import { uriValue } from './image'
import { plainText } from './text'
import { eventTimes } from './times'

/** An event's zone: its own, else the site's. */
export function zoneOf(ctx: RestContext, event: Pick<Event, 'timezone'>): string {
  return event.timezone || ctx.settings.timezone
}

/** `{id}@{host}`: the same event keeps its UID in every feed, file and language. */
export function uidOf(ctx: RestContext, id: number): string {
  return `${id}@${new URL(ctx.root).host}`
}

/** Published events (public or private) are confirmed; scheduled, draft and pending ones tentative. */
const STATUS: Record<Event['status'], ICalEventStatus | null> = {
  publish: ICalEventStatus.CONFIRMED,
  private: ICalEventStatus.CONFIRMED,
  future: ICalEventStatus.TENTATIVE,
  draft: ICalEventStatus.TENTATIVE,
  pending: ICalEventStatus.TENTATIVE,
  trash: null,
}

function linked<T>(ids: unknown, records: Map<number, T>): T[] {
  return (Array.isArray(ids) ? ids : []).map((value) => records.get(idOf(value) ?? 0)).filter((record): record is T => record !== undefined)
}

/** LOCATION and GEO: the venue's name, and its address and coordinates unless the venue is protected (name only). */
function location(venue: Venue | undefined): ICalEventData['location'] {
  if (!venue) return null
  if (venue.hasPassword) return { title: venue.name }
  const region = venue.stateprovince || venue.state || venue.province
  const address = [venue.address, venue.city, region, venue.zip, venue.country].filter(Boolean).join(', ')
  const geo = typeof venue.geoLat === 'number' && typeof venue.geoLng === 'number' ? { lat: venue.geoLat, lon: venue.geoLng } : undefined
  return { title: venue.name, ...(address ? { address } : {}), ...(geo ? { geo } : {}) }
}

/** ORGANIZER: its value is a `mailto:` address, so it names the first organizer with an e-mail it may show. */
function organizer(organizers: Organizer[]): ICalEventData['organizer'] {
  const found = organizers.find((candidate) => candidate.email && !candidate.hasPassword)
  return found ? { name: parameterText(found.name), email: found.email! } : null
}

/**
 * Text as a quoted parameter value (ORGANIZER's CN). RFC 5545 lets no DQUOTE or control character into
 * one, and ical-generator's backslash before a DQUOTE is no escape there: a name could close the quotes
 * and add parameters of its own (`SENT-BY=`). DQUOTE becomes `'`, control characters a space.
 */
function parameterText(text: string): string {
  return text.replace(/"/g, "'").replace(/\p{Cc}/gu, ' ')
}

/** What RFC 5545 asks to grow with each revision: the seconds between the event's creation and its last change. */
function sequenceOf(event: Event): number {
  return Math.max(0, Math.floor((new Date(event.updatedAt).getTime() - new Date(event.createdAt).getTime()) / 1000))
}

/**
 * One event's VEVENT, but for the series parts (docs/api.md §22). A password-protected event that the
 * request did not unlock shows its title and times only, as lists show it (docs/api.md §3.2). DTSTAMP
 * is the last change, as RFC 5545 asks of a calendar without METHOD: the same content gives the same
 * text, and so the same ETag.
 */
export function eventData(ctx: RestContext, event: Event, related: Related, unlocked: boolean): ICalEventData {
  const times = eventTimes(event, zoneOf(ctx, event))
  const base: ICalEventData = {
    id: uidOf(ctx, event.id),
    sequence: sequenceOf(event),
    stamp: new Date(event.updatedAt),
    lastModified: new Date(event.updatedAt),
    ...times,
    summary: event.title ?? '',
  }
  if (event.hasPassword && !unlocked) return base
  const html = (event.descriptionHtml ?? '').trim()
  const text = html ? plainText(html) : (event.excerpt ?? '').trim()
  const image = serializeImage(ctx, related.media.get(idOf(event.image) ?? 0))
  return {
    ...base,
    created: new Date(event.createdAt),
    description: text || html ? { plain: text, ...(html ? { html } : {}) } : null,
    location: location(related.venues.get(idOf(event.venue) ?? 0)),
    url: permalink(ctx, 'event', event.slug),
    // The featured image, written again as IMAGE by `ImagedEvent`.
    attachments: image ? [uriValue(String(image.url))] : [],
    categories: linked(event.categories, related.categories).map((category) => ({ name: category.name })),
    organizer: organizer(linked(event.organizers, related.organizers)),
    status: STATUS[event.status],
    ...(event.status === 'private' ? { class: ICalEventClass.PRIVATE } : {}),
  }
}
