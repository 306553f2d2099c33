import { handleEndpoints, type SanitizedConfig } from 'payload'
import { errorResponse, RestError } from '../server/errors'
import { headFromGet } from '../server/head'
import { endpointPath } from './withoutNext'

/** What Next hands a route handler besides the request: the language is read from the URL instead. */
type RouteContext = { params: Promise<{ lang: string }> }

/**
 * The per-language REST roots (`/fr/api/cal/events/v1/...`, docs/api.md §1) as the handlers of a Next
 * route `app/[lang]/api/[...path]/route.ts`: the same Payload endpoint as without the prefix; the
 * namespace reads the language from the URL it was asked. Only the calendar's namespace has
 * language roots. The app passes its own config, so the plugin needs no path into the app.
 */
export function languageRootHandlers(config: Promise<SanitizedConfig> | SanitizedConfig) {
  async function handle(request: Request, _route?: RouteContext): Promise<Response> {
    const path = endpointPath(await config, new URL(request.url).pathname)
    if (path === undefined) return errorResponse(RestError.noRoute())
    return handleEndpoints({ config, request, path })
  }
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
