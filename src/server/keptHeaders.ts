/**
 * What keeping an answer costs the caches of answers (the front door's, `frontDoor.ts`, and the
 * namespace's, `rest/answerCache.ts`, which each count it against their budget), and the front
 * door's kept headers. Most of an answer's headers repeat from one answer to the next (its type,
 * caching, CORS, `Vary`): kept as copies of their own they cost more than a small answer's body, and
 * the caches, counting little more than their bodies, held twice their budget under a site import's
 * reads of single items (docs/performance.md, "Kept answers counted by what they cost").
 */

/** Headers whose value names one answer (its ETag, its pages, its file name): never shared with another's. */
const OWN_VALUES = new Set(['etag', 'link', 'content-disposition', 'x-total', 'x-total-pages'])

/** Longer values (a `Link` from a long query) are not shared: the table of shared texts stays small. */
const MAX_SHARED_LENGTH = 256

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
 * What keeping an answer costs beyond its body, its key and the text of its own header values: the
 * entry, its place in the cache's `Map`, its headers and its `Buffer`'s objects. Measured at 655
 * bytes an entry for the namespace's cache and 975 for the front door's (docs/performance.md).
 */
export const KEPT_ENTRY_BYTES = 1024

/**
 * Header pairs as the front door keeps them: one flat list of name, value, name, value, the names
 * and the short values that are not one answer's own shared with every other kept answer, and the
 * bytes of the values that are not shared.
 */
export function keptHeaders(pairs: Iterable<[string, string | string[]]>): {
  list: (string | string[])[]
  ownBytes: number
} {
  const list: (string | string[])[] = []
  let ownBytes = 0
  for (const [name, value] of pairs) {
    const ownName = OWN_VALUES.has(name.toLowerCase())
    const keep = (text: string) => {
      if (!ownName && text.length <= MAX_SHARED_LENGTH) return once(text)
      ownBytes += text.length
      return text
    }
    list.push(once(name), Array.isArray(value) ? value.map(keep) : keep(value))
  }
  return { list, ownBytes }
}
