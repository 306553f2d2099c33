import { sql } from '@payloadcms/db-postgres'
import { revisionCacheOf } from '../../calendar/caches'
import { requestQuery, type SQL } from '../rawQuery'
import type { ReadScope } from '../readScope'
import { dayCountable, dayCounted, longestEvent } from './dayCounts'
import { filtersOnLinks, matchSql, type EventMatch, type LinkTest } from './eventMatch'
import type { PageAccess } from './eventPage'

/**
 * Which events a page of a list holds, and the list's total, for lists whose filters `matchSql`
 * states: as parts of the statement that finds a page's ids (`PageSource`), so that a list made
 * afresh costs two queries, that one and the page's body (docs/performance.md, "Filtered lists").
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
}

/** A page's ids, in order, and the list's total when it was asked. */
export type ListIds = { ids: number[]; total?: number }

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
  const { match, page, perPage, access } = query
  const stated = (links: LinkTest) => {
    const filter = matchSql(match, links)
    return filter && sql`${filter} and ${access.events}`
  }
  const [joined, probed] = [stated('joined'), stated('probed')]
  if (!joined || !probed) return undefined
  const condition: Matching = { joined, probed }
  const order = EVENT_ORDERS[query.sort]
  if (!query.count)
    return { ids: (await pageIds(scope, walkedPage(condition, order, page, perPage))).ids }
  const counted = async () => {
    const days = dayCountable(match)
    const linked = filtersOnLinks(match)
    if (!days)
      return (linked ? matchedPageAndTotal : walkedPageAndTotal)(condition, order, page, perPage)
    const total = dayCounted(condition.probed, days, await longestEvent(scope))
    return pageOfCountedTotal(condition, order, page, perPage, total, linked)
  }
  const cache = revisionCacheOf(scope.req.payload, 'revision')
  // The page's ids, as the total, serve every language and both forms of its URL.
  const countKey = `event-total:${JSON.stringify([match, access.visibility])}`
  const idsKey = `${countKey}:page:${JSON.stringify([query.sort, page, perPage])}`
  const made: { ids?: number[] } = {}
  const count = await cache.get<ListCount>(scope.revision, countKey, async () => {
    const found = await pageIds(scope, await counted())
    made.ids = found.ids
    return { total: found.total!, span: found.span }
  })
  if (made.ids) {
    const ids = made.ids
    await cache.get(scope.revision, idsKey, async () => ids)
    return { ids, total: count.total }
  }
  const source = knownTotalPage(condition, order, page, perPage, count)
  if (!source) return { ids: [], total: count.total }
  const ids = await cache.get(
    scope.revision,
    idsKey,
    async () => (await pageIds(scope, source)).ids,
  )
  return { ids, total: count.total }
}

/**
 * The events of a page as PostgreSQL finds them (`pageIds`): `ids`, an `int[]` expression in the
 * page's order, after `ctes` (common table expressions it reads); `total` and `span`, expressions of
 * the list's count (`ListCount`).
 */
type PageSource = { ids: SQL; ctes?: SQL; total?: SQL; span?: SQL }

/** What is known of a list once counted: its total, and the events of its window in all when the day counts gave them (`span`). */
type ListCount = { total: number; span?: number }

/**
 * The page's ids, in order, and the list's count when `source` counts it: a statement of its own,
 * planned for its values (how many events a filter or window keeps decides how to find them), before
 * the body, whose text is one of a few and whose plan PostgreSQL keeps (`pageBody`).
 */
