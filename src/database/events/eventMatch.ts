import { sql } from '@payloadcms/db-postgres'
import { STATUSES, type Status } from '../../calendar/access/capabilities'
import { boundedCache, revisionCacheOf } from '../../calendar/caches'
import type { DateBound } from '../../calendar/dates/resolve'
import { requestQuery, requestStatement, statement, type SQL, type Statement } from '../rawQuery'
import type { ReadScope } from '../readScope'
import { dayCounted, type DayCountable } from './dayCounts'
import { bodySql, type PageAccess } from './eventPage'

/*
 * A list's SQL: the condition its typed filters state (`matchSql`), and the one statement that pages
 * and counts it (`listIds`), with the counts kept per day where they serve (`dayCounts.ts`).
 */

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
 * of a statement prepared once for many values (`listIds`, below).
 */
export type Bind = (value: string | number | boolean) => SQL

const inline: Bind = (value) => sql`${value}`

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

/**
 * Which events a page of a list holds, and the list's total, for lists whose filters `matchSql`
 * states: as parts of the statement that finds a page's ids (`PageSource`), which reads the page's
 * body too, so that a list made afresh costs one query (docs/performance.md, "Filtered lists").
 *
 * Payload's adapter asks a list filtered by a category or tag for its ids with `select distinct` over
 * a join of events and their relations, reads the same ids again, and counts in a third query; at
 * 100k events PostgreSQL would walk the start index probing every event's relations for a pair of
 * terms that share none (180 ms where counting them takes 30). Here a filter on a relation is a
 * semi-join where every match is read (counting), and a test of each event where the index is walked
 * (`LinkTest`); the first request for such a filter reads its matches once for both the page and the
 * total; once the total is known, a page past it costs nothing, and a page that a walk would reach
 * late is read from the matches rather than along the index (docs/performance.md, "Walks that test
 * each link").
 */

/**
 * A page of a list: the events `match` selects that the caller may read (`access`), in `sort` order.
 * `count`: whether the list's total is wanted.
 */
export type ListQuery = {
  match: EventMatch
  sort: EventSort
  page: number
  perPage: number
  count: boolean
  access: PageAccess
  /**
   * Whether the statement that finds the ids reads the page's body too, in the request's language
   * (`bodySql`): one statement for a page, not two. A page whose ids are kept has no such statement.
   */
  withBody?: boolean
}

/** A page's ids, in order, the list's total when it was asked, and the page's body when it was read with the ids. */
export type ListIds = { ids: number[]; total?: number; body?: unknown }

/**
 * The key a list's total is kept by for what selects it: exact totals cost a scan of every match, so
 * once per revision. The key holds the access rule, hence the reader's id wherever the rule names it.
 */
export const totalKey = (selected: unknown) => `event-total:${JSON.stringify(selected)}`

/**
 * The ids of a page of a list and the list's total, by the plan below; undefined when `matchSql`
 * cannot state the match (a search, a condition through the venue), which Payload's adapter then
 * reads. The first request for a filter counts it in the statement that finds the ids: a visitor's
 * list of one category and tag at most from the counts kept per day (`dayCounted`); another filter
 * on categories, tags or organizers from its matches, read once for the page and the total (they may
 * be few and far between along the start index); any other walks the index for the page. Later
 * requests know the total (kept per revision). A stated filter names no localized field, so one
 * total serves every language, and so do a page's ids (kept per revision too: a page asked in
 * another language costs only its body).
 */
