import { pageMessagesOf, type PageMessages } from '../i18n/messages'
import { alternatesOf } from './alternates'
import { formatWhen, utcInstant, whenOf, type When } from './dates'
import { htmlResponse, NO_STORE, notFound, ownWordsLanguage, pageDocument } from './document'
import { html, trusted, type Html } from './html'
import { lockedEvent } from './lockedEvent'
import { eventList } from './parts'
import type { Site } from './site'
import type {
  ErrorJson,
  EventJson,
  ListJson,
  OrganizerJson,
  VenueJson,
} from '../calendar/wireTypes'

/** A password the visitor posted, and how the namespace took it. */
export type Unlocking = { password: string }

/** The series an event belongs to: its first event, and the events made from it (docs/api.md §16.1). */
function seriesOf(event: EventJson): number | undefined {
  return event.post_parent || (event.recurrence ? event.id : undefined)
}

/** The series' other dates the namespace lists (the first event, and the later ones of its default window). */
async function otherDates(site: Site, event: EventJson): Promise<EventJson[]> {
  const first = seriesOf(event)
  if (first === undefined) return []
  const [head, members] = await Promise.all([
    first === event.id
      ? undefined
      : site.ns.get<ListJson<'events', EventJson>>('/events', { include: first }),
    site.ns.get<ListJson<'events', EventJson>>('/events', { post_parent: first, per_page: 50 }),
  ])
  const listed = (answer: typeof head) => (answer?.status === 200 ? answer.body.events : [])
  return [...listed(head), ...listed(members)].filter((other) => other.id !== event.id)
}

function when(site: Site, value: When, utcStart?: string): Html {
  const text = formatWhen(site.language, value)
  return html`<p class="when">${utcStart ? html`<time datetime="${utcInstant(utcStart)}">${text}</time>` : text}</p>`
}

