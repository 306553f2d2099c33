import { createPayloadRequest, handleEndpoints, type SanitizedConfig } from 'payload'
import { errorResponse, RestError } from '../server/errors'
import { headFromGet } from '../server/head'
import { responseOf } from '../server/sent'
import { languageRootOf } from './context'
import { restRootAnswer } from './pipeline'
import { asEndpointSent, endpointPath } from './withoutNext'

/**
 * For an app that serves Next from a Node server of its own, as this one does (`scripts/server.ts`)
 * and the README's example app (`tests/plugin/bareApp.ts`): the answer to a method no route serves
 * (TRACE, WebDAV's), given before Next, which builds no request of them.
 */
export { refuseUnservedMethod } from '../server/unservedMethods'

/** What Next hands a route handler besides the request: the language, if any, is read from the URL instead. */
type RouteContext = { params: Promise<object> }

type Handle = (request: Request, _route?: RouteContext) => Promise<Response>

/** A route's handlers: every method the app serves, HEAD answered as GET. */
function allMethods(handle: Handle) {
  return {
    GET: handle,
    POST: handle,
    PUT: handle,
    PATCH: handle,
    DELETE: handle,
    OPTIONS: handle,
    HEAD: headFromGet(handle),
  }
}

/**
 * The per-language REST roots (`/fr/api/cal/events/v1/...`, docs/api.md §1) as the handlers of a Next
 * route `app/[lang]/api/[...path]/route.ts`: the same Payload endpoint as without the prefix; the
 * namespace reads the language from the URL it was asked. Only the calendar's namespace has
 * language roots. The app passes its own config, so the plugin needs no path into the app.
 */
export function languageRootHandlers(config: Promise<SanitizedConfig> | SanitizedConfig) {
  return allMethods(async (request) => {
    const path = endpointPath(await config, new URL(request.url).pathname)
    if (path === undefined) return errorResponse(RestError.noRoute())
    return handleEndpoints({ config, request, path })
  })
}

/**
 * The REST root index (`/api/` and a language's `/fr/api/`, docs/api.md §13), WordPress's
 * `/wp-json/`, as the handlers of the Next routes `app/(payload)/api/route.ts` and
 * `app/[lang]/api/route.ts`: Payload's catch-all route needs a segment after `/api`.
 */
export function restRootHandlers(config: Promise<SanitizedConfig> | SanitizedConfig) {
  return allMethods(async (request) => {
    const resolved = await config
    const pathname = new URL(request.url).pathname.replace(/\/$/, '')
    const language = languageRootOf(pathname)
    if (pathname !== `${language ? `/${language}` : ''}${resolved.routes.api}`)
      return errorResponse(RestError.noRoute())
    const req = await createPayloadRequest({ canSetHeaders: true, config: resolved, request })
    return responseOf(asEndpointSent(req, await restRootAnswer(req)))
  })
}
