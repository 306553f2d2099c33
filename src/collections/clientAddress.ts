import type { PayloadRequest } from 'payload'
import { numberSetting } from '../calendar/settings'

/**
 * How many proxies of your own stand in front of the app (`TRUSTED_PROXY_HOPS`, docs/operations.md):
 * only their forwarding headers are believed. With none, what a client sends as `X-Forwarded-*` is
 * dropped before the app sees it (`forwardingHeaders`).
 */
export const trustedProxyHops = (): number => numberSetting('TRUSTED_PROXY_HOPS')

type Forwarding = Record<
  'x-forwarded-for' | 'x-forwarded-host' | 'x-forwarded-proto',
  string | string[] | undefined
>

/**
 * The forwarding headers the app is to see, from those the request came with and the socket's peer
 * (the HTTP server in front of Next sets them so, before anything reads them). Without trusted
 * proxies the peer is the client: `X-Forwarded-For` is its address alone, and a client's
 * `X-Forwarded-Host`/`-Proto` are dropped. Behind proxies the peer is the nearest one, appended to
 * the `X-Forwarded-For` the proxies built, whose host and scheme are kept.
 */
export function forwardingHeaders(
  headers: Record<string, string | string[] | undefined>,
  peer: string | undefined,
  hops: number,
): Forwarding {
  const address = peer ?? 'unknown'
  if (hops === 0)
    return {
      'x-forwarded-for': address,
      'x-forwarded-host': undefined,
      'x-forwarded-proto': undefined,
    }
  const given = [headers['x-forwarded-for']].flat().filter(Boolean).join(', ')
  return {
    'x-forwarded-for': given ? `${given}, ${address}` : address,
    'x-forwarded-host': headers['x-forwarded-host'],
    'x-forwarded-proto': headers['x-forwarded-proto'],
  }
}

/**
 * The caller's address: with `TRUSTED_PROXY_HOPS` proxies, the `X-Forwarded-For` entry the farthest of
 * them appended; without, the socket's peer (the header's only entry, see `forwardingHeaders`).
 */
export function clientAddress(req: Pick<PayloadRequest, 'headers'>): string {
  const entries = (req.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  return entries[Math.max(0, entries.length - 1 - trustedProxyHops())] ?? 'unknown'
}

/** A host as `Host` may name it: a name or IPv4 address, or an IPv6 address in brackets, and a port. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/**
 * The origin the caller reached (docs/operations.md): `X-Forwarded-Host` and `-Proto` when a trusted
 * proxy set them (Next copies `Host` into the former otherwise), else `Host`; undefined when none names a
 * valid host, and the caller then gets the server's own origin.
 */
export function requestOrigin(headers: Pick<Headers, 'get'>): string | undefined {
  const first = (name: string) => headers.get(name)?.split(',')[0]?.trim()
  const host = first('x-forwarded-host') || first('host')
  // The pattern takes any five digits for a port: `URL` refuses one past 65535.
  if (!host || !HOST.test(host) || !URL.canParse(`http://${host}`)) return undefined
  const scheme = first('x-forwarded-proto') === 'https' ? 'https' : 'http'
  return `${scheme}://${host.toLowerCase()}`
}

/**
 * The origin absolute URLs are written with, by the namespace and the pages alike: `SERVER_URL`, else
 * the origin the caller reached, else the server's own (`url`'s): Next's request URL names the
 * server's own host, so a page that wrote it sent `http://localhost:3000` to every visitor.
 */
export function publicOrigin(
  serverURL: string | undefined,
  headers: Pick<Headers, 'get'>,
  url: URL,
): string {
  return (serverURL || requestOrigin(headers) || url.origin).replace(/\/+$/, '')
}
