import { createHmac, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

/** The JWT a request carries as Payload reads it: `Authorization: JWT …` or `Bearer …`, else the token cookie. */
function tokenOf(headers: IncomingHttpHeaders, cookieName: string): string | undefined {
  const authorization = headers.authorization ?? ''
  const given = /^(?:JWT|Bearer) (.+)$/.exec(authorization)?.[1]
  if (given) return given
  for (const pair of (headers.cookie ?? '').split(';')) {
    const [name, ...value] = pair.trim().split('=')
    if (name === cookieName) return value.join('=')
  }
  return undefined
}

/**
 * Whether the request carries a sign-in token this site signed (HS256 with Payload's secret, as
 * Payload signs them) that has not expired: checked without a query, in microseconds, for what must
 * be decided before any routing (load shedding). A forged or expired token, or an API key, is not one.
 */
export function carriesSignedToken(
  headers: IncomingHttpHeaders,
  secret: string,
  cookieName: string,
): boolean {
  const parts = tokenOf(headers, cookieName)?.split('.')
  if (parts?.length !== 3) return false
  const [header, claims, signature] = parts as [string, string, string]
  try {
    if (
      (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: unknown }).alg !== 'HS256'
    )
      return false
    const expected = createHmac('sha256', secret).update(`${header}.${claims}`).digest()
    const given = Buffer.from(signature, 'base64url')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
    const { exp } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { exp?: unknown }
    return typeof exp === 'number' && exp * 1000 > Date.now()
  } catch {
    return false
  }
}
