/**
 * Deeper than any value a caller writes or asks with (a rich text's 64 levels take about 130 of
 * JSON): Payload copies a write's data and walks a `where` by recursion, and GraphQL its variables,
 * which ran out of stack 10,000 levels down (a 500 on every collection, global and account).
 */
export const MAX_JSON_DEPTH = 512

export const TOO_DEEP = `is nested more than ${MAX_JSON_DEPTH} levels deep`

/**
 * Whether a tree goes deeper than `limit` levels below its root (the root is level 0), walked
 * without recursion: the trees are what a caller sent (a description's HTML, a JSON body, a GraphQL
 * document), and the recursive walks of the libraries that read them ran out of stack on deep ones.
 * `children` gives a node's children, or nothing for a leaf.
 */
export function deeperThan<T>(
  root: T,
  children: (node: T) => Iterable<T> | undefined,
  limit: number,
): boolean {
  const pending: [T, number][] = [[root, 0]]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next
    const below = children(node)
    if (!below) continue
    for (const child of below) {
      if (depth + 1 > limit) return true
      pending.push([child, depth + 1])
    }
  }
  return false
}

/** The values inside a JSON value: an object's or an array's, none for the rest. */
export const jsonChildren = (value: unknown): Iterable<unknown> | undefined =>
  value !== null && typeof value === 'object' ? Object.values(value) : undefined
