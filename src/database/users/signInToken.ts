import { JWT_AUTH_VERSION, type Payload } from 'payload'
import { signInClaims, type TokenClaims } from '../../calendar/signInToken'

/** A request header by its name (any case), as the request at hand holds it. */
export type HeaderOf = (name: string) => string | null | undefined

/**
 * The claims of the sign-in token a request carries, verified (`calendar/signInToken.ts`); undefined
 * when it carries none Payload's JWT strategy would accept.
 */
export function requestClaims(header: HeaderOf, payload: Payload): TokenClaims | undefined {
  const token = tokenOf(header, payload)
  return token ? signInClaims(token, payload.secret, JWT_AUTH_VERSION) : undefined
}

/**
 * The sign-in token a request carries, found as Payload's `extractJWT` finds it (its `jwtOrder`; the
 * cookie only as its CSRF rules allow), so that no token Payload would ignore is read here, and none
 * it would read is missed: an empty value is no token, and the next place is searched.
 */
function tokenOf(header: HeaderOf, payload: Payload): string | undefined {
  const { auth, cookiePrefix, csrf } = payload.config
  const authorization = header('Authorization')
  for (const method of auth.jwtOrder) {
    const token =
      method === 'cookie'
        ? cookieAllowed(header, csrf) && cookieOf(header, `${cookiePrefix}-token`)
        : authorization?.startsWith(`${method} `) && authorization.replace(`${method} `, '')
    if (token) return token
  }
  return undefined
}

/** A cookie's value as Payload's `parseCookies` (utilities) reads it: the last of a name wins. */
function cookieOf(header: HeaderOf, name: string): string | undefined {
  let found: string | undefined
  for (const cookie of (header('Cookie') ?? '').split(';')) {
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

function cookieAllowed(header: HeaderOf, csrf: string[]): boolean {
  const origin = header('Origin')
  if (origin) return csrf.length === 0 || csrf.includes(origin)
  if (csrf.length === 0) return true
  return ['same-origin', 'same-site', 'none'].includes(header('Sec-Fetch-Site') ?? '')
}
