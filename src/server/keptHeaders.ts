/**
 * The headers of answers kept by the caches of answers (the front door's, `frontDoor.ts`, and the
 * namespace's, `rest/answerCache.ts`), and what keeping an answer costs. Most of an answer's headers
 * repeat from one answer to the next (its type, caching, CORS, `Vary`): kept as copies of their own
 * they cost more than a small answer's body, and a cache counting only its bodies held twice its
 * budget under a site import's reads of single items (docs/performance.md, "Memory").
 */

/** Headers whose value names one answer: never shared with another's. */
const OWN_VALUES = new Set([
  'etag',
  'link',
  'x-wp-total',
  'x-wp-totalpages',
  'last-modified',
  'content-location',
])

/** Texts seen before, each kept once; emptied when full, so values no one foresaw cannot grow it. */
const seen = new Map<string, string>()
const MAX_SEEN = 1024

function once(text: string): string {
  const known = seen.get(text)
  if (known !== undefined) return known
  if (seen.size >= MAX_SEEN) seen.clear()
  seen.set(text, text)
  return text
}

/**
 * What keeping an answer costs beyond its body and the text of its own (its key, its own header
 * values): the entry, its place in the cache's `Map`, its list of headers and its `Buffer`'s objects.
 * Measured at 650–1,000 bytes an entry (docs/performance.md, "Memory").
 */
export const KEPT_ENTRY_BYTES = 1024

/**
 * Header pairs as a cache keeps them: one flat list of name, value, name, value, the names and the
 * values that repeat shared with every other kept answer, and the bytes of the text that is this
 * answer's own.
 */
export function keptHeaders(pairs: Iterable<[string, string | string[]]>): {
  list: (string | string[])[]
  ownBytes: number
} {
  const list: (string | string[])[] = []
  let ownBytes = 0
  for (const [name, value] of pairs) {
    const own = OWN_VALUES.has(name)
    const values = Array.isArray(value) ? value : [value]
    if (own) for (const one of values) ownBytes += one.length
    const kept = own ? values : values.map(once)
    list.push(once(name), Array.isArray(value) ? kept : kept[0]!)
  }
  return { list, ownBytes }
}
