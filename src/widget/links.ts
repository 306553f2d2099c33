import { decodeEntities } from '../calendar/escapeHtml'
import type { VenueJson } from '../calendar/wireTypes'
import { filterParams, isUpstream, trimmedRoot, type CalendarEvent, type Filters } from './api'

/** `YYYY-MM-DD HH:MM:SS` in UTC as iCalendar's basic form, `20261204T180000Z`. */
function basicUtc(wall: string): string {
  return `${wall.replace(/[-:]/g, '').replace(' ', 'T')}Z`
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
}

export function venueOf(event: CalendarEvent): VenueJson | undefined {
  return Array.isArray(event.venue) ? undefined : event.venue
}

export function addressOf(venue: VenueJson): string {
  return [
    venue.address,
    venue.city,
    venue.stateprovince ?? venue.province ?? venue.state,
    venue.zip,
    venue.country,
  ]
    .filter(Boolean)
    .join(', ')
}

/** OpenStreetMap at the venue's coordinates, or a search for its address. */
export function mapLink(venue: VenueJson): string | undefined {
  const lat = Number(venue.geo_lat)
  const lng = Number(venue.geo_lng)
  if (
    venue.geo_lat != null &&
    venue.geo_lng != null &&
    Number.isFinite(lat) &&
    Number.isFinite(lng)
  ) {
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`
  }
  const address = [venue.venue, addressOf(venue)].filter(Boolean).join(', ')
  return address
    ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`
    : undefined
}

/** The event's own iCalendar file: this service's `/events/{id}.ics`, upstream's page with `?ical=1`. */
export function icsLink(root: string, event: CalendarEvent): string {
  if (!isUpstream(root)) return `${trimmedRoot(root)}/events/${event.id}.ics`
  return `${event.url}${event.url.includes('?') ? '&' : '?'}ical=1`
}

/** A calendar application's subscription to the feed of what the widget lists (`webcal://`). */
export function subscriptionLink(root: string, filters: Filters): string {
  const base = trimmedRoot(root)
  const feed = isUpstream(root)
    ? `${base.replace(/\/wp-json\/.*$/, '')}/events/?ical=1`
    : `${base}/events.ics?${filterParams(filters)}`
  return feed.replace(/^https?:/, 'webcal:').replace(/\?$/, '')
}

function textOf(event: CalendarEvent): { title: string; details: string; location: string } {
  const venue = venueOf(event)
  return {
    title: plainText(event.title),
    details: [plainText(event.excerpt || event.description), event.url]
      .filter(Boolean)
      .join('\n\n'),
    location: venue
      ? [plainText(venue.venue ?? ''), addressOf(venue)].filter(Boolean).join(', ')
      : '',
  }
}

export function googleLink(event: CalendarEvent): string {
  const { title, details, location } = textOf(event)
  const dates = event.allDay
    ? `${event.start_date.slice(0, 10).replace(/-/g, '')}/${nextDay(event.end_date.slice(0, 10)).replace(/-/g, '')}`
    : `${basicUtc(event.utc_start_date)}/${basicUtc(event.utc_end_date)}`
  const params = new URLSearchParams({ action: 'TEMPLATE', text: title, dates, details, location })
  if (event.timezone) params.set('ctz', event.timezone)
  return `https://calendar.google.com/calendar/render?${params}`
}

export function outlookLink(event: CalendarEvent): string {
  const { title, details, location } = textOf(event)
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: title,
    body: details,
    location,
  })
  if (event.allDay) {
    params.set('startdt', event.start_date.slice(0, 10))
    params.set('enddt', nextDay(event.end_date.slice(0, 10)))
    params.set('allday', 'true')
  } else {
    params.set('startdt', `${event.utc_start_date.replace(' ', 'T')}Z`)
    params.set('enddt', `${event.utc_end_date.replace(' ', 'T')}Z`)
  }
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params}`
}

/**
 * Text out of a namespace string: WordPress escapes titles into entities, and descriptions are HTML
 * from another site, which the widget never puts into its page as markup.
 */
export function plainText(html: string): string {
  const text = html.replace(/<\/(p|div|li|h\d)>|<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, '')
  return decodeEntities(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