export async function listIds(scope: ReadScope, query: ListQuery): Promise<ListIds | undefined> {
  const { match, page, perPage } = query
  if (!stated(match)) return undefined
  const run = (plan: Plan) => pageIds(scope, query, plan)
  if (!query.count) {
    const { ids, body } = await run(walkedPage)
    return { ids, body }
  }
  const counted = async (): Promise<Plan> => {
    const days = dayCountable(match)
    const linked = filtersOnLinks(match)
    if (!days) return linked ? matchedPageAndTotal : walkedPageAndTotal
    const longest = await longestEvent(scope)
    return (condition, paging) =>
      pageOfCountedTotal(
        condition,
        paging,
        dayCounted(condition.probed, days, longest, paging.bind),
        linked,
      )
  }
  const cache = revisionCacheOf(scope.req.payload, 'revision')
  // The page's ids, as the total, serve every language and both forms of its URL.
  const countKey = totalKey([match, query.access.visibility])
  const idsKey = `${countKey}:page:${JSON.stringify([query.sort, page, perPage])}`
  // What this request's own statement read; a value another request is making is shared without its body.
  const made: { ids?: number[]; body?: unknown } = {}
  const count = await cache.get<ListCount>(scope.revision, countKey, async () => {
    const found = await run(await counted())
    made.ids = found.ids
    made.body = found.body
    return { total: found.total!, span: found.span }
  })
  if (made.ids) {
    const ids = made.ids
    await cache.get(scope.revision, idsKey, async () => ids)
    return { ids, total: count.total, body: made.body }
  }
  const known = knownTotalPage(query, count)
  if (!known) return { ids: [], total: count.total }
  const ids = await cache.get(scope.revision, idsKey, async () => {
    const found = await run(known)
    made.body = found.body
    return found.ids
  })
  return { ids, total: count.total, body: made.body }
}

/** How long the longest event lasts, in milliseconds (an index's last entry), once per content revision. */
function longestEvent(scope: ReadScope): Promise<number> {
  return revisionCacheOf(scope.req.payload, 'revision').get(
    scope.revision,
    'longest-event',
    async () => {
      const [row] = await requestQuery<{ ms: number | null }>(
        scope.req,
        sql`select extract(epoch from max("end" - start)) * 1000 as ms from events`,
      )
      return Math.max(0, Number(row?.ms ?? 0))
    },
  )
}

/**
 * Whether the counts kept per day can give the total of the events `match` selects: exactly what
 * they count (published, listed) within a window from a start to an end, in one category and one tag
 * at most. The page query serves only readers of the calendar's own read rule, and each of them sees every published event.
 * Anything else (drafts an editor sees, several terms, a search, a venue) is counted match by match.
 */
export function dayCountable(match: EventMatch): DayCountable | undefined {
  const { window, listed, statuses, categories, tags, ...others } = match
  if (Object.values(others).some((value) => value !== undefined)) return undefined
  if (!listed || statuses?.length !== 1 || statuses[0] !== 'publish' || window?.length !== 2)
    return undefined
  const from = window.find(({ field, op }) => field === 'start' && op === 'gte')
  const to = window.find(({ field, op }) => field === 'end' && op === 'lte')
  // A subcategory's events are the category's too: a category with any is several ids.
  const single = (ids: number[] | undefined) =>
    ids === undefined ? 0 : ids.length === 1 ? ids[0] : undefined
  const [category, tag] = [single(categories), single(tags)]
  if (!from || !to || category === undefined || tag === undefined) return undefined
  return { category, tag, from: from.value, to: to.value }
}

/**
 * The events of a page as PostgreSQL finds them (`pageIds`): `ids`, an `int[]` expression in the
 * page's order, after `ctes` (common table expressions it reads); `total` and `span`, expressions of
 * the list's count (`ListCount`); `shape`, what their text depends on beyond the list's filters
 * (the plan, and the plan's own choices).
 */
type PageSource = { ids: SQL; ctes?: SQL; total?: SQL; span?: SQL; shape: string }

/** A way to find a page: its statement's parts on the list's condition, for a page (`Paging`). */
type Plan = (condition: Matching, paging: Paging) => PageSource

/** What is known of a list once counted: its total, and the events of its window in all when the day counts gave them (`span`). */
type ListCount = { total: number; span?: number }

/** The statements of pages' ids by shape (`shapeOf`), each prepared once, run with its values. */
const statements = boundedCache<string, Statement>('pageIdStatements')

/**
 * What a statement's text depends on: the plan's shape, the order, the access rule (which states its
 * own values), and the filters the list has, without their values (numbers as 0, bounds as ''):
 * how many ids each list names, which bounds the window has, which statuses, flags and links.
 */
