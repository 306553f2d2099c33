import { sql } from '@payloadcms/db-postgres'
import { STATUSES, type Status } from '../../calendar/access/capabilities'
import type { DateBound } from '../../calendar/dates/eventWindow'
import type { SQL } from '../rawQuery'

/**
 * Which events a read selects, typed: every part given is a condition, all of them and-ed. The page
 * query states it as SQL (`matchSql`); the reads Payload serves (a password to try, developers'
 * fields or access rules, a search, a place) get it as Payload's `where`
 * (operations/events/matchWhere.ts).
 */
export type EventMatch = {
  /** Bounds on the events' UTC start and end: the list's date window. */
  window?: DateBound[]
  /** Only events not hidden from listings. */
  listed?: boolean
  statuses?: readonly Status[]
  ids?: number[]
  excluded?: number[]
  categories?: number[]
  tags?: number[]
  organizers?: number[]
  venues?: number[]
  /** The venues near the point asked (a second condition on the venue, beside `venues`). */
  near?: number[]
  featured?: boolean
  ticketed?: boolean
  /** Later events of these series. */
  parents?: number[]
  /** Whether the event's venue has coordinates: a condition through the venue, left to Payload's adapter. */
  geoloc?: boolean
  /** Every word in the title, description or excerpt, in the language or English: left to Payload's adapter. */
  search?: string
}

/**
 * How a value enters a statement: as a parameter of its own (`inline`), or as a named placeholder
 * of a statement prepared once for many values (`database/events/eventIds.ts`).
 */
export type Bind = (value: string | number | boolean) => SQL

export const inline: Bind = (value) => sql`${value}`

/** One comparison of an event's start, end or local start with a value. */
export type WindowBound = {
  field: 'start' | 'end' | 'startLocal'
  op: DateBound['op']
  value: string
}

/**
 * A window's bounds on the events' UTC instants, each but a lower bound on the end with its bound on
 * the local start widened by the widest zone offset (`DateBound.startLocal`, which the window
 * makes): the same bound for the start, and for an upper bound on the end the same one too (no event ends before it starts: collections/Events.ts). These
 * never change the result; they let PostgreSQL walk the index the list is ordered by (local start)
 * from the window's first day, and see where that walk stops. The local end gets none: PostgreSQL
 * multiplies the shares of events each bound keeps as if they were unrelated, and with both local
 * bounds it took a month's 27,000 events of a million for ten, then read them all and sorted them
 * instead of walking to the page.
 */
export function indexedWindow(window: DateBound[]): WindowBound[] {
  return window.flatMap(({ field, op, value, startLocal }): WindowBound[] => {
    if (startLocal === undefined) return [{ field, op, value }]
    const lower = op === 'gte' || op === 'gt'
    return [
      { field, op, value },
      { field: 'startLocal', op: lower ? 'gte' : 'lte', value: startLocal },
    ]
  })
}

/** The statuses a match keeps, as the shorter of the list kept and the list left out. */
export function statusList(statuses: readonly Status[]): { negated: boolean; values: Status[] } {
  const left = STATUSES.filter((status) => !statuses.includes(status))
  return left.length < statuses.length
    ? { negated: true, values: left }
    : { negated: false, values: [...statuses] }
}

/**
 * How a condition on a `hasMany` relationship (categories, tags, organizers, kept in `events_rels`)
 * is stated: `joined`, a semi-join, which PostgreSQL may start from the relation's index (to read or
 * count every match); `probed`, a test of each row, for walking an index of the rows in a list's
 * order until a page is full. PostgreSQL turns a semi-join into a join it plans from its estimates,
 * and estimates two links' shared rows as the product of their shares: at a million events it read a
 * month's 27,000 events and a tag's 40,000 links to sort the 280 a category and the tag shared
 * (70 ms), where walking to the first ten took 5 ms.
 */
export type LinkTest = 'joined' | 'probed'

const LINKS = {
  categories: 'event_categories_id',
  tags: 'event_tags_id',
  organizers: 'organizers_id',
} as const

const COLUMNS: Record<WindowBound['field'], string> = {
  start: 'start',
  end: 'end',
  startLocal: 'start_local',
}

const COMPARE: Record<DateBound['op'], string> = { gte: '>=', lte: '<=', gt: '>', lt: '<' }

/** `(a, b, c)` with each value a parameter. */
const list = (values: readonly (string | number)[], bind: Bind) =>
  sql`(${sql.join(values.map(bind), sql`, `)})`

const column = (name: string) => sql.raw(`e."${name}"`)

/** `column in (values)`, false when there are none. */
const among = (name: string, values: readonly (string | number)[], bind: Bind) =>
  values.length ? sql`${column(name)} in ${list(values, bind)}` : sql`false`

function linked(link: string, ids: number[], test: LinkTest, bind: Bind): SQL {
  if (!ids.length) return sql`false`
  // `offset 0`: PostgreSQL would otherwise make the test a semi-join again.
  if (test === 'probed')
    return sql`exists (select from events_rels linked where linked.parent_id = e.id and linked.${sql.raw(link)} in ${list(ids, bind)} offset 0)`
  return sql`e.id in (select parent_id from events_rels where ${sql.raw(link)} in ${list(ids, bind)})`
}

/** Whether `matchSql` states `match`: all but a search and a condition through the venue, which only Payload's adapter states. */
export const stated = (match: EventMatch) =>
  match.search === undefined && match.geoloc === undefined

/**
 * `match` as a condition on the row `e` of events, its links tested as `links` says, its values
 * entered by `bind`; undefined when it is not `stated`.
 */
export function matchSql(match: EventMatch, links: LinkTest, bind = inline): SQL | undefined {
  if (!stated(match)) return undefined
  const parts: SQL[] = indexedWindow(match.window ?? []).map(
    ({ field, op, value }) => sql`${column(COLUMNS[field])} ${sql.raw(COMPARE[op])} ${bind(value)}`,
  )
  if (match.listed) parts.push(sql`e.hide_from_listings is not true`)
  if (match.statuses) {
    const { negated, values } = statusList(match.statuses)
    parts.push(
      negated
        ? values.length
          ? sql`e.status not in ${list(values, bind)}`
          : sql`true`
        : among('status', values, bind),
    )
  }
  if (match.ids) parts.push(among('id', match.ids, bind))
  if (match.excluded?.length) parts.push(sql`e.id not in ${list(match.excluded, bind)}`)
  if (match.venues) parts.push(among('venue_id', match.venues, bind))
  if (match.near) parts.push(among('venue_id', match.near, bind))
  if (match.parents) parts.push(among('parent_id', match.parents, bind))
  if (match.featured !== undefined) parts.push(sql`e.featured = ${bind(match.featured)}`)
  if (match.ticketed !== undefined) parts.push(sql`e.ticketed = ${bind(match.ticketed)}`)
  for (const key of ['categories', 'tags', 'organizers'] as const) {
    const ids = match[key]
    if (ids) parts.push(linked(LINKS[key], ids, links, bind))
  }
  return parts.length ? sql`(${sql.join(parts, sql` and `)})` : sql`true`
}

/** Whether `match` filters on a `hasMany` relationship (a semi-join in `matchSql`). */
export const filtersOnLinks = (match: EventMatch) =>
  Boolean(match.categories ?? match.tags ?? match.organizers)
