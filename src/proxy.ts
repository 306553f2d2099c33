import { NextResponse, type NextRequest } from 'next/server'
import { DEFAULT_LANGUAGE, isLanguageCode } from './i18n/languages'
import { malformedPathResponse } from './server/pathGuard'
import { notFound } from './site/document'

/**
 * The API's and the admin's paths, under any one segment too (`/fr/api/...`, `/yua/api/...`, and
 * `/xx/api/...` or `/%00/api/...`, which the namespace's language roots answer in JSON): their
 * errors are JSON. So is a malformed page path whose second segment is a slug `api` or `admin`.
 */
const API_PATH = /^(?:\/[^/]+)?\/(?:api|admin)(?:\/|$)/i

/**
 * Runs before Next.js routes, so it is the one place that sees a malformed path before a router
 * fails on it. The matcher keeps every other request from paying for it. The API's and the admin's
 * paths get the namespace's 400; a page's path names no page, so it gets the pages' 404, in the
 * language of its prefix.
 */
export function proxy(request: NextRequest): Response {
  const malformed = malformedPathResponse(request)
  if (!malformed || API_PATH.test(request.nextUrl.pathname)) return malformed ?? NextResponse.next()
  const prefix = request.nextUrl.pathname.split('/')[1] ?? ''
  return notFound(isLanguageCode(prefix) ? prefix : DEFAULT_LANGUAGE)
}

export const config = { matcher: '/(.*%.*)' }