const shapeOf = ({ match, sort, access }: ListQuery, plan: string) =>
  JSON.stringify([
    plan,
    sort,
    access.key,
    JSON.stringify(match, (key, value: unknown) =>
      // A bound left undefined writes no SQL of its own, unlike a bound given: it stays out.
      value === undefined
        ? undefined
        : typeof value === 'number'
          ? 0
          : key === 'value' || key === 'startLocal'
            ? ''
            : value,
    ),
  ])

/**
 * The page's ids, in order, and the list's count when the plan counts it: a statement of its own,
 * before the body. Its text depends only on its shape (`shapeOf`), so drizzle builds it once per
 * shape and the values are its placeholders; PostgreSQL plans it for its values (how many events a
 * filter or window keeps decides how to find them) at least the first five times it runs on a
 * connection, and keeps a generic plan only when that is no dearer (rawQuery.ts, `Statement`).
 */
async function pageIds(
  scope: ReadScope,
  query: ListQuery,
  plan: Plan,
): Promise<{ ids: number[]; body?: unknown } & Partial<ListCount>> {
  const values: Record<string, unknown> = {}
  let bound = 0
  const bind: Bind = (value) => {
    const name = `v${bound++}`
    values[name] = value
    return sql`${sql.placeholder(name)}`
  }
  const condition = (links: LinkTest) =>
    sql`${matchSql(query.match, links, bind)!} and ${query.access.events}`
  const { ids, ctes, total, span, shape } = plan(
    { joined: condition('joined'), probed: condition('probed') },
    { order: EVENT_ORDERS[query.sort], page: query.page, perPage: query.perPage, bind },
  )
  const withBody = query.withBody === true
  const key = `${shapeOf(query, shape)}${withBody ? ':body' : ''}`
  let made = statements.get(key)
  if (!made) {
    const picked = sql`select ${ids} as ids, ${total ?? sql`null::int`} as total, ${span ?? sql`null::int`} as span`
    const body = sql`(${bodySql(query.access, sql`picked.ids`, sql`${sql.placeholder('language')}`)})`
    made = statement(
      scope.req.payload,
      withBody
        ? sql`with ${ctes ? sql`${ctes}, ` : sql``}picked as (${picked}) select picked.*, ${body} as body from picked`
        : sql`${ctes ? sql`with ${ctes} ` : sql``}${picked}`,
    )
    statements.set(key, made)
  }
  if (withBody) values.language = scope.language
  const [row] = await requestStatement<{
    ids: number[]
    total: number | null
    span: number | null
    body?: unknown
  }>(scope.req, made, values)
  return {
    ids: row?.ids ?? [],
    total: row?.total ?? undefined,
    span: row?.span ?? undefined,
    body: row?.body ?? undefined,
  }
}

/** With the window's size unknown, at most this many matches: the page is read from the matches, not along the start index. */
const FEW_MATCHES = 500

/**
 * With the window's size known (the day counts'), how many events a walk along the start index may
 * be expected to read before the page's are read from the matches instead. Walking read about 4 µs
 * an event at a million events (a test of each link included), reading the matches 3 µs an event of
 * the window, or far less when PostgreSQL can start from a rare link's index.
 */
const WALKED_EVENTS = 5_000

/** The orders events are listed in: by local start, by publication (ties by id), or by id. */
export type EventSort = 'start' | 'published' | 'id'

/** Each order's keys, ascending: the field as Payload names it, and its column of events. */
export type EventOrder = readonly { field: string; column: string }[]

export const EVENT_ORDERS: Record<EventSort, EventOrder> = {
  start: [
    { field: 'startLocal', column: 'start_local' },
    { field: 'id', column: 'id' },
  ],
  published: [
    { field: 'publishedAt', column: 'published_at' },
    { field: 'id', column: 'id' },
  ],
  id: [{ field: 'id', column: 'id' }],
}

/** Which events a list holds, as conditions on the row `e`, its links tested both ways (`LinkTest`). */
type Matching = Record<LinkTest, SQL>

/** Which page, in which order, its values entered by `bind`. */
type Paging = { order: EventOrder; page: number; perPage: number; bind: Bind }

/** The matches' ids with their sort keys as `o0`, `o1`… */
const matches = (condition: Matching, order: EventOrder) =>
  sql`select e.id, ${sql.raw(order.map(({ column }, index) => `e."${column}" as o${index}`).join(', '))} from events e where ${condition.joined}`

