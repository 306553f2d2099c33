import { sql } from '@payloadcms/db-postgres'
import { combineQueries, type Where } from 'payload'
import { revisionCache } from '../../database/revision'
import type { Event } from '../../payload-types'
import { capabilities } from '../../calendar/access/capabilities'
import { errorCodes, EVENTS } from '../../calendar/resources'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import { listResult, pageSize } from '../http/pagination'
import { unlocks } from '../passwords'
import { eventQuery } from '../query/eventList'
import { dayCountable, dayCounted, longestEvent } from '../query/dayCounts'
import {
  eventOrder,
  knownTotalPage,
  matchedPageAndTotal,
  pageOfCountedTotal,
  walkedPage,
  walkedPageAndTotal,
  type EventOrder,
  type Matching,
} from '../query/eventIds'
import { loadEventPage, pageAccess, pageIds, type ListCount, type PageAccess } from '../query/eventPage'
import { EVENT_FIELDS, filtersOnLinks, whereSql, type LinkTest } from '../query/whereSql'
import { idBySlug, readOptions } from '../query/read'
import { loadRelated } from '../query/related'
import type { EventListParams } from '../schemas/events'
import { serializeEvent } from '../serialize/event'
import { emptyRelated, type Related } from '../serialize/related'
import type { RestResult } from '../route'

export type Unlocking = { password?: string; context?: string }

/** Events as a reader gets them, with what they embed and which protected ones the request unlocked. */
export type EventPage = { events: Event[]; related: Related; total: number; unlocked: Set<number> }

/**
 * Which events to load: a page of those matching `where` in `sort` order, that the caller may read.
 * `count`: whether `total` counts every match (else it is the number loaded).
 */
export type EventSelection = { where: Where; sort: string[]; page: number; perPage: number; count: boolean; unlocking: Unlocking }

const emptyPage = (): EventPage => ({ events: [], related: emptyRelated(), total: 0, unlocked: new Set() })

/** `GET /events` (docs/api.md §4). */
export async function listEvents(ctx: RestContext, params: EventListParams): Promise<RestResult> {
  const perPage = pageSize(ctx, params.per_page)
  const query = await eventQuery(ctx, params, perPage)
  const page = query.empty
    ? emptyPage()
    : await loadEvents(ctx, { where: query.where, sort: query.sort, page: params.page, perPage, count: true, unlocking: params })
  return listResult({
    ctx,
    route: 'events',
    key: 'events',
    items: page.events.map((event) => serializeEvent(ctx, event, page.related, { unlocked: page.unlocked.has(event.id) })),
    total: page.total,
    page: params.page,
    perPage,
    echo: query.echo,
    pastEndCode: errorCodes(EVENTS).pastLastPage,
    pastEndMessage: 'The requested event archive page does not exist',
  })
}

/** The events of a selection as the list serves them, by the cheapest path that gives this caller the same answer. */
export async function loadEvents(ctx: RestContext, selection: EventSelection): Promise<EventPage> {
  const access = servedByPageQuery(ctx, selection.unlocking) ? await pageAccess(ctx) : undefined
  return access ? pageOfQuery(ctx, selection, access) : accessControlledPage(ctx, selection)
}

/**
 * Most readers (no password to try, no developer fields to read, access rules the page query can
 * state) skip the local API (see `loadEventPage`): anonymous visitors, the bulk of a calendar's
 * traffic, and signed-in editors alike.
 */
function servedByPageQuery(ctx: RestContext, unlocking: Unlocking): boolean {
  return unlocking.password === undefined && Object.values(ctx.calendar.customFields).every((fields) => !fields.length)
}

/**
 * The page in hand-written SQL. Which events it holds, and the list's total, are found by one
 * statement before the page's body when the selection can be stated as SQL (`whereSql`: the
 * namespace's own filters), else come from Payload's database adapter first.
 */
