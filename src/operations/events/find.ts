import { sql } from '@payloadcms/db-postgres'
import { combineQueries, type Where } from 'payload'
import { visibilityWhere } from '../../calendar/access/readVisibility'
import { dayCountable, dayCounted, longestEvent } from '../../database/events/dayCounts'
import {
  EVENT_ORDERS,
  knownTotalPage,
  matchedPageAndTotal,
  pageOfCountedTotal,
  walkedPage,
  walkedPageAndTotal,
  type EventOrder,
  type EventSort,
  type Matching,
} from '../../database/events/eventIds'
import {
  pageAccess,
  pageIds,
  type ListCount,
  type PageAccess,
} from '../../database/events/eventPage'
import {
  filtersOnLinks,
  matchSql,
  type EventMatch,
  type LinkTest,
} from '../../database/events/eventMatch'
import { revisionCacheOf } from '../../calendar/caches'
import type { Event } from '../../payload-types'
import { unlocks } from '../passwords'
import { readOptions } from '../read'
import type { Reader } from '../reader'
import { emptyRelated, loadRelated, type Related } from '../related'
import { matchWhere } from './matchWhere'
import { loadEventPage } from './page'
import { eventQuery, type EventFilter } from './selection'

export type Unlocking = { password?: string; context?: string }

/** Events as a reader gets them, with what they embed and which protected ones the request unlocked. */
export type EventPage = { events: Event[]; related: Related; total: number; unlocked: Set<number> }

/**
 * Which events to load: a page of those `match` selects in `sort` order, that the caller may read.
 * `count`: whether `total` counts every match (else it is the number loaded).
 */
export type EventSelection = {
  match: EventMatch
  sort: EventSort
  page: number
  perPage: number
  count: boolean
  unlocking: Unlocking
}

export const emptyPage = (): EventPage => ({
  events: [],
  related: emptyRelated(),
  total: 0,
  unlocked: new Set(),
})

/**
 * Page `page` of the events `filter` selects, `perPage` a page, counted, as the list serves them
 * (docs/api.md §4), with the effective arguments its links echo.
 */
export async function findEventList(
  reader: Reader,
  filter: EventFilter,
  { page, perPage, unlocking }: { page: number; perPage: number; unlocking: Unlocking },
) {
  const query = await eventQuery(reader, filter, perPage)
  const found = query.empty
    ? emptyPage()
    : await findEvents(reader, {
        match: query.match,
        sort: query.sort,
        page,
        perPage,
        count: true,
        unlocking,
      })
  return { ...found, echo: query.echo }
}

/** The events of a selection as the list serves them, by the cheapest path that gives this caller the same answer. */
export async function findEvents(reader: Reader, selection: EventSelection): Promise<EventPage> {
  const access = servedByPageQuery(reader, selection.unlocking) ? pageAccess(reader.req) : undefined
  return access
    ? pageOfQuery(reader, selection, access)
    : findEventsThroughPayload(reader, selection)
}

/**
 * Most readers (no password to try, no developer fields to read, the calendar's own access rules)
 * skip the local API (see `loadEventPage`): anonymous visitors, the bulk of a calendar's
 * traffic, and signed-in editors alike.
 */
export function servedByPageQuery(reader: Reader, unlocking: Unlocking): boolean {
  return (
    unlocking.password === undefined &&
    Object.values(reader.calendar.customFields).every((fields) => !fields.length)
  )
}

/**
 * The page in hand-written SQL. Which events it holds, and the list's total, are found by one
 * statement before the page's body when the selection can be stated as SQL (`matchSql`: all but a
 * search and a condition through the venue), else come from Payload's database adapter first.
 */
async function pageOfQuery(
  reader: Reader,
  selection: EventSelection,
  pageRules: PageAccess,
): Promise<EventPage> {
  const stated = (links: LinkTest) => {
    const filter = matchSql(selection.match, links)
    return filter && sql`${filter} and ${pageRules.events}`
  }
  const [joined, probed] = [stated('joined'), stated('probed')]
  const { events, related, total } =
    joined && probed
      ? await statedPage(reader, selection, { joined, probed }, pageRules)
      : await adapterPage(reader, selection, pageRules)
  const unlocked = new Set<number>()
  // Without a password, only `context=edit` by a reader who may edit the event opens it: no query.
  for (const event of events)
    if (
      event.hasPassword &&
      (await unlocks(reader, 'events', event, selection.unlocking, 'stay locked'))
    )
      unlocked.add(event.id)
  return { events, related, total: total ?? events.length, unlocked }
}

/**
 * Exact totals cost a scan of every match (most of the time of a page at a million events): once per
 * revision. The key holds the access rule, hence the reader's id wherever the rule names it.
 */
const totalKey = (selected: unknown) => `event-total:${JSON.stringify(selected)}`

/** Payload's `sort` for an order of events. */
const payloadSort = (sort: EventSort) => EVENT_ORDERS[sort].map(({ field }) => field)

type LoadedPage = Awaited<ReturnType<typeof loadEventPage>>

/**
 * A selection stated as SQL: its page's ids, then the page (`loadEventPage`). The first request for a
 * filter counts it in the statement that finds the ids: a visitor's list of one category and tag at
 * most from the counts kept per day (`dayCounted`); another filter on categories, tags or
 * organizers from its matches, read once for the page and the total (they may be few and far between
 * along the start index); any other walks the index for the page. Later requests know the total (kept per revision). A stated filter
 * names no localized field, so one total serves every language, and so do a page's ids (kept per
 * revision too: a page asked in another language costs only its body).
 */
