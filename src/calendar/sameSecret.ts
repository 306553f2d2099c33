import { createHash, timingSafeEqual } from 'node:crypto'

/** Compares in constant time: hashing first makes the lengths equal without revealing them. */
export function sameSecret(given: string | undefined, stored: string | null | undefined): boolean {
  if (!given || !stored) return false
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(given), digest(stored))
}