async function pageOfQuery(ctx: RestContext, selection: EventSelection, pageRules: PageAccess): Promise<EventPage> {
  const access = pageRules.eventRule
  if (access === false) return emptyPage()
  const where = combineQueries(selection.where, access)
  const stated = (links: LinkTest) => {
    const filter = whereSql(selection.where, 'e', EVENT_FIELDS, links)
    return filter && sql`${filter} and ${pageRules.events}`
  }
  const [joined, probed] = [stated('joined'), stated('probed')]
  const order = eventOrder(selection.sort)
  const { events, related, total } =
    joined && probed && order
      ? await statedPage(ctx, selection, { joined, probed }, order, where, pageRules)
      : await adapterPage(ctx, selection, where, pageRules)
  const unlocked = new Set<number>()
  // Without a password, only `context=edit` by a reader who may edit the event opens it: no query.
  for (const event of events) if (event.hasPassword && (await unlocks(ctx, 'events', event, selection.unlocking, 'stay locked'))) unlocked.add(event.id)
  return { events, related, total: total ?? events.length, unlocked }
}

/**
 * Exact totals cost a scan of every match (most of the time of a page at a million events): once per
 * revision. The key holds the access rule, hence the reader's id wherever the rule names it.
 */
const totalKey = (where: Where) => `event-total:${JSON.stringify(where)}`

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
async function statedPage(ctx: RestContext, selection: EventSelection, condition: Matching, order: EventOrder, where: Where, pageRules: PageAccess) {
  const { page, perPage } = selection
  if (!selection.count) return loadEventPage(ctx, walkedPage(condition, order, page, perPage), pageRules)
  const counted = async () => {
    const days = dayCountable(where)
    const linked = filtersOnLinks(selection.where, EVENT_FIELDS)
    if (!days) return (linked ? matchedPageAndTotal : walkedPageAndTotal)(condition, order, page, perPage)
    return pageOfCountedTotal(condition, order, page, perPage, dayCounted(condition.probed, days, await longestEvent(ctx)), linked)
  }
  const cache = revisionCache(ctx.req.payload)
  // The page's ids, as the total, serve every language and both forms of its URL.
  const countKey = totalKey(where)
  const idsKey = `${countKey}:page:${JSON.stringify([selection.sort, page, perPage])}`
  const made: { page?: LoadedPage } = {}
  const count = await cache.get<ListCount>(ctx.revision, countKey, async () => {
    made.page = await loadEventPage(ctx, await counted(), pageRules)
    return { total: made.page.total!, span: made.page.span }
  })
  if (made.page) {
    const ids = made.page.events.map((event) => event.id)
    await cache.get(ctx.revision, idsKey, async () => ids)
    return made.page
  }
  const source = knownTotalPage(condition, order, page, perPage, count)
  if (!source) return { events: [], related: emptyRelated(), total: count.total }
  const ids = await cache.get(ctx.revision, idsKey, async () => (await pageIds(ctx, source)).ids)
  return { ...(await loadEventPage(ctx, ids, pageRules)), total: count.total }
}

/** Any other selection: the page's ids and total from Payload's database adapter, with the same `where` and read access as its local API. */
async function adapterPage(ctx: RestContext, selection: EventSelection, where: Where, pageRules: PageAccess): Promise<LoadedPage> {
  const args = { collection: 'events' as const, where, locale: ctx.language, req: ctx.req }
  const [found, total] = await Promise.all([
    ctx.req.payload.db.find({ ...args, sort: selection.sort, limit: selection.perPage, page: selection.page, pagination: false, select: { id: true } }),
    selection.count
      ? revisionCache(ctx.req.payload).get(ctx.revision, `${totalKey(where)}:${ctx.language}`, async () => (await ctx.req.payload.db.count(args)).totalDocs)
      : undefined,
  ])
  const loaded = await loadEventPage(
    ctx,
    found.docs.map((doc) => doc.id as number),
    pageRules,
  )
  return { ...loaded, total }
}

/** Every other reader: the local API with the caller's access, and protected events unlocked by password. */
async function accessControlledPage(ctx: RestContext, selection: EventSelection): Promise<EventPage> {
  const found = await ctx.req.payload.find({
    ...readOptions(ctx, 'events'),
    collection: 'events',
    where: selection.where,
    sort: selection.sort,
    page: selection.page,
    limit: selection.perPage,
    pagination: selection.count,
  })
  const passwords = await passwordsOf(ctx, found.docs as Event[], selection.unlocking.password)
  const unlocked = new Set<number>()
  for (const event of found.docs as Event[]) {
    if (await unlocks(ctx, 'events', { ...event, password: passwords.get(event.id) }, selection.unlocking, 'stay locked')) unlocked.add(event.id)
  }
  const events = await withUnlockedContent(ctx, found.docs as Event[], passwords, unlocked)
  const related = await loadRelated(ctx, events)
  return { events, related, total: found.totalDocs, unlocked }
}