async function statedPage(
  reader: Reader,
  selection: EventSelection,
  condition: Matching,
  pageRules: PageAccess,
) {
  const { page, perPage } = selection
  const order: EventOrder = EVENT_ORDERS[selection.sort]
  if (!selection.count)
    return loadEventPage(reader, walkedPage(condition, order, page, perPage), pageRules)
  const counted = async () => {
    const days = dayCountable(selection.match)
    const linked = filtersOnLinks(selection.match)
    if (!days)
      return (linked ? matchedPageAndTotal : walkedPageAndTotal)(condition, order, page, perPage)
    return pageOfCountedTotal(
      condition,
      order,
      page,
      perPage,
      dayCounted(condition.probed, days, await longestEvent(reader)),
      linked,
    )
  }
  const cache = revisionCacheOf(reader.req.payload, 'revision')
  // The page's ids, as the total, serve every language and both forms of its URL.
  const countKey = totalKey([selection.match, pageRules.visibility])
  const idsKey = `${countKey}:page:${JSON.stringify([selection.sort, page, perPage])}`
  const made: { page?: LoadedPage } = {}
  const count = await cache.get<ListCount>(reader.revision, countKey, async () => {
    made.page = await loadEventPage(reader, await counted(), pageRules)
    return { total: made.page.total!, span: made.page.span }
  })
  if (made.page) {
    const ids = made.page.events.map((event) => event.id)
    await cache.get(reader.revision, idsKey, async () => ids)
    return made.page
  }
  const source = knownTotalPage(condition, order, page, perPage, count)
  if (!source) return { events: [], related: emptyRelated(), total: count.total }
  const ids = await cache.get(
    reader.revision,
    idsKey,
    async () => (await pageIds(reader, source)).ids,
  )
  return { ...(await loadEventPage(reader, ids, pageRules)), total: count.total }
}

/** Any other selection: the page's ids and total from Payload's database adapter, with the same `where` and read access as its local API. */
async function adapterPage(
  reader: Reader,
  selection: EventSelection,
  pageRules: PageAccess,
): Promise<LoadedPage> {
  const where: Where = combineQueries(
    matchWhere(reader, selection.match),
    visibilityWhere(pageRules.visibility),
  )
  const args = { collection: 'events' as const, where, locale: reader.language, req: reader.req }
  const [found, total] = await Promise.all([
    reader.req.payload.db.find({
      ...args,
      sort: payloadSort(selection.sort),
      limit: selection.perPage,
      page: selection.page,
      pagination: false,
      select: { id: true },
    }),
    selection.count
      ? revisionCacheOf(reader.req.payload, 'revision').get(
          reader.revision,
          `${totalKey(where)}:${reader.language}`,
          async () => (await reader.req.payload.db.count(args)).totalDocs,
        )
      : undefined,
  ])
  const loaded = await loadEventPage(
    reader,
    found.docs.map((doc) => doc.id as number),
    pageRules,
  )
  return { ...loaded, total }
}

/** Every other reader: the local API with the caller's access, and protected events unlocked by password. */
export async function findEventsThroughPayload(
  reader: Reader,
  selection: EventSelection,
): Promise<EventPage> {
  const found = await reader.req.payload.find({
    ...readOptions(reader, 'events'),
    collection: 'events',
    where: matchWhere(reader, selection.match),
    sort: payloadSort(selection.sort),
    page: selection.page,
    limit: selection.perPage,
    pagination: selection.count,
  })
  const passwords = await passwordsOf(reader, found.docs as Event[], selection.unlocking.password)
  const unlocked = new Set<number>()
  for (const event of found.docs as Event[]) {
    if (
      await unlocks(
        reader,
        'events',
        { ...event, password: passwords.get(event.id) },
        selection.unlocking,
        'stay locked',
      )
    )
      unlocked.add(event.id)
  }
  const events = await withUnlockedContent(reader, found.docs as Event[], passwords, unlocked)
  const related = await loadRelated(reader, events)
  return { events, related, total: found.totalDocs, unlocked }
}

/** Stored passwords of the protected events of a page, in one query, when the caller sent one to try. */
async function passwordsOf(
  reader: Reader,
  events: Event[],
  given: string | undefined,
): Promise<Map<number, string | null>> {
  const ids = events.filter((event) => event.hasPassword).map((event) => event.id)
  if (!given || !ids.length) return new Map()
  const { docs } = await reader.req.payload.find({
    collection: 'events',
    req: reader.req,
    overrideAccess: true,
    depth: 0,
    pagination: false,
    where: { id: { in: ids } },
    select: { password: true },
  })
  return new Map(docs.map((doc) => [doc.id, doc.password ?? null]))
}

/**
 * Protected events whose password the reader gave come back from Payload without their content
 * (field access); read those again in full, in one query.
 */
async function withUnlockedContent(
  reader: Reader,
  events: Event[],
  passwords: Map<number, string | null>,
  unlocked: Set<number>,
): Promise<Event[]> {
  const ids = events
    .filter((event) => passwords.has(event.id) && unlocked.has(event.id))
    .map((event) => event.id)
  if (!ids.length) return events
  const { docs } = await reader.req.payload.find({
    ...readOptions(reader, 'events'),
    collection: 'events',
    overrideAccess: true,
    pagination: false,
    where: { id: { in: ids } },
  })
  const full = new Map((docs as Event[]).map((event) => [event.id, event]))
  return events.map((event) => full.get(event.id) ?? event)
}
