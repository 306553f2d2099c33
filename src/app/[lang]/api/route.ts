import config from '@payload-config'
import { restRootHandlers } from 'cal-events/routes'
import { languageRootOf } from '../../../rest/context'
import { permalinkRoute } from '../../(site)/pages'

const root = restRootHandlers(config)

/**
 * Next prefers this static segment to the permalinks' catch-all, so `/venue/api/` (an item whose
 * slug is `api`) reaches it too: only a language's prefix makes it the REST root.
 */
const rootOrPermalink =
  (method: 'GET' | 'POST' | 'HEAD') =>
  (request: Request): Promise<Response> =>
    languageRootOf(new URL(request.url).pathname)
      ? root[method](request)
      : permalinkRoute[method === 'HEAD' ? 'GET' : method](request)

export const GET = rootOrPermalink('GET')
export const POST = rootOrPermalink('POST')
export const HEAD = rootOrPermalink('HEAD')
export const { PUT, PATCH, DELETE, OPTIONS } = root