function venueBlock(words: PageMessages, venue: VenueJson): Html {
  const address = [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]
    .filter(Boolean)
    .join(', ')
  const map =
    venue.show_map_link !== false && (address || venue.geo_lat !== undefined)
      ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(venue.geo_lat !== undefined ? `${venue.geo_lat},${venue.geo_lng}` : address)}`
      : undefined
  return html`<dt>${words.venue}</dt>
    <dd>
      ${venue.url ? html`<a href="${venue.url}">${venue.venue}</a>` : venue.venue}${address ? html`<br />${address}` : ''}${
        map ? html`<br /><a href="${map}">${words.map}</a>` : ''
      }
    </dd>`
}

function organizerBlock(words: PageMessages, organizers: OrganizerJson[]): Html {
  if (!organizers.length) return html``
  return html`<dt>${organizers.length > 1 ? words.organizers : words.organizer}</dt>
    ${organizers.map((organizer) => html`<dd>${organizer.url ? html`<a href="${organizer.url}">${organizer.organizer}</a>` : organizer.organizer}</dd>`)}`
}

function details(words: PageMessages, event: EventJson): Html {
  const venue = Array.isArray(event.venue) ? undefined : event.venue
  const terms = [...event.categories, ...event.tags].map((term) => term.name)
  return html`<dl class="details">
    ${
      event.cost
        ? html`<dt>${words.cost}</dt>
            <dd>${event.cost}</dd>`
        : ''
    }
    ${venue ? venueBlock(words, venue) : ''} ${organizerBlock(words, event.organizer)}
    ${
      terms.length
        ? html`<dt>${words.filedUnder}</dt>
            <dd>${terms.join(', ')}</dd>`
        : ''
    }
    ${
      event.website && event.website !== event.url
        ? html`<dt>${words.website}</dt>
            <dd><a href="${event.website}">${event.website}</a></dd>`
        : ''
    }
  </dl>`
}

/** The text a page's description meta gives: the structured data's, else the excerpt without its paragraphs. */
function summaryOf(event: EventJson): string {
  const described = event.json_ld?.description
  return typeof described === 'string' && described
    ? described
    : event.excerpt.replace(/<[^>]*>/g, '').trim()
}

/**
 * The text an editor gave the image in the media library (the namespace's image object, upstream's,
 * carries none), read as an anonymous visitor; '' (decorative) when there is none to read.
 */
async function altOf(site: Site, id: number): Promise<string> {
  const { docs } = await site.payload.find({
    collection: 'media',
    where: { id: { equals: id } },
    depth: 0,
    limit: 1,
    pagination: false,
    overrideAccess: false,
    select: { alt: true },
  })
  const alt = (docs[0] as { alt?: unknown } | undefined)?.alt
  return typeof alt === 'string' ? alt : ''
}

async function fullPage(site: Site, event: EventJson, unlocked: boolean): Promise<Response> {
  const image = event.image || undefined
  const [others, alternates, imageAlt] = await Promise.all([
    otherDates(site, event),
    // What a password unlocked is nobody's to index: such a page names no translations.
    unlocked ? [] : alternatesOf(site.payload, site.in, 'events', event.id),
    image?.id ? altOf(site, image.id) : '',
  ])
  const words = pageMessagesOf(site.language)
  const own = ownWordsLanguage(site.language, alternates)
  const body = html`<article class="event">
    <h1${own}>${event.title}</h1>
    ${when(site, whenOf(event), event.utc_start_date)}
    ${image ? html`<img src="${image.url}" alt="${imageAlt}" ${image.width ? html` width="${image.width}" height="${image.height}"` : ''} />` : ''}
    <div class="description"${own}>${trusted(event.description)}</div>
    ${details(words, event)}
    <p><a href="${`${event.rest_url}.ics`}" download>${words.addToCalendar}</a></p>
    ${
      others.length
        ? html`<section aria-labelledby="series">
            <h2 id="series">${words.otherDates}</h2>
            ${eventList(site.language, others, '')}
          </section>`
        : ''
    }
  </article>`
  const document = pageDocument(
    {
      language: site.language,
      title: event.title,
      description: summaryOf(event),
      canonical: event.url,
      alternates,
      image: image ? image.url : undefined,
      imageAlt,
      type: 'event',
      jsonLd: event.json_ld,
    },
    body,
  )
  return htmlResponse(document, 200, unlocked ? NO_STORE : 'public, max-age=0, must-revalidate')
}

/** A protected event: its title and times, and the form that unlocks the rest. */
async function lockedPage(
  site: Site,
  slug: string,
  status: number,
  message?: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  const locked = await lockedEvent(site.ns, slug)
  if (!locked) return notFound(site.language)
  const words = pageMessagesOf(site.language)
  const body = html`<article class="event">
    <h1>${locked.title}</h1>
    ${when(site, locked.when)}
    <form method="post" class="password">
      <p>${words.protectedEvent}</p>
      ${message ? html`<p class="error" role="alert">${message}</p>` : ''}
      <label for="password">${words.password}</label>
      <input id="password" name="password" type="password" required autocomplete="off" />
      <button type="submit">${words.showEvent}</button>
    </form>
  </article>`
  const document = pageDocument({ language: site.language, title: locked.title }, body)
  return htmlResponse(document, status, NO_STORE, extra)
}

/**
 * `/event/{slug}/`: the namespace's single read by slug. Anything it does not show an anonymous
 * reader (a draft, a private or trashed event, no such slug) is a 404; a protected event is shown
 * locked, or unlocked by the password posted, which the namespace checks and throttles.
 */
export async function eventPage(
  site: Site,
  slug: string,
  unlocking?: Unlocking,
): Promise<Response> {
  const path = `/events/by-slug/${encodeURIComponent(slug)}`
  const answer = await site.ns.get<EventJson | ErrorJson>(
    path,
    unlocking ? { password: unlocking.password } : {},
  )
  if (answer.status === 200) return fullPage(site, answer.body as EventJson, Boolean(unlocking))
  const code = (answer.body as ErrorJson).code
  const words = pageMessagesOf(site.language)
  if (answer.status === 429) {
    const wait = answer.headers.get('retry-after') ?? '1'
    return lockedPage(site, slug, 429, words.tooManyPasswords(Number(wait)), {
      'Retry-After': wait,
    })
  }
  // A password the namespace refuses to compare (one with NUL) opens nothing: it is a wrong one.
  if (unlocking && answer.status === 400) return lockedPage(site, slug, 403, words.wrongPassword)
  if (code !== 'event-password-protected') return notFound(site.language)
  return unlocking ? lockedPage(site, slug, 403, words.wrongPassword) : lockedPage(site, slug, 200)
}