/** Stored passwords of the protected events of a page, in one query, when the caller sent one to try. */
async function passwordsOf(ctx: RestContext, events: Event[], given: string | undefined): Promise<Map<number, string | null>> {
  const ids = events.filter((event) => event.hasPassword).map((event) => event.id)
  if (!given || !ids.length) return new Map()
  const { docs } = await ctx.req.payload.find({
    collection: 'events',
    req: ctx.req,
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
async function withUnlockedContent(ctx: RestContext, events: Event[], passwords: Map<number, string | null>, unlocked: Set<number>): Promise<Event[]> {
  const ids = events.filter((event) => passwords.has(event.id) && unlocked.has(event.id)).map((event) => event.id)
  if (!ids.length) return events
  const { docs } = await ctx.req.payload.find({
    ...readOptions(ctx, 'events'),
    collection: 'events',
    overrideAccess: true,
    pagination: false,
    where: { id: { in: ids } },
  })
  const full = new Map((docs as Event[]).map((event) => [event.id, event]))
  return events.map((event) => full.get(event.id) ?? event)
}

/** Steps 1 to 3 of a single read (docs/api.md §5): the event exists, is not in the trash, and the caller may read it. */
export async function readableEvent(ctx: RestContext, id: number) {
  const probe = await ctx.req.payload.findByID({
    collection: 'events',
    id,
    depth: 0,
    overrideAccess: true,
    req: ctx.req,
    disableErrors: true,
    // The stored password too, so that checking a given one costs no second read.
    select: { status: true, author: true, hasPassword: true, password: true },
  })
  if (!probe) throw new RestError(errorCodes(EVENTS).notFound, `Event with ID ${id} does not exist.`, 404)
  if (probe.status === 'trash') throw new RestError('event-no-longer-available', 'This event is no longer available', 403)
  if (probe.status !== 'publish' && !capabilities.readUnpublished(ctx.actor, probe)) {
    throw new RestError(errorCodes(EVENTS).notAccessible, 'The requested event is not accessible', 403)
  }
  return probe
}

/** The decision sequence of a single read (docs/api.md §5), then the event with its `json_ld`. */
export async function readEvent(ctx: RestContext, id: number, unlocking: Unlocking): Promise<RestResult> {
  const probe = await readableEvent(ctx, id)
  const unlocked = await unlocks(ctx, 'events', probe, unlocking, 'refuse')
  if (!unlocked) throw new RestError('event-password-protected', 'The requested event is not accessible without a password', 403)
  const pageRules = servedByPageQuery(ctx, {}) ? await pageAccess(ctx) : undefined
  if (pageRules) {
    const { events, related } = await loadEventPage(ctx, [id], pageRules)
    if (!events[0]) throw new RestError(errorCodes(EVENTS).notAccessible, 'The requested event is not accessible', 403)
    return { body: serializeEvent(ctx, events[0], related, { single: true, unlocked: true }) }
  }
  // A reader who gave the right password may see content that field access hides from anonymous readers.
  const event = (await ctx.req.payload.findByID({
    ...readOptions(ctx, 'events'),
    collection: 'events',
    id,
    overrideAccess: Boolean(probe.hasPassword),
  })) as Event
  const related = await loadRelated(ctx, [event])
  return { body: serializeEvent(ctx, event, related, { single: true, unlocked: true }) }
}

/** `GET /events/by-slug/{slug}`: an unknown slug is a 400, then as by id (docs/api.md §5). */
export async function readEventBySlug(ctx: RestContext, slug: string, unlocking: Unlocking): Promise<RestResult> {
  const id = await idBySlug(ctx, 'events', slug)
  if (id === undefined) throw RestError.invalidParams({ slug: 'No event has this slug.' })
  return readEvent(ctx, id, unlocking)
}
