import { revisionCacheOf } from '../../calendar/caches'
import { EVENTS } from '../../calendar/resources'
import type { Event, EventCategory, EventTag, Organizer, Venue } from '../../payload-types'
import { siteNameOf, type RestContext } from '../context'
import {
  CALENDAR_MEDIA_TYPE,
  renderCalendar,
  type CalendarContents,
  type FeedHeader,
} from '../ical/calendar'
import { zoneOf } from '../ical/event'
import { feedDescription } from '../ical/feed'
import { planSeries, type SeriesPlan } from '../ical/series'
import {
  emptyPage,
  eventQuery,
  findEvents,
  type EventMatch,
  type EventPage,
  type EventQuery,
  type Unlocking,
} from '../../operations/events/find'
import { readableEvent } from '../../operations/events/findOne'
import { idOfSlug } from '../../operations/readOne'
import { seriesMembers, type SeriesMember } from '../../operations/events/seriesMembers'
import { findByIdsPerRevision } from '../../operations/read'
import { missing } from '../../operations/readOne'
import { mergeRelated } from '../../operations/related'
import { statusFilter } from '../../operations/status'
import { resolveTermEntries } from '../../operations/terms/entries'
import type { RestResult } from '../route'
import type { EventFeedParams } from '../schemas/events'
import { idOf } from '../serialize/common'

/** These events, if the caller may see them under `visibility`, as the list loads them. */
function loadByIds(
  ctx: RestContext,
  ids: number[],
  visibility: EventMatch,
  unlocking: Unlocking,
): Promise<EventPage> {
  if (!ids.length) return Promise.resolve(emptyPage())
  return findEvents(ctx, {
    match: { ...visibility, ids },
    sort: 'start',
    page: 1,
    perPage: ids.length,
    count: false,
    unlocking,
  })
}

type SeriesScope = {
  /** What of a series the caller sees: the list's filters on status and listing, or a single read's. */
  visibility: EventMatch
  unlocking: Unlocking
  /** The feed: the first events of the series its events belong to are loaded too. */
  withParents: boolean
  /** A series' file: its events on days the rule does not give come with it. */
  withApart: boolean
}

/**
 * The events to write and the series among them, in a fixed number of queries whatever their number:
 * the series' first events (if asked), the later events of every series the caller sees, the latest
 * event each series made, then the exceptions (and events apart, if asked) not loaded yet.
 */
async function withSeries(
  ctx: RestContext,
  page: EventPage,
  scope: SeriesScope,
): Promise<CalendarContents> {
  const pages = [page]
  const loaded = new Map(page.events.map((event) => [event.id, event]))
  const add = (more: EventPage) => {
    pages.push(more)
    for (const event of more.events) loaded.set(event.id, event)
  }
  if (scope.withParents) {
    const parents = new Set(
      page.events
        .map((event) => idOf(event.parent))
        .filter((id): id is number => id !== undefined && !loaded.has(id)),
    )
    add(await loadByIds(ctx, [...parents], scope.visibility, scope.unlocking))
  }
  const heads = [...loaded.values()].filter((event) => event.recurrence?.trim())
  const ids = heads.map((event) => event.id)
  const { members, latest } = await seriesMembers(ctx, ids, scope.visibility)
  const membersOf = new Map<number, SeriesMember[]>()
  for (const member of members) {
    const known = membersOf.get(member.parent)
    if (known) known.push(member)
    else membersOf.set(member.parent, [member])
  }
  const plans = new Map<number, SeriesPlan>()
  for (const head of heads) {
    const plan = planSeries(
      head,
      zoneOf(ctx, head),
      membersOf.get(head.id) ?? [],
      latest.get(head.id),
    )
    if (plan) plans.set(head.id, plan)
  }
  const missing = [...plans.values()]
    .flatMap((plan) => [...plan.exceptions.keys(), ...(scope.withApart ? plan.apart : [])])
    .filter((id) => !loaded.has(id))
  add(await loadByIds(ctx, missing, scope.visibility, scope.unlocking))
  return {
    events: [...loaded.values()],
    related: mergeRelated(...pages.map((each) => each.related)),
    unlocked: new Set(pages.flatMap((each) => [...each.unlocked])),
    plans,
  }
}

/**
 * `GET /events.ics` (docs/api.md §22): the events `/events` lists with the same parameters, validated
 * the same way, every one of the window up to `icalMaxEvents`, with the series they belong to.
 */
export async function eventFeed(ctx: RestContext, params: EventFeedParams): Promise<RestResult> {
  const max = ctx.settings.icalMaxEvents
  const query = await eventQuery(ctx, params, max)
  const header = await feedHeader(ctx, params, query)
  const write = async () => {
    const listed = query.empty
      ? emptyPage()
      : await findEvents(ctx, {
          match: query.match,
          sort: query.sort,
          page: 1,
          perPage: max,
          count: false,
          unlocking: params,
        })
    const visibility: EventMatch = {
      listed: true,
      statuses: statusFilter(ctx, params.status).statuses,
    }
    const contents = await withSeries(ctx, listed, {
      visibility,
      unlocking: params,
      withParents: true,
      withApart: false,
    })
    return renderCalendar(ctx, contents, header)
  }
  // What an anonymous feed holds follows from the content's revision and these inputs alone (no password to try).
  const shared = !ctx.signedIn && params.password === undefined
  const key = JSON.stringify([
    ctx.root,
    ctx.permalinkBase,
    ctx.language,
    max,
    query.empty,
    query.match,
    header,
  ])
  const body = shared ? await feedCache(ctx).get(ctx.revision, key, write) : await write()
  return { body, contentType: CALENDAR_MEDIA_TYPE }
}

