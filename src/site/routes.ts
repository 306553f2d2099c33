import { pageMessagesOf } from '../i18n/messages'
import { RestError } from '../server/errors'
import { maxBodyBytes, readAtMost } from '../server/requestBody'
import { calendarRuntime, type PermalinkKind } from '../options'
import { badRequest, notFound } from './document'
import { eventPage } from './eventPage'
import { eventsPage } from './eventsPage'
import { linkedPage, termPage } from './listingPages'
import { permalinkAt, type PermalinkPath } from './permalinkPaths'
import type { Render } from './serve'
import type { Site } from './site'
import { sitemap } from './sitemap'

/** The longest password a form may post: longer ones are refused before the namespace compares them. */
const PASSWORD_LIMIT = 1000

/** A permalink's page, from its slug (a category's: the path of its ancestors' slugs and its own). */
const PERMALINK_PAGES: Record<
  PermalinkKind,
  (site: Site, slug: string[], visit: URL) => Promise<Response>
> = {
  event: (site, slug) => eventPage(site, slug[0]!),
  venue: (site, slug, visit) => linkedPage(site, 'venues', slug[0]!, visit),
  organizer: (site, slug, visit) => linkedPage(site, 'organizers', slug[0]!, visit),
  category: (site, slug, visit) => termPage(site, 'categories', slug, visit),
  tag: (site, slug, visit) => termPage(site, 'tags', slug, visit),
}

/** The item a path names under the configured patterns (docs/api.md §3), if any. */
function permalinkOf(site: Site, segments: string[]): PermalinkPath | undefined {
  return permalinkAt(calendarRuntime(site.payload.config).permalinks, segments)
}

/** An item's page at its permalink, whatever the patterns. */
const permalink: Render = (site, segments, visit) => {
  const found = permalinkOf(site, segments)
  return found
    ? PERMALINK_PAGES[found.kind](site, found.slug, visit)
    : Promise.resolve(notFound(site.language))
}

/** The pages: an item's at its permalink; the events' month or list; the sitemap. */
export const RENDER = {
  permalink,
  // The events' route takes any first segment for a language: another is a permalink's (`/event/events/`) or nothing's.
  events: ((site, segments, visit, root) =>
    segments.length === 1
      ? eventsPage(site, visit, root)
      : permalink(site, segments, visit, root)) satisfies Render,
  sitemap: ((site, _segments, visit) => sitemap(site, visit)) satisfies Render,
}

/** The password form's post to an event's page: the password from the form body, never from the URL (docs/api.md §9). */
export function unlockEvent(request: Request): Render {
  return async (site, segments) => {
    const found = permalinkOf(site, segments)
    if (found?.kind !== 'event') return notFound(site.language)
    const { noPassword } = pageMessagesOf(site.language)
    // At most the namespace's largest body, as it reads one: a form of any size was read whole.
    const bytes = await readAtMost(request, maxBodyBytes(), site.payload.logger).catch(
      (error: unknown) => error,
    )
    if (bytes instanceof RestError) return badRequest(site.language, noPassword, bytes.status)
    const form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: request.headers })
      .formData()
      .catch(() => undefined)
    const password = form?.get('password')
    if (typeof password !== 'string' || !password || password.length > PASSWORD_LIMIT)
      return badRequest(site.language, noPassword)
    return eventPage(site, found.slug[0]!, { password })
  }
}
