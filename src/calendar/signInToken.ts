import { createHmac, timingSafeEqual } from 'node:crypto'
import { boundedCache } from './caches'

/** What a sign-in token names, as Payload's JWT strategy reads it. */
export type TokenClaims = { id: number | string; collection: string; sid?: string }

/** The times that bound a token, in seconds since the epoch, as its claims give them. */
type Times = { exp?: number; nbf?: number }

/** A verified token's claims and times, with the secret that verified them (a process may hold Payload instances of other secrets). */
type Verified = { claims: TokenClaims; times: Times; secret: string }

const verified = boundedCache<string, Verified>('signInTokens')

/**
 * The claims of a sign-in token this site signed, as Payload's JWT strategy accepts them
 * (`payload/dist/auth/strategies/jwt.js`: jose's `jwtVerify`, then its checks of the header and the
 * claims): HS256 with Payload's secret, Payload's `authVersion` in the header, and at this moment
 * within its `exp` and `nbf`, as jose compares them. Undefined for any other token: forged, expired,
 * not yet valid, of another format.
 *
 * One verifier for the gate's lane choice (`server/signedToken.ts`), which must decide
 * synchronously before any routing, and the users' strategy (`database/users/signIn.ts`). Whether a
 * token verifies depends on the token and the secret alone, so a verified one is kept
 * (`CACHES.signInTokens`): its signature then costs a lookup instead of an HMAC (docs/performance.md,
 * "The editor's sign-in"), while its times are checked on every use.
 */
export function signInClaims(
  token: string,
  secret: string,
  authVersion: number,
): TokenClaims | undefined {
  let known = verified.get(token)
  if (known?.secret !== secret) {
    const checked = verify(token, secret, authVersion)
    if (!checked) return undefined
    verified.set(token, (known = { ...checked, secret }))
  }
  const now = Math.floor(Date.now() / 1000)
  const { exp, nbf } = known.times
  if ((exp !== undefined && exp <= now) || (nbf !== undefined && nbf > now)) return undefined
  return known.claims
}

/** The token's claims and times when its signature, header and claims are Payload's; its times are not compared here. */
function verify(
  token: string,
  secret: string,
  authVersion: number,
): Omit<Verified, 'secret'> | undefined {
  const parts = token.split('.')
  if (parts.length !== 3) return undefined
  const [header, body, signature] = parts as [string, string, string]
  const expected = createHmac('sha256', secret).update(`${header}.${body}`).digest()
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  const protectedHeader = jsonObject(header)
  const claims = jsonObject(body)
  if (
    protectedHeader?.alg !== 'HS256' ||
    protectedHeader.authVersion !== authVersion ||
    // Extensions jose refuses as not understood; Payload signs none.
    protectedHeader.crit !== undefined ||
    !claims
  )
    return undefined
  const { id, collection, sid, exp, nbf, iat } = claims
  if (
    typeof collection !== 'string' ||
    (typeof id !== 'number' && typeof id !== 'string') ||
    (sid !== undefined && typeof sid !== 'string') ||
    // jose refuses a time that is not a number.
    [exp, nbf, iat].some((time) => time !== undefined && typeof time !== 'number')
  )
    return undefined
  return {
    claims: { id, collection, ...(sid ? { sid } : {}) },
    times: { exp: exp as number | undefined, nbf: nbf as number | undefined },
  }
}

/** A base64url part of the token read as a JSON object; undefined for anything else. */
function jsonObject(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString())
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
