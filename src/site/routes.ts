import { pageMessagesOf } from '../i18n/messages'
import { badRequest } from './document'
import { eventPage } from './eventPage'
import { eventsPage } from './eventsPage'
import { linkedPage, termPage } from './listingPages'
import type { Render } from './serve'
import { sitemap } from './sitemap'

/** The longest password a form may post: longer ones are refused before the namespace compares them. */
const PASSWORD_LIMIT = 1000

/** The pages, by the permalink patterns' defaults (docs/api.md §3): each renders from its path's segments. */
export const RENDER = {
  // event/{slug}
  event: ((site, segments) => eventPage(site, segments[1]!)) satisfies Render,
  venue: ((site, segments, visit) => linkedPage(site, 'venues', segments[1]!, visit)) satisfies Render,
  organizer: ((site, segments, visit) => linkedPage(site, 'organizers', segments[1]!, visit)) satisfies Render,
  // events/category/{ancestors.../slug}
  category: ((site, segments, visit) => termPage(site, 'categories', segments.slice(2), visit)) satisfies Render,
  tag: ((site, segments, visit) => termPage(site, 'tags', segments.slice(2), visit)) satisfies Render,
  events: ((site, _segments, visit, root) => eventsPage(site, visit, root)) satisfies Render,
  sitemap: ((site, _segments, visit) => sitemap(site.ns, visit)) satisfies Render,
}

/** The password form's post: the password from the form body, never from the URL (docs/api.md §9). */
export function unlockEvent(request: Request): Render {
  return async (site, segments) => {
    const password = (await request.formData().catch(() => undefined))?.get('password')
    if (typeof password !== 'string' || !password || password.length > PASSWORD_LIMIT)
      return badRequest(site.language, pageMessagesOf(site.language).noPassword)
    return eventPage(site, segments[1]!, { password })
  }
}
