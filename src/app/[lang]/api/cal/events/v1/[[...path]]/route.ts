import config from '@payload-config'
import { handleEndpoints } from 'payload'
import { isLanguageCode } from '../../../../../../../i18n/languages'
import { errorResponse, RestError } from '../../../../../../../rest/http/errors'

/**
 * The per-language REST roots (`/fr/api/cal/events/v1/...`, contract §1): the same Payload endpoint
 * as `/api/cal/events/v1/...`; the handler reads the language from the URL it was asked.
 */
async function handle(request: Request, { params }: { params: Promise<{ lang: string }> }): Promise<Response> {
  const { lang } = await params
  if (!isLanguageCode(lang)) return errorResponse(RestError.noRoute())
  const { pathname } = new URL(request.url)
  return handleEndpoints({ config, request, path: pathname.slice(lang.length + 1) })
}

export const GET = handle
export const POST = handle
export const PUT = handle
export const PATCH = handle
export const DELETE = handle
export const OPTIONS = handle
