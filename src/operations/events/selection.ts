import { DateTime } from 'luxon'
import type { Where } from 'payload'
import { formatWallClock, utcWallClock } from '../../calendar/dates/format'
import { requestWindow, type DateBound, type EventWindowInput } from '../../calendar/dates/eventWindow'
import { laterOccurrences } from '../../database/events/laterOccurrences'
import { findByIdsPerRevision, searchWhere } from '../read'
import type { Reader } from '../reader'
import { Refusal } from '../refusal'
import { statusFilter } from '../status'
import { resolveTermEntries, withSubcategories } from '../terms/entries'
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

export type EventQuery = {
  where: Where
  sort: string[]
  /** Effective arguments for `rest_url`, in upstream's order. */
  echo: [string, string][]
  /** A filter already known to match nothing (no venue near the point). */
  empty: boolean
}

const OPERATOR: Record<DateBound['op'], string> = { gte: 'greater_than_equal', lte: 'less_than_equal', gt: 'greater_than', lt: 'less_than' }

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

/** No zone is further than this from UTC (Kiribati is UTC+14, Baker Island UTC-12). */
const WIDEST_OFFSET_HOURS = 14

/**
 * A date bound on the event's UTC instant, plus a bound on its local start widened by the widest
 * zone offset: the same bound for the start, and for an upper bound on the end the same one too (no
 * event ends before it starts: collections/Events.ts). These never change the result; they let
 * PostgreSQL walk the index the list is ordered by (local start) from the window's first day, and see
 * where that walk stops. The local end gets none: PostgreSQL multiplies the shares of events each
 * bound keeps as if they were unrelated, and with both local bounds it took a month's 27,000 events
 * of a million for ten, then read them all and sorted them instead of walking to the page.
 */
function dateCondition({ field, op, value }: DateBound): Where {
  const lower = op === 'gte' || op === 'gt'
  if (field === 'end' && lower) return { end: { [OPERATOR[op]]: value } }
  const widened = new Date(Date.parse(value) + (lower ? -1 : 1) * WIDEST_OFFSET_HOURS * 3_600_000)
  // Plain UTC fields: every list asks this, and a luxon DateTime costs many times more.
  const wallClock = utcWallClock(widened) ?? formatWallClock(DateTime.fromJSDate(widened, { zone: 'utc' }))
  return { and: [{ [field]: { [OPERATOR[op]]: value } }, { startLocal: { [lower ? 'greater_than_equal' : 'less_than_equal']: wallClock } }] }
}

/**
 * The event list's parameters as a Payload `where` (docs/api.md §4, docs/api.md §4.2, §4.5, §12). Parameters
 * that name records (categories, tags, venues, organizers, parent) must name existing ones. Filters
 * on links and flags match protected events too, which lists show redacted, as upstream's do.
 */
export async function eventQuery(reader: Reader, params: EventFilter, perPage: number): Promise<EventQuery> {
  const and: Where[] = [{ hideFromListings: { not_equals: true } }]
  const echo: Record<string, string> = { per_page: String(perPage) }
  const invalid: Record<string, string> = {}
  let empty = false

  if (!params.include) {
    const window = requestWindow(params, reader.settings.timezone, reader.now)
    and.push(...window.bounds.map(dateCondition))
    Object.assign(echo, window.echo)
    if (params.hide_subsequent_recurrences) {
      const later = await laterOccurrences(reader, window.bounds)
      if (later.length) and.push({ id: { not_in: later } })
    }
  }
  if (params.search) {
    and.push(searchWhere(reader, { name: 'title', localized: ['descriptionHtml', 'excerpt'], plain: [] }, params.search, 'anyField'))
    // WordPress leaves protected posts out of visitors' searches altogether, titles included.
    if (!reader.signedIn) and.push({ hasPassword: { not_equals: true } })
    echo.search = params.search
  }
  for (const [param, collection, field] of [
    ['categories', 'event-categories', 'categories'],
    ['tags', 'event-tags', 'tags'],
  ] as const) {
    const entries = params[param]
    if (!entries) continue
    const { ids, unknown } = await resolveTermEntries(reader, collection, entries)
    if (unknown.length) invalid[param] = `No such ${param === 'tags' ? 'tag' : 'category'}: ${unknown.join(', ')}.`
    and.push({ [field]: { in: param === 'categories' ? await withSubcategories(reader, ids) : ids } })
    echo[param] = entries.join(',')
  }
  for (const [param, collection, field] of [
    ['venue', 'venues', 'venue'],
    ['organizer', 'organizers', 'organizers'],
  ] as const) {
    const ids = params[param]
    if (!ids) continue
    const found = await findByIdsPerRevision(reader, collection, ids)
    const missing = ids.filter((id) => !found.has(id))
    if (missing.length) invalid[param] = `No such ${param}: ${missing.join(', ')}.`
    and.push({ [field]: { in: ids } })
    echo[param] = ids.join(',')
  }
  if (params.featured !== undefined) {
    and.push({ featured: { equals: params.featured } })
    echo.featured = params.featured ? '1' : '0'
  }
  const status = statusFilter(reader, params.status)
  and.push(status.where)
  echo.status = status.echo

  if (params.geoloc !== undefined) {
    and.push(params.geoloc ? { 'venue.geoLat': { exists: true } } : { or: [{ venue: { exists: false } }, { 'venue.geoLat': { exists: false } }] })
    echo.geoloc = params.geoloc ? '1' : '0'
  }
  if ((params.geoloc_lat === undefined) !== (params.geoloc_lng === undefined)) {
    invalid[params.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng'] = 'geoloc_lat and geoloc_lng go together.'
  } else if (params.geoloc_lat !== undefined && params.geoloc_lng !== undefined) {
    const radius = params.geoloc_radius ?? reader.settings.geolocRadiusKm
    const near = await venuesNear(reader, params.geoloc_lat, params.geoloc_lng, radius)
    empty = near.length === 0
    and.push({ venue: { in: near } })
    Object.assign(echo, { geoloc_lat: String(params.geoloc_lat), geoloc_lng: String(params.geoloc_lng), geoloc_radius: String(radius) })
  }
  if (params.include) {
    and.push({ id: { in: params.include } })
    echo.include = params.include.join(',')
  }
  if (params.post_parent !== undefined) {
    const parent = await findByIdsPerRevision(reader, 'events', [params.post_parent])
    if (!parent.size) invalid.post_parent = 'No such event.'
    and.push({ parent: { equals: params.post_parent } })
    echo.post_parent = String(params.post_parent)
  }
  if (params.ticketed !== undefined) {
    and.push({ ticketed: { equals: params.ticketed } })
    echo.ticketed = params.ticketed ? '1' : '0'
  }
  if (params.hide_subsequent_recurrences !== undefined) echo.hide_subsequent_recurrences = params.hide_subsequent_recurrences ? '1' : '0'
  if (Object.keys(invalid).length) throw Refusal.invalidParams(invalid)
  // `include` lists in publication order (docs/api.md §4.3); otherwise by start, ties by id (docs/api.md §4.5).
  const sort = params.include ? ['publishedAt', 'id'] : ['startLocal', 'id']
  return { where: { and }, sort, echo: ECHO_ORDER.filter((name) => name in echo).map((name) => [name, echo[name]!]), empty }
}
