import type { IncomingHttpHeaders } from 'node:http'
import type { Payload } from 'payload'
import { requestClaims, type HeaderOf } from '../database/users/signInToken'

/** A Node request's header by its name (any case), repeated ones joined as `Headers` joins them. */
export function headerOf(headers: IncomingHttpHeaders): HeaderOf {
  return (name) => {
    const value = headers[name.toLowerCase()]
    return Array.isArray(value) ? value.join(', ') : value
  }
}

/**
 * Whether the request carries a sign-in token Payload's JWT strategy would accept: found where
 * Payload finds it and verified as the users' strategy verifies it (`database/users/signInToken.ts`),
 * without a query, for what must be decided before any routing (load shedding). A forged, expired or
 * not yet valid token, a cookie Payload's CSRF rules ignore, or an API key is not one.
 */
export function carriesSignedToken(headers: IncomingHttpHeaders, payload: Payload): boolean {
  return Boolean(requestClaims(headerOf(headers), payload))
}
