import { pageMessagesOf } from '../i18n/messages'
import { alternatesOf, type PageCollection } from './alternates'
import { htmlResponse, notFound, pageDocument, type Head } from './document'
import { html, trusted, type Html } from './html'
import { eventList, pageNumber, pager } from './parts'
import { pathOf, type Site } from './site'
import type { EventJson, ListJson, OrganizerJson, TermJson, VenueJson } from './types'

const PUBLIC = 'public, max-age=0, must-revalidate'

/** An item's page: what it is, then its events from the namespace's list filtered by it, page by page. */
async function itemPage(
  site: Site,
  visit: URL,
  item: { collection: PageCollection; id: number; head: Omit<Head, 'language' | 'alternates'>; about: Html; filter: Record<string, string | number> },
): Promise<Response> {
  const page = pageNumber(visit.searchParams)
  if (page === undefined) return notFound(site.language)
  const [events, alternates] = await Promise.all([
    site.ns.get<ListJson<'events', EventJson>>('/events', { ...item.filter, page }),
    alternatesOf(site.payload, site.in, item.collection, item.id),
  ])
  // A page past the end (the namespace's 404) is not there either.
  if (events.status !== 200) return notFound(site.language)
  const words = pageMessagesOf(site.language)
  const body = html`${item.about}
    <section aria-labelledby="upcoming">
      <h2 id="upcoming">${words.events}</h2>
      ${eventList(site.language, events.body.events, words.noUpcomingEvents)}
      ${pager(site.language, visit.pathname, visit.searchParams, page, events.body.total_pages)}
    </section>`
  return htmlResponse(pageDocument({ ...item.head, language: site.language, alternates }, body), 200, PUBLIC)
}

/** Structured data as a page's head carries it: the namespace leaves `@context` out of venues and organizers, as upstream. */
function standalone(jsonLd: Record<string, unknown> | undefined): unknown {
  return jsonLd && { '@context': 'http://schema.org', ...jsonLd }
}

function text(markup: string | undefined): string | undefined {
  return markup?.replace(/<[^>]*>/g, '').trim() || undefined
}

export async function venuePage(site: Site, slug: string, visit: URL): Promise<Response> {
  const answer = await site.ns.get<VenueJson>(`/venues/by-slug/${encodeURIComponent(slug)}`)
  if (answer.status !== 200) return notFound(site.language)
  const venue = answer.body
  const words = pageMessagesOf(site.language)
  const address = [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country].filter(Boolean)
  const about = html`<h1>${venue.venue}</h1>
    ${address.length ? html`<address>${address.join(', ')}</address>` : ''}
    ${venue.phone ? html`<p>${words.phone} <a href="${`tel:${venue.phone}`}">${venue.phone}</a></p>` : ''}
    ${venue.website ? html`<p><a href="${venue.website}">${venue.website}</a></p>` : ''}
    ${venue.description ? html`<div class="description">${trusted(venue.description)}</div>` : ''}`
  return itemPage(site, visit, {
    collection: 'venues',
    id: venue.id,
    head: {
      title: venue.venue ?? '',
      description: text(venue.description),
      canonical: venue.url,
      image: venue.image?.url,
      type: 'place',
      jsonLd: standalone(venue.json_ld),
    },
    about,
    filter: { venue: venue.id },
  })
}

export async function organizerPage(site: Site, slug: string, visit: URL): Promise<Response> {
  const answer = await site.ns.get<OrganizerJson>(`/organizers/by-slug/${encodeURIComponent(slug)}`)
  if (answer.status !== 200) return notFound(site.language)
  const organizer = answer.body
  const words = pageMessagesOf(site.language)
  const about = html`<h1>${organizer.organizer}</h1>
    ${organizer.phone ? html`<p>${words.phone} <a href="${`tel:${organizer.phone}`}">${organizer.phone}</a></p>` : ''}
    ${organizer.email ? html`<p>${words.email} <a href="${`mailto:${organizer.email}`}">${organizer.email}</a></p>` : ''}
    ${organizer.website ? html`<p><a href="${organizer.website}">${organizer.website}</a></p>` : ''}
    ${organizer.description ? html`<div class="description">${trusted(organizer.description)}</div>` : ''}`
  return itemPage(site, visit, {
    collection: 'organizers',
    id: organizer.id,
    head: {
      title: organizer.organizer ?? '',
      description: text(organizer.description),
      canonical: organizer.url,
      image: organizer.image?.url,
      type: 'profile',
      jsonLd: standalone(organizer.json_ld),
    },
    about,
    filter: { organizer: organizer.id },
  })
}

/**
 * `/events/category/{path}/` and `/events/tag/{slug}/`: the term whose permalink is this path (a child
 * category's holds its ancestors, docs/api.md §3.5), found by its slug in the namespace's term list.
 */
export async function termPage(site: Site, taxonomy: 'categories' | 'tags', slugs: string[], visit: URL): Promise<Response> {
  const slug = slugs.at(-1)
  if (!slug) return notFound(site.language)
  const answer = await site.ns.get<ListJson<typeof taxonomy, TermJson>>(`/${taxonomy}`, { slug, hide_empty: 'false' })
  const wanted = visit.pathname.replace(/\/?$/, '/')
  const term = answer.status === 200 ? answer.body[taxonomy].find((candidate) => pathOf(candidate.url) === wanted) : undefined
  if (!term) return notFound(site.language)
  const about = html`<h1>${term.name}</h1>
    ${term.description ? html`<p>${term.description}</p>` : ''}`
  return itemPage(site, visit, {
    collection: taxonomy === 'categories' ? 'event-categories' : 'event-tags',
    id: term.id,
    head: { title: term.name, description: term.description || undefined, canonical: term.url },
    about,
    filter: { [taxonomy]: term.id },
  })
}
