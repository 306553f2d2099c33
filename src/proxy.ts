import { NextResponse, type NextRequest } from 'next/server'
import { DEFAULT_LANGUAGE, isLanguageCode } from './i18n/languages'
import { malformedPathResponse } from './server/pathGuard'
import { notFound } from './site/document'

/** The API's and the admin's paths, under a language prefix too (`/fr/api/...`): their errors are JSON. */
const API_PATH = /^(?:\/[a-z]{2}(?:-[a-z]+)?)?\/(?:api|admin)(?:\/|$)/i

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
