import { combineQueries, type Where } from 'payload'
import { unlockFor } from '../../calendar/access/collectionAccess'
import { visibilityWhere } from '../../calendar/access/readVisibility'
import { revisionCacheOf } from '../../calendar/caches'
import { requestWindow, type EventWindowInput } from '../../calendar/dates/resolve'
import {
  EVENT_ORDERS,
  listIds,
  totalKey,
  type EventMatch,
  type EventSort,
} from '../../database/events/eventMatch'
import { pageAccess, type PageAccess } from '../../database/events/eventPage'
import { laterOccurrences } from '../../database/events/laterOccurrences'
import type { Event } from '../../payload-types'
import { unlocks } from '../passwords'
import { findByIdsPerRevision, readOptions } from '../read'
import type { Reader } from '../reader'
import { Refusal } from '../refusal'
import { emptyRelated, loadRelated, type Related } from '../related'
import { statusFilter } from '../status'
import { resolveTermEntries } from '../terms/entries'
import { venuesNear } from '../venues/near'
import { matchWhere } from './matchWhere'
import { loadEventPage } from './page'

/*
 * Lists of events: the parameters to the events they select (`eventQuery`), then a page of them for
 * this caller (`findEvents`); a list's route calls both at once (`findEventList`).
 */

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
 * Which events a list, feed or export selects, in the namespace's parameter names (upstream's):
 * the date window, the filters on links, flags, places and statuses, and `include`, which lists
 * these ids whatever their dates.
 */
export type EventFilter = EventWindowInput & {
  search?: string
  categories?: string[]
  tags?: string[]
  venue?: number[]
  organizer?: number[]
  featured?: boolean
  status?: string[]
  geoloc?: boolean
  geoloc_lat?: number
  geoloc_lng?: number
  geoloc_radius?: number
  include?: number[]
  post_parent?: number
  ticketed?: boolean
  hide_subsequent_recurrences?: boolean
}

export type { EventMatch }

export type EventQuery = {
  match: EventMatch
  sort: EventSort
  /** Effective arguments for `rest_url`, in upstream's order. */
  echo: [string, string][]
  /** A filter already known to match nothing (no venue near the point). */
  empty: boolean
}

/**
 * The order in which upstream writes the arguments of `rest_url` (its list of supported arguments, then
 * `venue`, `organizer`, `featured`, added after it); categories, tags and the radius, which upstream
 * does not echo, at their places in that list.
 */
const ECHO_ORDER = [
  'per_page',
  'start_date',
  'end_date',
  'search',
  'categories',
  'tags',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'geoloc_radius',
  'status',
  'post_parent',
  'include',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'ticketed',
  'venue',
  'organizer',
  'featured',
  'hide_subsequent_recurrences',
]

/** What the parts of `eventQuery` add to: the match, the echoed arguments and the parameters refused. */
type Selecting = {
  reader: Reader
  params: EventFilter
  match: EventMatch
  echo: Record<string, string>
  invalid: Record<string, string>
}

/**
 * The event list's parameters as the events they select (docs/api.md §4, §4.2, §4.5, §12).
 * Parameters that name records (categories, tags, venues, organizers, parent) must name existing
 * ones. Filters on links and flags match protected events too, which lists show redacted, as
 * upstream's do.
 */
export async function eventQuery(
  reader: Reader,
  params: EventFilter,
  perPage: number,
): Promise<EventQuery> {
  const selecting: Selecting = {
    reader,
    params,
    match: { listed: true },
    echo: { per_page: String(perPage) },
    invalid: {},
  }
  const { match, echo, invalid } = selecting
  if (!params.include) await selectWindow(selecting)
  if (params.search) {
    match.search = params.search
    echo.search = params.search
  }
  await selectLinks(selecting)
  if (params.featured !== undefined) {
    match.featured = params.featured
    echo.featured = params.featured ? '1' : '0'
  }
  const status = statusFilter(reader, params.status)
  match.statuses = status.statuses
  echo.status = status.echo
  const empty = await selectPlace(selecting)
  if (params.include) {
    match.ids = params.include
    echo.include = params.include.join(',')
  }
  if (params.post_parent !== undefined) {
    const parent = await findByIdsPerRevision(reader, 'events', [params.post_parent])
    if (!parent.size) invalid.post_parent = 'No such event.'
    match.parents = [params.post_parent]
    echo.post_parent = String(params.post_parent)
  }
  if (params.ticketed !== undefined) {
    match.ticketed = params.ticketed
    echo.ticketed = params.ticketed ? '1' : '0'
  }
  if (params.hide_subsequent_recurrences !== undefined)
    echo.hide_subsequent_recurrences = params.hide_subsequent_recurrences ? '1' : '0'
  if (Object.keys(invalid).length) throw Refusal.invalidParams(invalid)
  // `include` lists in publication order (docs/api.md §4.3); otherwise by start, ties by id (docs/api.md §4.5).
  return {
    match,
    sort: params.include ? 'published' : 'start',
    echo: ECHO_ORDER.filter((name) => name in echo).map((name) => [name, echo[name]!]),
    empty,
  }
}

