import { combineQueries, type Where } from 'payload'
import { visibilityWhere } from '../../calendar/access/readVisibility'
import { EVENT_ORDERS, listIds, totalKey, type EventSort } from '../../database/events/eventIds'
import { pageAccess, type PageAccess } from '../../database/events/eventPage'
import type { EventMatch } from '../../database/events/eventMatch'
import { revisionCacheOf } from '../../calendar/caches'
import type { Event } from '../../payload-types'
import { unlocks } from '../passwords'
import { readOptions } from '../read'
import type { Reader } from '../reader'
import { emptyRelated, loadRelated, type Related } from '../related'
import { matchWhere } from './matchWhere'
import { loadEventPage } from './page'
import type { EventQuery } from './selection'

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
 * Page `page` of the events `query` selects (`eventQuery`), `perPage` a page, counted, as the list
 * serves them (docs/api.md §4), with the effective arguments its links echo.
 */
export async function findEventList(
  reader: Reader,
  query: EventQuery,
  { page, perPage, unlocking }: { page: number; perPage: number; unlocking: Unlocking },
) {
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
 * statement before the page's body when the selection can be stated as SQL (`listIds`: all but a
 * search and a condition through the venue), else come from Payload's database adapter first.
 */
async function pageOfQuery(
  reader: Reader,
  selection: EventSelection,
  access: PageAccess,
): Promise<EventPage> {
  const listed = await listIds(reader, { ...selection, access })
  const { events, related, total } = listed
    ? { ...(await loadEventPage(reader, listed.ids, access)), total: listed.total }
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
