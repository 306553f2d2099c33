import { pageMessagesOf } from '../i18n/messages'
import { alternatesOf, type PageCollection } from './alternates'
import { htmlResponse, notFound, ownWordsLanguage, pageDocument, type Head } from './document'
import { html, trusted, type Html } from './html'
import { eventList, pageNumber, pager } from './parts'
import { pathOf, type Site } from './site'
import type { EventJson, ListJson, OrganizerJson, TermJson, VenueJson } from '../calendar/wireTypes'

const PUBLIC = 'public, max-age=0, must-revalidate'

/** An item's page: what it is, then its events from the namespace's list filtered by it, page by page. */
async function itemPage(
  site: Site,
  visit: URL,
  item: {
    collection: PageCollection
    id: number
    head: Omit<Head, 'language' | 'alternates'>
    /** What the item is, its own words carrying `own` (`ownWordsLanguage`). */
    about: (own: Html) => Html
    filter: Record<string, string | number>
  },
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
  const body = html`${item.about(ownWordsLanguage(site.language, alternates))}
    <section aria-labelledby="upcoming">
      <h2 id="upcoming">${words.events}</h2>
      ${eventList(site.language, events.body.events, words.noUpcomingEvents)}
      ${pager(site.language, visit.pathname, visit.searchParams, page, events.body.total_pages)}
    </section>`
  return htmlResponse(
    pageDocument({ ...item.head, language: site.language, alternates }, body),
    200,
    PUBLIC,
  )
}

/** Structured data as a page's head carries it: the namespace leaves `@context` out of venues and organizers, as upstream. */
function standalone(jsonLd: Record<string, unknown> | undefined): unknown {
  return jsonLd && { '@context': 'http://schema.org', ...jsonLd }
}

function text(markup: string | undefined): string | undefined {
  return markup?.replace(/<[^>]*>/g, '').trim() || undefined
}

/** What a venue's page and an organizer's differ in: the key of its name and of its events' filter, its Open Graph type. */
const LINKED_PAGES = {
  venues: { singular: 'venue', type: 'place' },
  organizers: { singular: 'organizer', type: 'profile' },
} as const

/** A venue's or an organizer's page: what the namespace says of the one with this slug (each shows the lines it has), then its events. */
export async function linkedPage(
  site: Site,
  collection: keyof typeof LINKED_PAGES,
  slug: string,
  visit: URL,
): Promise<Response> {
  const { singular, type } = LINKED_PAGES[collection]
  const answer = await site.ns.get<VenueJson & OrganizerJson>(
    `/${collection}/by-slug/${encodeURIComponent(slug)}`,
  )
  if (answer.status !== 200) return notFound(site.language)
  const item = answer.body
  const words = pageMessagesOf(site.language)
  const name = item[singular]
  const address = [item.address, item.city, item.stateprovince, item.zip, item.country].filter(
    Boolean,
  )
  const about = (own: Html) => html`<h1${own}>${name}</h1>
    ${address.length ? html`<address>${address.join(', ')}</address>` : ''}
    ${item.phone ? html`<p>${words.phone} <a href="${`tel:${item.phone}`}">${item.phone}</a></p>` : ''}
    ${item.email ? html`<p>${words.email} <a href="${`mailto:${item.email}`}">${item.email}</a></p>` : ''}
    ${item.website ? html`<p><a href="${item.website}">${item.website}</a></p>` : ''}
    ${item.description ? html`<div class="description"${own}>${trusted(item.description)}</div>` : ''}`
  return itemPage(site, visit, {
    collection,
    id: item.id,
    head: {
      title: name ?? '',
      description: text(item.description),
      canonical: item.url,
      image: item.image?.url,
      type,
      jsonLd: standalone(item.json_ld),
    },
    about,
    filter: { [singular]: item.id },
  })
}

/** A path's segments decoded: `%d8%a3` and `%D8%A3` are one letter (RFC 3986 §6.2.2.1). */
const decodedPath = (path: string) => path.split('/').map(decodedSegment).join('/')

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * `/events/category/{path}/` and `/events/tag/{slug}/`: the term whose permalink is this path (a child
 * category's holds its ancestors, docs/api.md §3.5), found by its slug in the namespace's term list.
 */
export async function termPage(
  site: Site,
  taxonomy: 'categories' | 'tags',
  slugs: string[],
  visit: URL,
): Promise<Response> {
  const slug = slugs.at(-1)
  if (!slug) return notFound(site.language)
  const answer = await site.ns.get<ListJson<typeof taxonomy, TermJson>>(`/${taxonomy}`, {
    slug,
    hide_empty: 'false',
  })
  const wanted = decodedPath(visit.pathname.replace(/\/?$/, '/'))
  const term =
    answer.status === 200
      ? answer.body[taxonomy].find((candidate) => decodedPath(pathOf(candidate.url)) === wanted)
      : undefined
  if (!term) return notFound(site.language)
  const about = (own: Html) => html`<h1${own}>${term.name}</h1>
    ${term.description ? html`<p${own}>${term.description}</p>` : ''}`
  return itemPage(site, visit, {
    collection: taxonomy === 'categories' ? 'event-categories' : 'event-tags',
    id: term.id,
    head: { title: term.name, description: term.description || undefined, canonical: term.url },
    about,
    filter: { [taxonomy]: term.id },
  })
}
