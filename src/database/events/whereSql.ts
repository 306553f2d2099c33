import { sql } from '@payloadcms/db-postgres'
import type { Where } from 'payload'
import type { SQL } from '../rawQuery'

/**
 * What of a collection's `where` can be stated as SQL on its own table: fields stored as columns of
 * the row, and `hasMany` relationships kept in the collection's `_rels` table (matched by a
 * semi-join, so that a row is never repeated and PostgreSQL may start from the relation's index).
 */
export type SqlFields = { table: string; columns: Record<string, string>; links?: Record<string, string> }

/** The fields of events that the namespace's lists and access rules filter on. */
export const EVENT_FIELDS: SqlFields = {
  table: 'events',
  columns: {
    id: 'id',
    status: 'status',
    author: 'author_id',
    start: 'start',
    end: 'end',
    startLocal: 'start_local',
    endLocal: 'end_local',
    publishedAt: 'published_at',
    hideFromListings: 'hide_from_listings',
    hasPassword: 'has_password',
    featured: 'featured',
    ticketed: 'ticketed',
    venue: 'venue_id',
    parent: 'parent_id',
  },
  links: { categories: 'event_categories_id', tags: 'event_tags_id', organizers: 'organizers_id' },
}

/** The fields of venues' and organizers' read rules. */
export const AUTHORED_FIELDS = (table: string): SqlFields => ({ table, columns: { id: 'id', status: 'status', author: 'author_id' } })

type Scalar = string | number | boolean

const isScalar = (value: unknown): value is Scalar => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'

const COMPARISONS: Record<string, string> = { greater_than: '>', greater_than_equal: '>=', less_than: '<', less_than_equal: '<=' }

/** `(a, b, c)` with each value a parameter. */
const list = (values: Scalar[]) =>
  sql`(${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`

/**
 * How a condition on a `hasMany` relationship is stated: `joined`, a semi-join, which PostgreSQL may
 * start from the relation's index (to read or count every match); `probed`, a test of each row, for
 * walking an index of the rows in a list's order until a page is full. PostgreSQL turns a semi-join
 * into a join it plans from its estimates, and estimates two links' shared rows as the product of
 * their shares: at a million events it read a month's 27,000 events and a tag's 40,000 links to sort
 * the 280 a category and the tag shared (70 ms), where walking to the first ten took 5 ms.
 */
export type LinkTest = 'joined' | 'probed'

/**
 * A Payload `where` (or access result) as a SQL condition on the row `alias`, meaning what Payload's
 * PostgreSQL adapter makes of it (`not_equals` also matches a missing value, as the adapter's does);
 * undefined when it names a field or an operator not stated here, so that the caller asks the adapter.
 */
export function whereSql(where: boolean | Where, alias: string, fields: SqlFields, links: LinkTest = 'joined'): SQL | undefined {
  if (typeof where === 'boolean') return where ? sql`true` : sql`false`
  const parts: SQL[] = []
  for (const [key, value] of Object.entries(where)) {
    if (key === 'and' || key === 'or') {
      if (!Array.isArray(value) || (key === 'or' && !value.length)) return undefined
      const inner = value.map((item: Where) => whereSql(item, alias, fields, links))
      if (inner.some((part) => part === undefined)) return undefined
      if (inner.length) parts.push(sql`(${sql.join(inner as SQL[], key === 'and' ? sql` and ` : sql` or `)})`)
      continue
    }
    if (!value || typeof value !== 'object') return undefined
    for (const [operator, operand] of Object.entries(value)) {
      const part = condition(fields, alias, key, operator, operand, links)
      if (!part) return undefined
      parts.push(part)
    }
  }
  return parts.length ? sql`(${sql.join(parts, sql` and `)})` : sql`true`
}

function condition(fields: SqlFields, alias: string, field: string, operator: string, operand: unknown, links: LinkTest): SQL | undefined {
  const row = sql.raw(`${alias}.id`)
  const link = fields.links?.[field]
  if (link) {
    const values =
      operator === 'equals' && isScalar(operand) ? [operand] : operator === 'in' && Array.isArray(operand) && operand.every(isScalar) ? operand : undefined
    if (!values) return undefined
    if (!values.length) return sql`false`
    const table = sql.raw(`${fields.table}_rels`)
    // `offset 0`: PostgreSQL would otherwise make the test a semi-join again.
    if (links === 'probed')
      return sql`exists (select from ${table} linked where linked.parent_id = ${row} and linked.${sql.raw(link)} in ${list(values)} offset 0)`
    return sql`${row} in (select parent_id from ${table} where ${sql.raw(link)} in ${list(values)})`
  }
  const name = fields.columns[field]
  if (!name) return undefined
  const column = sql.raw(`${alias}."${name}"`)
  if (operator === 'exists' && typeof operand === 'boolean') return operand ? sql`${column} is not null` : sql`${column} is null`
  if (operator === 'equals') return operand === null ? sql`${column} is null` : isScalar(operand) ? sql`${column} = ${operand}` : undefined
  if (operator === 'not_equals')
    return operand === null ? sql`${column} is not null` : isScalar(operand) ? sql`${column} is distinct from ${operand}` : undefined
  if (operator === 'in' || operator === 'not_in') {
    if (!Array.isArray(operand) || !operand.every(isScalar)) return undefined
    if (operator === 'not_in') {
      // The adapter's `not_in` on a relationship also matches a row that links to nothing; on other
      // columns it does not, so only ids and links are stated here.
      if (name !== 'id' && !name.endsWith('_id')) return undefined
      return operand.length ? sql`(${column} not in ${list(operand)} or ${column} is null)` : sql`true`
    }
    return operand.length ? sql`${column} in ${list(operand)}` : sql`false`
  }
  const comparison = COMPARISONS[operator]
  if (comparison && isScalar(operand)) return sql`${column} ${sql.raw(comparison)} ${operand}`
  return undefined
}

/** Whether `where` filters on a `hasMany` relationship (a semi-join in `whereSql`). */
export function filtersOnLinks(where: Where, fields: SqlFields): boolean {
  return Object.entries(where).some(([key, value]) =>
    key === 'and' || key === 'or' ? Array.isArray(value) && value.some((item: Where) => filtersOnLinks(item, fields)) : Boolean(fields.links?.[key]),
  )
}
