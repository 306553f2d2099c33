import type { PayloadRequest } from 'payload'

/**
 * The caller's address: the rightmost `X-Forwarded-For` entry, which the nearest hop appended (Next
 * itself without a proxy), or further left past `TRUSTED_PROXY_HOPS` proxies of your own.
 */
export function clientAddress(req: Pick<PayloadRequest, 'headers'>): string {
  const hops = Number(process.env.TRUSTED_PROXY_HOPS ?? 0)
  const entries = (req.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  return entries[Math.max(0, entries.length - 1 - hops)] ?? 'unknown'
}
