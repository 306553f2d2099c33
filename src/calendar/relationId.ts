/** A relationship's id, whether the document holds it as a number (depth 0) or populated (deeper). */
export function idOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (value && typeof value === 'object' && 'id' in value && typeof value.id === 'number')
    return value.id
  return undefined
}

/**
 * A relationship's id as a write may give it: as `idOf` reads it, or as its digits in text, which
 * Payload's REST, its forms and the namespace's loose bodies send.
 */
export function writtenIdOf(value: unknown): number | undefined {
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : idOf(value)
}
