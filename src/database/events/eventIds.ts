import { sql } from '@payloadcms/db-postgres'
import { boundedCache, revisionCacheOf } from '../../calendar/caches'
import { requestStatement, statement, type SQL, type Statement } from '../rawQuery'
import type { ReadScope } from '../readScope'
import { dayCounted, longestEvent, type DayCountable } from './dayCounts'
import {
  filtersOnLinks,
  matchSql,
  stated,
  type Bind,
  type EventMatch,
  type LinkTest,
} from './eventMatch'
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
  if (!query.count) return { ids: (await run(walkedPage)).ids }
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
  const made: { ids?: number[] } = {}
  const count = await cache.get<ListCount>(scope.revision, countKey, async () => {
    const found = await run(await counted())
    made.ids = found.ids
    return { total: found.total!, span: found.span }
  })
  if (made.ids) {
    const ids = made.ids
    await cache.get(scope.revision, idsKey, async () => ids)
    return { ids, total: count.total }
  }
  const known = knownTotalPage(query, count)
  if (!known) return { ids: [], total: count.total }
  const ids = await cache.get(scope.revision, idsKey, async () => (await run(known)).ids)
  return { ids, total: count.total }
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
): Promise<{ ids: number[] } & Partial<ListCount>> {
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
  const key = shapeOf(query, shape)
  let made = statements.get(key)
  if (!made) {
    made = statement(
      scope.req.payload,
      sql`${ctes ? sql`with ${ctes} ` : sql``}select ${ids} as ids, ${total ?? sql`null::int`} as total, ${span ?? sql`null::int`} as span`,
    )
    statements.set(key, made)
  }
  const [row] = await requestStatement<{
    ids: number[]
    total: number | null
    span: number | null
  }>(scope.req, made, values)
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

const window = ({ page, perPage, bind }: Paging) =>
  sql`limit ${bind(perPage)} offset ${bind((page - 1) * perPage)}`

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
    ? sql`when n.span * ${bind(page * perPage)} > n.total * ${bind(WALKED_EVENTS)} then ${matchedIds(condition, paging)}`
    : sql``
  return {
    ctes: sql`n as materialized (select ${counted.total} as total, ${counted.span} as span)`,
    ids: sql`(select case when n.total <= ${bind((page - 1) * perPage)} then '{}'::int[] ${few}
                          else ${walkedIds(condition, paging)} end from n)`,
    total: sql`(select total from n)`,
    span: sql`(select span from n)`,
    shape: `day counts, ${counted.shape}${linked ? ', linked' : ''}`,
  }
}
