import config from '@payload-config'
import { handleEndpoints } from 'payload'
import { isLanguageCode } from '../../../../i18n/languages'
import { calendarRuntime } from '../../../../options'
import { errorResponse, RestError } from '../../../../rest/http/errors'
import { headFromGet } from '../../../../rest/http/head'

/**
 * The per-language REST roots (`/fr/api/cal/events/v1/...`, contract §1): the same Payload endpoint
 * as without the prefix; the namespace reads the language from the URL it was asked. Only the
 * calendar's namespace has language roots.
 */
async function handle(request: Request, { params }: { params: Promise<{ lang: string }> }): Promise<Response> {
  const { lang } = await params
  const sanitized = await config
  const path = new URL(request.url).pathname.slice(lang.length + 1)
  const namespaceRoot = `${sanitized.routes.api}/${calendarRuntime(sanitized).namespace}`
  const underNamespace = path === namespaceRoot || path.startsWith(`${namespaceRoot}/`)
  if (!isLanguageCode(lang) || !underNamespace) return errorResponse(RestError.noRoute())
  return handleEndpoints({ config, request, path })
}

export const GET = handle
export const POST = handle
export const PUT = handle
export const PATCH = handle
export const DELETE = handle
export const OPTIONS = handle
export const HEAD = headFromGet(GET)
