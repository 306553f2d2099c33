import { jwtVerify } from 'jose'
import { JWT_AUTH_VERSION, type Payload } from 'payload'
import { boundedCache } from '../../calendar/caches'

/** What a sign-in token names, as Payload's JWT strategy reads it, with the times that bound it. */
export type TokenClaims = {
  id: number | string
  collection: string
  sid?: string
  exp?: number
  nbf?: number
}

/**
 * The sign-in token a request carries, found as Payload's `extractJWT` finds it (its `jwtOrder`; the
 * cookie only as its CSRF rules allow), so that no token Payload would ignore is read here.
 */
export function tokenOf(headers: Headers, payload: Payload): string | undefined {
  const { auth, cookiePrefix, csrf } = payload.config
  for (const method of auth.jwtOrder) {
    const authorization = headers.get('Authorization')
    if (method === 'Bearer' && authorization?.startsWith('Bearer '))
      return authorization.replace('Bearer ', '')
    if (method === 'JWT' && authorization?.startsWith('JWT '))
      return authorization.replace('JWT ', '')
    if (method === 'cookie') {
      const token = cookieOf(headers, `${cookiePrefix}-token`)
      if (token && cookieAllowed(headers, csrf)) return token
    }
  }
  return undefined
}

/** A cookie's value as Payload's `parseCookies` (utilities) reads it: the last of a name wins. */
function cookieOf(headers: Headers, name: string): string | undefined {
  let found: string | undefined
  for (const cookie of (headers.get('Cookie') ?? '').split(';')) {
    const [key, ...value] = cookie.split('=')
    if (key?.trim() !== name) continue
    try {
      found = decodeURI(value.join('='))
    } catch {
      // Payload skips a value it cannot decode.
    }
  }
  return found || undefined
}

function cookieAllowed(headers: Headers, csrf: string[]): boolean {
  const origin = headers.get('Origin')
  if (origin) return csrf.length === 0 || csrf.includes(origin)
  if (csrf.length === 0) return true
  return ['same-origin', 'same-site', 'none'].includes(headers.get('Sec-Fetch-Site') ?? '')
}

/**
 * The claims of a token this site signed, its signature verified once per process: whether a token
 * verifies is a function of the token and the secret alone, so a verified one is kept (`CACHES.signInTokens`)
 * and only its times are checked again, as jose checks them. Undefined for a token Payload's strategy
 * would refuse (forged, expired, not yet valid, of another format).
 */
export async function verifiedClaims(
  token: string,
  payload: Payload,
): Promise<TokenClaims | undefined> {
  const known = verified.get(token)
  const claims =
    known?.secret === payload.secret ? known.claims : await verify(token, payload.secret)
  if (!claims) return undefined
  if (known?.claims !== claims) verified.set(token, { claims, secret: payload.secret })
  const now = Math.floor(Date.now() / 1000)
  if (
    (claims.exp !== undefined && claims.exp <= now) ||
    (claims.nbf !== undefined && claims.nbf > now)
  )
    return undefined
  return claims
}

/** A verified token's claims with the secret that verified them (a process may hold Payload instances of other secrets). */
type Verified = { claims: TokenClaims; secret: string }

const verified = boundedCache<string, Verified>('signInTokens')

/** The token's claims by jose's `jwtVerify`, as Payload's JWT strategy verifies it. */
async function verify(token: string, secret: string): Promise<TokenClaims | undefined> {
  try {
    const { payload: claims, protectedHeader } = await jwtVerify(
      token,
      new TextEncoder().encode(secret),
    )
    const { id, collection, sid, exp, nbf } = claims as Record<string, unknown>
    if (
      protectedHeader.authVersion !== JWT_AUTH_VERSION ||
      typeof collection !== 'string' ||
      (typeof id !== 'number' && typeof id !== 'string') ||
      (sid !== undefined && typeof sid !== 'string')
    )
      return undefined
    return {
      id,
      collection,
      ...(sid ? { sid } : {}),
      exp: exp as number | undefined,
      nbf: nbf as number | undefined,
    }
  } catch {
    return undefined
  }
}