/** The names of these records the caller may read, in the order asked. */
async function namesOf<T extends { name: string }>(
  ctx: RestContext,
  collection: 'event-categories' | 'event-tags' | 'venues' | 'organizers',
  ids: number[],
) {
  const found = await findByIdsPerRevision<T>(ctx, collection, ids)
  return ids.map((id) => found.get(id)?.name).filter((name): name is string => Boolean(name))
}

async function termNames<T extends { name: string }>(
  ctx: RestContext,
  collection: 'event-categories' | 'event-tags',
  entries: string[] | undefined,
) {
  return entries
    ? namesOf<T>(ctx, collection, (await resolveTermEntries(ctx, collection, entries)).ids)
    : []
}

/**
 * The feed's name (the site's: its setting, else its host), its filter in words in the request's
 * language, and how often to read it again (docs/api.md §22). The records were read by the query
 * already: these lookups are kept per revision.
 */
async function feedHeader(
  ctx: RestContext,
  params: EventFeedParams,
  query: EventQuery,
): Promise<FeedHeader> {
  const [categories, tags, venues, organizers] = await Promise.all([
    termNames<EventCategory>(ctx, 'event-categories', params.categories),
    termNames<EventTag>(ctx, 'event-tags', params.tags),
    namesOf<Venue>(ctx, 'venues', params.venue ?? []),
    namesOf<Organizer>(ctx, 'organizers', params.organizer ?? []),
  ])
  // The window's days as the list echoes them, when the caller gave them.
  const day = (param: 'start_date' | 'end_date') =>
    params[param] === undefined
      ? undefined
      : query.echo.find(([name]) => name === param)?.[1].slice(0, 10)
  const description = feedDescription(ctx.language, {
    categories,
    tags,
    venues,
    organizers,
    featured: params.featured,
    search: params.search,
    from: day('start_date'),
    until: day('end_date'),
  })
  return {
    name: siteNameOf(ctx),
    description,
    refreshMinutes: ctx.settings.icalRefreshMinutes,
  }
}

/**
 * Anonymous feeds as written, per content revision and instance: calendar applications poll the same
 * few URLs, from every language root and with conditional requests, and a feed of a thousand events
 * still costs a few hundred milliseconds of loading and writing (docs/api.md §22.3).
 */
const feedCache = (ctx: RestContext) => revisionCacheOf(ctx.req.payload, 'icalFeeds')

/**
 * `GET /events/{id}.ics` (docs/api.md §22): one event as a file, after the single read's checks; a
 * series' first event gives the whole series. A protected event shows its title and times unless
 * unlocked, as in the feed.
 */
export async function eventFile(
  ctx: RestContext,
  id: number,
  unlocking: Unlocking,
): Promise<RestResult> {
  await readableEvent(ctx, id)
  const page = await findEvents(ctx, {
    match: { ids: [id] },
    sort: 'id',
    page: 1,
    perPage: 1,
    count: false,
    unlocking,
  })
  const event = page.events[0] as Event | undefined
  // The checks above let the caller read it; the load reads with the collection's access, which a
  // developer may narrow: then the event is not the caller's to know of, as in its JSON read.
  if (!event) throw missing(EVENTS, id)
  const visibility: EventMatch = { statuses: statusFilter(ctx, undefined).statuses }
  const contents = event.recurrence?.trim()
    ? await withSeries(ctx, page, { visibility, unlocking, withParents: false, withApart: true })
    : { events: page.events, related: page.related, unlocked: page.unlocked, plans: new Map() }
  return {
    body: renderCalendar(ctx, contents),
    contentType: CALENDAR_MEDIA_TYPE,
    headers: { 'Content-Disposition': attachment(`${event.slug || event.id}.ics`) },
  }
}

/** `GET /events/by-slug/{slug}.ics`: an unknown slug is a 400, then as by id. */
export async function eventFileBySlug(
  ctx: RestContext,
  slug: string,
  unlocking: Unlocking,
): Promise<RestResult> {
  return eventFile(ctx, await idOfSlug(ctx, 'events', slug), unlocking)
}

/**
 * `attachment; filename="{slug}.ics"`. Slugs are letters of any script, digits and hyphens: one that is
 * not ASCII also gets its UTF-8 name (RFC 6266's `filename*`), and an ASCII stand-in for old clients.
 */
function attachment(filename: string): string {
  const ascii = filename
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, (char) => (/\p{M}/u.test(char) ? '' : '_'))
  return ascii === filename
    ? `attachment; filename="${filename}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}