async function pageIds(
  scope: ReadScope,
  { ids, ctes, total, span }: PageSource,
): Promise<{ ids: number[] } & Partial<ListCount>> {
  const [row] = await requestQuery<{ ids: number[]; total: number | null; span: number | null }>(
    scope.req,
    sql`${ctes ? sql`with ${ctes} ` : sql``}select ${ids} as ids, ${total ?? sql`null::int`} as total, ${span ?? sql`null::int`} as span`,
  )
  return { ids: row?.ids ?? [], total: row?.total ?? undefined, span: row?.span ?? undefined }
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

/** The matches' ids with their sort keys as `o0`, `o1`… */
const matches = (condition: Matching, order: EventOrder) =>
  sql`select e.id, ${sql.raw(order.map(({ column }, index) => `e."${column}" as o${index}`).join(', '))} from events e where ${condition.joined}`

/** `order` as an `order by` list: on the row `e`'s columns, or on the matches' sort keys. */
const orderBy = (order: EventOrder, on: 'row' | 'matches') =>
  sql.raw(
    order.map(({ column }, index) => (on === 'row' ? `e."${column}"` : `o${index}`)).join(', '),
  )

const window = (page: number, perPage: number) =>
  sql`limit ${perPage} offset ${(page - 1) * perPage}`

/** Page `page` (from 1) of `perPage` events matching `condition` on the row `e`, in `order`, along the order's index. */
function walkedPage(
  condition: Matching,
  order: EventOrder,
  page: number,
  perPage: number,
): PageSource {
  return { ids: walkedIds(condition, order, page, perPage) }
}

const walkedIds = (condition: Matching, order: EventOrder, page: number, perPage: number) =>
  sql`array(select e.id from events e where ${condition.probed} order by ${orderBy(order, 'row')} ${window(page, perPage)})`

/** `offset 0` keeps PostgreSQL from folding the matches back into a walk along the index. */
const matchedIds = (condition: Matching, order: EventOrder, page: number, perPage: number) =>
  sql`array(select id from (${matches(condition, order)} offset 0) m order by ${orderBy(order, 'matches')} ${window(page, perPage)})`

/** `walkedPage` and the number of all matches, counted in the same query. */
function walkedPageAndTotal(
  condition: Matching,
  order: EventOrder,
  page: number,
  perPage: number,
): PageSource {
  return {
    ...walkedPage(condition, order, page, perPage),
    total: sql`(select count(*)::int from events e where ${condition.joined})`,
  }
}

/** The page and the number of all matches, from the matches read once for both. */
function matchedPageAndTotal(
  condition: Matching,
  order: EventOrder,
  page: number,
  perPage: number,
): PageSource {
  return {
    ctes: sql`m as materialized (${matches(condition, order)})`,
    ids: sql`array(select id from m order by ${orderBy(order, 'matches')} ${window(page, perPage)})`,
    total: sql`(select count(*)::int from m)`,
  }
}

/**
 * The page when the list's count is known: none past its total; walked along the index when a walk
 * reaches the page's end soon enough (`WALKED_EVENTS`, `FEW_MATCHES`); else read from the matches.
 */
function knownTotalPage(
  condition: Matching,
  order: EventOrder,
  page: number,
  perPage: number,
  { total, span }: ListCount,
): PageSource | undefined {
  if ((page - 1) * perPage >= total) return undefined
  const walk =
    span === undefined ? total > FEW_MATCHES : span * page * perPage <= total * WALKED_EVENTS
  return { ids: (walk ? walkedIds : matchedIds)(condition, order, page, perPage) }
}

/**
 * The page and the list's count when the query itself finds them cheaply (`dayCounted`): the page
 * is then chosen as `knownTotalPage` chooses it, within the query. `linked`: whether the list
 * filters on links, the only lists whose matches may be few and far between along the index
 * (without, a page is always walked, and PostgreSQL plans one way less).
 */
function pageOfCountedTotal(
  condition: Matching,
  order: EventOrder,
  page: number,
  perPage: number,
  counted: { total: SQL; span: SQL },
  linked: boolean,
): PageSource {
  const few = linked
    ? sql`when n.span * ${page * perPage} > n.total * ${WALKED_EVENTS} then ${matchedIds(condition, order, page, perPage)}`
    : sql``
  return {
    ctes: sql`n as materialized (select ${counted.total} as total, ${counted.span} as span)`,
    ids: sql`(select case when n.total <= ${(page - 1) * perPage} then '{}'::int[] ${few}
                          else ${walkedIds(condition, order, page, perPage)} end from n)`,
    total: sql`(select total from n)`,
    span: sql`(select span from n)`,
  }
}
