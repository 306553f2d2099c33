/**
 * The field paths a caller's query names, as Payload reads them: `where` keys at any depth, `sort`
 * (a list, or text with commas, a `-` for descending) and a distinct query's `field`. Payload reads
 * `__` as `.` in a path (GraphQL's spelling, which REST takes too), so both split a path.
 */
export type QueryArgs = { where?: unknown; sort?: unknown; field?: unknown }

/** A path's segments: `-venue__city` → `['venue', 'city']`. */
const pathSegments = (path: string): string[] => path.trim().replace(/^-/, '').split(/\.|__/)

const whereKeys = (where: unknown): string[] =>
  Array.isArray(where)
    ? where.flatMap(whereKeys)
    : where && typeof where === 'object'
      ? Object.entries(where).flatMap(([key, value]) => [key, ...whereKeys(value)])
      : []

const sortPaths = (sort: unknown): string[] =>
  (Array.isArray(sort) ? sort : typeof sort === 'string' ? sort.split(',') : []).filter(
    (path): path is string => typeof path === 'string',
  )

/** Every path the query names, each as its segments. */
export function queryPaths({ where, sort, field }: QueryArgs): string[][] {
  return [
    ...whereKeys(where),
    ...sortPaths(sort),
    ...(typeof field === 'string' ? [field] : []),
  ].map(pathSegments)
}

/** Whether `path` goes through one of `links` into the linked item's fields (its `id` is no more than the link). */
export function throughLink(links: string[][], path: string[]): boolean {
  return links.some(
    (link) =>
      path.length > link.length &&
      link.every((segment, at) => path[at] === segment) &&
      path.slice(link.length).join('.') !== 'id',
  )
}
