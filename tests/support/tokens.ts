/**
 * Sign-in tokens as Payload signs them, with claims or a header of the test's choosing: expired, not
 * yet valid, unversioned or signed with another key.
 */
import { createHash } from 'node:crypto'
import { SignJWT, decodeJwt } from 'jose'

/**
 * The key Payload signs tokens with: its `payload.secret`, made from PAYLOAD_SECRET (which the
 * launcher hands to the server and the tests alike) as Payload makes it.
 */
export function secret(): string {
  if (!process.env.PAYLOAD_SECRET)
    throw new Error('PAYLOAD_SECRET is not set: run through npm test')
  return createHash('sha256').update(process.env.PAYLOAD_SECRET).digest('hex').slice(0, 32)
}

/** `token` re-signed with these claims and header, by `key` (the site's secret unless given). */
export async function resigned(
  token: string,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { authVersion: 1 },
  key = secret(),
): Promise<string> {
  return new SignJWT({ ...decodeJwt(token), ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...header })
    .sign(new TextEncoder().encode(key))
}