/** The date window, and the later events of series it leaves out when asked. */
async function selectWindow({ reader, params, match, echo }: Selecting): Promise<void> {
  const window = requestWindow(params, reader.settings.timezone, reader.now)
  match.window = window.bounds
  Object.assign(echo, window.echo)
  if (params.hide_subsequent_recurrences) {
    const later = await laterOccurrences(reader, window.bounds)
    if (later.length) match.excluded = later
  }
}

/** The filters on links: terms by id or slug (categories with their subcategories), venues and organizers by id. */
async function selectLinks({ reader, params, match, echo, invalid }: Selecting): Promise<void> {
  for (const param of ['categories', 'tags'] as const) {
    const entries = params[param]
    if (!entries) continue
    const { ids, unknown } = await resolveTermEntries(
      reader,
      param === 'tags' ? 'event-tags' : 'event-categories',
      entries,
      { subcategories: param === 'categories' },
    )
    if (unknown.length)
      invalid[param] = `No such ${param === 'tags' ? 'tag' : 'category'}: ${unknown.join(', ')}.`
    match[param] = ids
    echo[param] = entries.join(',')
  }
  for (const [param, collection, key] of [
    ['venue', 'venues', 'venues'],
    ['organizer', 'organizers', 'organizers'],
  ] as const) {
    const ids = params[param]
    if (!ids) continue
    const found = await findByIdsPerRevision(reader, collection, ids)
    const missing = ids.filter((id) => !found.has(id))
    if (missing.length) invalid[param] = `No such ${param}: ${missing.join(', ')}.`
    match[key] = ids
    echo[param] = ids.join(',')
  }
}

/** `geoloc` and the venues near a point; true when no venue is near it (the list is then empty). */
async function selectPlace({ reader, params, match, echo, invalid }: Selecting): Promise<boolean> {
  if (params.geoloc !== undefined) {
    match.geoloc = params.geoloc
    echo.geoloc = params.geoloc ? '1' : '0'
  }
  if ((params.geoloc_lat === undefined) !== (params.geoloc_lng === undefined)) {
    invalid[params.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng'] =
      'geoloc_lat and geoloc_lng go together.'
    return false
  }
  if (params.geoloc_lat === undefined || params.geoloc_lng === undefined) return false
  const radius = params.geoloc_radius ?? reader.settings.geolocRadiusKm
  match.near = await venuesNear(reader, params.geoloc_lat, params.geoloc_lng, radius)
  Object.assign(echo, {
    geoloc_lat: String(params.geoloc_lat),
    geoloc_lng: String(params.geoloc_lng),
    geoloc_radius: String(radius),
  })
  return match.near.length === 0
}

/**
 * Page `page` of the events a list's parameters select (`eventQuery`), `perPage` a page, counted, as
 * the list serves them (docs/api.md §4), with the effective arguments its links echo: the one
 * operation of `GET /events`.
 */
export async function findEventList(
  reader: Reader,
  params: EventFilter,
  { page, perPage, unlocking }: { page: number; perPage: number; unlocking: Unlocking },
) {
  const query = await eventQuery(reader, params, perPage)
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
  // Most readers (no password to try, the calendar's own access rules) skip the local API (see
  // `loadEventPage`): anonymous visitors, the bulk of a calendar's traffic, and signed-in editors alike.
  const access = selection.unlocking.password === undefined ? pageAccess(reader.req) : undefined
  return access
    ? pageOfQuery(reader, selection, access)
    : findEventsThroughPayload(reader, selection)
}

/**
 * The page in hand-written SQL. Which events it holds, and the list's total, are found by the
 * statement that reads the page's body too when the selection can be stated as SQL (`listIds`: all
 * but a search and a condition through the venue; a page whose ids are kept reads its body alone),
 * else come from Payload's database adapter first.
 */
async function pageOfQuery(
  reader: Reader,
  selection: EventSelection,
  access: PageAccess,
): Promise<EventPage> {
  const listed = await listIds(reader, { ...selection, access, withBody: true })
  const { events, related, total } = listed
    ? { ...(await loadEventPage(reader, listed.ids, access, listed.body)), total: listed.total }
    : await adapterPage(reader, selection, access)
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

/** Payload's `sort` for an order of events. */
const payloadSort = (sort: EventSort) => EVENT_ORDERS[sort].map(({ field }) => field)

/** Any other selection: the page's ids and total from Payload's database adapter, with the same `where` and read access as its local API. */
async function adapterPage(
  reader: Reader,
  selection: EventSelection,
  pageRules: PageAccess,
): Promise<{ events: Event[]; related: Related; total?: number }> {
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
 * Protected events whose password the reader gave come back from Payload without their content;
 * read those again, unlocked, in one query: with the reader's access, so a developer's rules still
 * hold (a field no one may read stays unread).
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
  unlockFor(reader.req, 'events', ids)
  const { docs } = await reader.req.payload.find({
    ...readOptions(reader, 'events'),
    collection: 'events',
    pagination: false,
    where: { id: { in: ids } },
  })
  const full = new Map((docs as Event[]).map((event) => [event.id, event]))
  return events.map((event) => full.get(event.id) ?? event)
}