/** `order` as an `order by` list: on the row `e`'s columns, or on the matches' sort keys. */
const orderBy = (order: EventOrder, on: 'row' | 'matches') =>
  sql.raw(
    order.map(({ column }, index) => (on === 'row' ? `e."${column}"` : `o${index}`)).join(', '),
  )

/** A page's offset, in bigint: a `page` far past the end passes 2^31 (and is found empty, a 404). */
const offsetOf = ({ page, perPage, bind }: Paging) => sql`${bind((page - 1) * perPage)}::bigint`

const window = (paging: Paging) =>
  sql`limit ${paging.bind(paging.perPage)} offset ${offsetOf(paging)}`

/** Page `page` (from 1) of `perPage` events matching `condition` on the row `e`, in `order`, along the order's index. */
function walkedPage(condition: Matching, paging: Paging): PageSource {
  return { ids: walkedIds(condition, paging), shape: 'walked' }
}

const walkedIds = (condition: Matching, paging: Paging) =>
  sql`array(select e.id from events e where ${condition.probed} order by ${orderBy(paging.order, 'row')} ${window(paging)})`

/** `offset 0` keeps PostgreSQL from folding the matches back into a walk along the index. */
const matchedIds = (condition: Matching, paging: Paging) =>
  sql`array(select id from (${matches(condition, paging.order)} offset 0) m order by ${orderBy(paging.order, 'matches')} ${window(paging)})`

/** `walkedPage` and the number of all matches, counted in the same query. */
function walkedPageAndTotal(condition: Matching, paging: Paging): PageSource {
  return {
    ids: walkedIds(condition, paging),
    total: sql`(select count(*)::int from events e where ${condition.joined})`,
    shape: 'walked, counted',
  }
}

/** The page and the number of all matches, from the matches read once for both. */
function matchedPageAndTotal(condition: Matching, paging: Paging): PageSource {
  return {
    ctes: sql`m as materialized (${matches(condition, paging.order)})`,
    ids: sql`array(select id from m order by ${orderBy(paging.order, 'matches')} ${window(paging)})`,
    total: sql`(select count(*)::int from m)`,
    shape: 'matched, counted',
  }
}

/**
 * The page when the list's count is known: none past its total; walked along the index when a walk
 * reaches the page's end soon enough (`WALKED_EVENTS`, `FEW_MATCHES`); else read from the matches.
 */
function knownTotalPage(
  { page, perPage }: { page: number; perPage: number },
  { total, span }: ListCount,
): Plan | undefined {
  if ((page - 1) * perPage >= total) return undefined
  const walk =
    span === undefined ? total > FEW_MATCHES : span * page * perPage <= total * WALKED_EVENTS
  return (condition, paging) => ({
    ids: (walk ? walkedIds : matchedIds)(condition, paging),
    shape: walk ? 'walked' : 'matched',
  })
}

/**
 * The page and the list's count when the query itself finds them cheaply (`dayCounted`): the page
 * is then chosen as `knownTotalPage` chooses it, within the query. `linked`: whether the list
 * filters on links, the only lists whose matches may be few and far between along the index
 * (without, a page is always walked, and PostgreSQL plans one way less).
 */
function pageOfCountedTotal(
  condition: Matching,
  paging: Paging,
  counted: { total: SQL; span: SQL; shape: string },
  linked: boolean,
): PageSource {
  const { page, perPage, bind } = paging
  const few = linked
    ? // In bigint: a window's events times a page's end passes 2^31 on a large calendar.
      sql`when n.span::bigint * ${bind(page * perPage)} > n.total::bigint * ${bind(WALKED_EVENTS)} then ${matchedIds(condition, paging)}`
    : sql``
  return {
    ctes: sql`n as materialized (select ${counted.total} as total, ${counted.span} as span)`,
    ids: sql`(select case when n.total <= ${offsetOf(paging)} then '{}'::int[] ${few}
                          else ${walkedIds(condition, paging)} end from n)`,
    total: sql`(select total from n)`,
    span: sql`(select span from n)`,
    shape: `day counts, ${counted.shape}${linked ? ', linked' : ''}`,
  }
}
