import type { IncomingHttpHeaders } from 'node:http'
import { requestOrigin } from '../collections/clientAddress'
import { headerOf } from './signedToken'

/** Payload's sign-in cookie (its default `cookiePrefix`, which payload.config.ts keeps). */
const SIGN_IN_COOKIE = 'payload-token'

/**
 * Takes the sign-in cookie out of a request another origin's page made, before any door reads it
 * (the namespace, Payload's REST and GraphQL, the admin). Payload's CSRF defence believes the cookie
 * only from the origins of its `csrf` list, which holds `SERVER_URL` alone, and with that list empty
 * (`SERVER_URL` unset) it believed the cookie from any origin: a form on a sibling host or another
 * port of the same site wrote as whoever was signed in. Here the origin the request reached counts
 * as its own too, so the rule holds whether `SERVER_URL` is set or not. Without `Origin`, a browser's
 * `Sec-Fetch-Site: cross-site` is believed.
 */
export function dropCrossSiteCookie(
  headers: IncomingHttpHeaders,
  serverURL: string | undefined,
): void {
  const cookie = headers.cookie
  if (!cookie?.includes(SIGN_IN_COOKIE)) return
  const origin = headers.origin
  const header = headerOf(headers)
  const own = [
    serverURL && URL.canParse(serverURL) && new URL(serverURL).origin,
    requestOrigin({ get: (name) => header(name) ?? null }),
  ]
  const foreign = origin
    ? !own.includes(origin.toLowerCase())
    : headers['sec-fetch-site'] === 'cross-site'
  if (!foreign) return
  const kept = cookie
    .split(';')
    .filter((part) => part.split('=')[0]?.trim() !== SIGN_IN_COOKIE)
    .join(';')
    .trim()
  if (kept) headers.cookie = kept
  else delete headers.cookie
}
