import type { FlattenedField, SanitizedConfig } from 'payload'

/** A `where` key of the admin list's URL: `where[start][equals]`, `where[or][0][and][0][start][equals]`. */
const WHERE_KEY = /^where((?:\[[^\]]*\])+)$/

/** The paths a `where` names a collection's date fields by, in groups, named tabs and arrays too. */
function datePaths(fields: FlattenedField[], prefix = ''): string[] {
  return fields.flatMap((field) => {
    const path = `${prefix}${field.name}`
    if (field.type === 'date') return [path]
    return 'flattenedFields' in field ? datePaths(field.flattenedFields, `${path}.`) : []
  })
}

/** The field and operator a `where` key names, past its `or`/`and` groups. */
function conditionOf(key: string): { field?: string; operator?: string } {
  const brackets = WHERE_KEY.exec(key)?.[1]
  if (!brackets) return {}
  const parts = brackets.slice(1, -1).split('][')
  let at = 0
  while ((parts[at] === 'or' || parts[at] === 'and') && /^\d+$/.test(parts[at + 1] ?? '')) at += 2
  return { field: parts[at], operator: parts[at + 1] }
}

/**
 * Where an admin list's URL filters a date field by a value that is no date
 * (`?where[start][equals]=abc`), the same list without that condition; otherwise null. Payload's
 * filter renders such a value in its date picker, which threw `Invalid time value` on the server
 * and in the browser, and the page stayed blank (docs/api.md §21).
 */
export function listWithoutUnreadableDates(
  config: SanitizedConfig,
  segments: string[] | undefined,
  searchParams: Record<string, string | string[] | undefined>,
): string | null {
  if (segments?.length !== 2 || segments[0] !== 'collections') return null
  const collection = config.collections.find((candidate) => candidate.slug === segments[1])
  if (!collection) return null
  const dates = new Set(datePaths(collection.flattenedFields))
  const kept = new URLSearchParams()
  let dropped = false
  for (const [key, given] of Object.entries(searchParams)) {
    const { field, operator } = conditionOf(key)
    for (const value of [given ?? []].flat()) {
      if (field && dates.has(field) && operator !== 'exists' && Number.isNaN(Date.parse(value))) {
        dropped = true
        continue
      }
      kept.append(key, value)
    }
  }
  if (!dropped) return null
  const query = kept.toString()
  return `${config.routes.admin}/collections/${collection.slug}${query ? `?${query}` : ''}`
}
