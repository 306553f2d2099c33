import config from '@payload-config'
import { getPayload } from 'payload'
import { answerWithoutNext } from '../../rest/withoutNext'
import { RENDER, unlockEvent } from '../../site/routes'
import { servePage, type Render } from '../../site/serve'

/** A route handler serving a public page from the namespace, in this process. */
function route(render: Render) {
  return async (request: Request) =>
    servePage(await getPayload({ config }), answerWithoutNext, request, render)
}

/** Every permalink, at whatever the configured patterns make it; a password posts to its event's. */
export const permalinkRoute = {
  GET: route(RENDER.permalink),
  POST: (request: Request) => route(unlockEvent(request))(request),
}
export const eventsRoute = { GET: route(RENDER.events) }
export const sitemapRoute = { GET: route(RENDER.sitemap) }
