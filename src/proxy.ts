import { NextResponse, type NextRequest } from 'next/server'
import { malformedPathResponse } from './server/pathGuard'

/**
 * Runs before Next.js routes, so it is the one place that sees a malformed path before a router
 * fails on it. The matcher keeps every other request from paying for it.
 */
export function proxy(request: NextRequest): Response {
  return malformedPathResponse(request) ?? NextResponse.next()
}

export const config = { matcher: '/(.*%.*)' }
