import type { PermalinkKind } from '../options'

/** The item a path names: its kind and its slug, or for a category the path of its ancestors' slugs and its own. */
export type PermalinkPath = { kind: PermalinkKind; slug: string[] }

/** Where a pattern's slug stands: the fixed segments before and after it. */
function partsOf(pattern: string): { before: string[]; after: string[] } | undefined {
  const segments = pattern.split('/').filter(Boolean)
  const at = segments.indexOf('{slug}')
  return at < 0 ? undefined : { before: segments.slice(0, at), after: segments.slice(at + 1) }
}

/**
 * The item a path's segments (after its language prefix) name under the configured permalink
 * patterns (docs/api.md §3), so that the pages answer wherever the namespace's `url`s point. The
 * pattern with the most fixed segments is tried first: `/events/category/{slug}/` before a
 * `/events/{slug}/`. Only a category's slug may span segments (its ancestors' path).
 */
export function permalinkAt(
  patterns: Record<PermalinkKind, string>,
  segments: string[],
): PermalinkPath | undefined {
  const candidates = (Object.entries(patterns) as [PermalinkKind, string][])
    .map(([kind, pattern]) => ({ kind, parts: partsOf(pattern) }))
    .filter(
      (
        candidate,
      ): candidate is { kind: PermalinkKind; parts: { before: string[]; after: string[] } } =>
        candidate.parts !== undefined,
    )
    .sort(
      (a, b) =>
        b.parts.before.length +
        b.parts.after.length -
        (a.parts.before.length + a.parts.after.length),
    )
  for (const { kind, parts } of candidates) {
    const length = segments.length - parts.before.length - parts.after.length
    if (length < 1 || (length > 1 && kind !== 'category')) continue
    const end = parts.before.length + length
    if (
      parts.before.every((part, index) => segments[index] === part) &&
      parts.after.every((part, index) => segments[end + index] === part)
    )
      return { kind, slug: segments.slice(parts.before.length, end) }
  }
  return undefined
}
