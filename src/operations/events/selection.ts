import { requestWindow, type EventWindowInput } from '../../calendar/dates/eventWindow'
import type { EventSort } from '../../database/events/eventIds'
import type { EventMatch } from '../../database/events/eventMatch'
import { laterOccurrences } from '../../database/events/laterOccurrences'
import { findByIdsPerRevision } from '../read'
import type { Reader } from '../reader'
import { Refusal } from '../refusal'
import { statusFilter } from '../status'
import { resolveTermEntries } from '../terms/entries'
import { venuesNear } from '../venues/near'

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
