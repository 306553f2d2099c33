import config from '@payload-config'
import { getPayload } from 'payload'
import { answerWithoutNext } from '../../rest/withoutNext'
import { RENDER, unlockEvent } from '../../site/routes'
import { servePage, type Render } from '../../site/serve'

/** A route handler serving a public page from the namespace, in this process. */
function route(render: Render) {
  return async (request: Request) => servePage(await getPayload({ config }), answerWithoutNext, request, render)
}

export const eventRoute = {
  GET: route(RENDER.event),
  POST: (request: Request) => route(unlockEvent(request))(request),
}
export const venueRoute = { GET: route(RENDER.venue) }
export const organizerRoute = { GET: route(RENDER.organizer) }
export const categoryRoute = { GET: route(RENDER.category) }
export const tagRoute = { GET: route(RENDER.tag) }
export const eventsRoute = { GET: route(RENDER.events) }
export const sitemapRoute = { GET: route(RENDER.sitemap) }
