/** A relationship's id, whether the document holds it as a number (depth 0) or populated (deeper). */
export function idOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (value && typeof value === 'object' && 'id' in value && typeof value.id === 'number')
    return value.id
  return undefined
}
