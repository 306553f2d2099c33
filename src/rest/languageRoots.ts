import { handleEndpoints, type SanitizedConfig } from 'payload'
import { isLanguageCode } from '../i18n/languages'
import { errorResponse, RestError } from './http/errors'
import { headFromGet } from './http/head'
import { isNamespacePath } from './withoutNext'

type RouteContext = { params: Promise<{ lang: string }> }

/**
 * The per-language REST roots (`/fr/api/cal/events/v1/...`, docs/api.md §1) as the handlers of a Next
 * route `app/[lang]/api/[...path]/route.ts`: the same Payload endpoint as without the prefix; the
 * namespace reads the language from the URL it was asked. Only the calendar's namespace has
 * language roots. The app passes its own config, so the plugin needs no path into the app.
 */
export function languageRootHandlers(config: Promise<SanitizedConfig> | SanitizedConfig) {
  async function handle(request: Request, { params }: RouteContext): Promise<Response> {
    const { lang } = await params
    const sanitized = await config
    const path = new URL(request.url).pathname.slice(lang.length + 1)
    if (!isLanguageCode(lang) || !isNamespacePath(sanitized, path)) return errorResponse(RestError.noRoute())
    return handleEndpoints({ config, request, path })
  }
  return { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle, HEAD: headFromGet(handle) }
}
