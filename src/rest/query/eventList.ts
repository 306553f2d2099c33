import type { Where } from 'payload'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import type { EventListParams } from '../schemas/events'
import { eventWindow, type DateBound } from './eventWindow'
import { venuesNear } from './geo'
import { resolveTermEntries } from './terms'
import { statusFilter } from './status'
import { findByIds, searchWhere, withheldAware } from './read'

export type EventQuery = {
  where: Where
  sort: string[]
  /** Effective arguments for `rest_url`, in upstream's order. */
  echo: [string, string][]
  /** A filter already known to match nothing (no venue near the point). */
  empty: boolean
}

const FIELD: Record<DateBound['field'], string> = { start: 'startLocal', end: 'endLocal' }
const OPERATOR: Record<DateBound['op'], string> = { gte: 'greater_than_equal', lte: 'less_than_equal', gt: 'greater_than', lt: 'less_than' }

/**
 * The event list's parameters as a Payload `where` (upstream §5, contract §3–§4, §10). Parameters
 * that name records (categories, tags, venues, organizers, parent) must name existing ones.
 */
export async function eventQuery(ctx: RestContext, params: EventListParams, perPage: number): Promise<EventQuery> {
  const and: Where[] = [{ hideFromListings: { not_equals: true } }]
  const echo: [string, string][] = [['per_page', String(perPage)]]
  const invalid: Record<string, string> = {}
  let empty = false

  if (!params.include) {
    const window = eventWindow(params, ctx.settings.timezone, ctx.now)
    for (const bound of window.bounds) and.push({ [FIELD[bound.field]]: { [OPERATOR[bound.op]]: bound.value } })
    echo.push(...Object.entries(window.echo))
  }
  if (params.search) {
    and.push(searchWhere(ctx, { name: 'title', localized: ['descriptionHtml', 'excerpt'], plain: [] }, params.search, 'anyField'))
    echo.push(['search', params.search])
  }
  for (const [param, collection, field] of [
    ['categories', 'event-categories', 'categories'],
    ['tags', 'event-tags', 'tags'],
  ] as const) {
    const entries = params[param]
    if (!entries) continue
    const { ids, unknown } = await resolveTermEntries(ctx, collection, entries)
    if (unknown.length) invalid[param] = `No such ${param === 'tags' ? 'tag' : 'category'}: ${unknown.join(', ')}.`
    and.push(withheldAware(ctx, { [field]: { in: ids } }))
    echo.push([param, entries.join(',')])
  }
  for (const [param, collection, field] of [
    ['venue', 'venues', 'venue'],
    ['organizer', 'organizers', 'organizers'],
  ] as const) {
    const ids = params[param]
    if (!ids) continue
    const found = await findByIds(ctx, collection, ids)
    const missing = ids.filter((id) => !found.has(id))
    if (missing.length) invalid[param] = `No such ${param}: ${missing.join(', ')}.`
    and.push(withheldAware(ctx, { [field]: { in: ids } }))
    echo.push([param, ids.join(',')])
  }
  if (params.featured !== undefined) {
    and.push(withheldAware(ctx, { featured: { equals: params.featured } }))
    echo.push(['featured', params.featured ? '1' : '0'])
  }
  const status = statusFilter(ctx, params.status)
  and.push(status.where)
  echo.push(['status', status.echo])

  if (params.geoloc !== undefined) {
    and.push(withheldAware(ctx, params.geoloc ? { 'venue.geoLat': { exists: true } } : { or: [{ venue: { exists: false } }, { 'venue.geoLat': { exists: false } }] }))
    echo.push(['geoloc', params.geoloc ? '1' : '0'])
  }
  if ((params.geoloc_lat === undefined) !== (params.geoloc_lng === undefined)) {
    invalid[params.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng'] = 'geoloc_lat and geoloc_lng go together.'
  } else if (params.geoloc_lat !== undefined && params.geoloc_lng !== undefined) {
    const radius = params.geoloc_radius ?? ctx.settings.geolocRadiusKm
    const near = await venuesNear(ctx, params.geoloc_lat, params.geoloc_lng, radius)
    empty = near.length === 0
    and.push(withheldAware(ctx, { venue: { in: near } }))
    echo.push(['geoloc_lat', String(params.geoloc_lat)], ['geoloc_lng', String(params.geoloc_lng)], ['geoloc_radius', String(radius)])
  }
  if (params.include) {
    and.push({ id: { in: params.include } })
    echo.push(['include', params.include.join(',')])
  }
  if (params.post_parent !== undefined) {
    const parent = await findByIds(ctx, 'events', [params.post_parent])
    if (!parent.size) invalid.post_parent = 'No such event.'
    and.push({ parent: { equals: params.post_parent } })
    echo.push(['post_parent', String(params.post_parent)])
  }
  if (params.ticketed !== undefined) {
    and.push({ ticketed: { equals: params.ticketed } })
    echo.push(['ticketed', params.ticketed ? '1' : '0'])
  }
  if (Object.keys(invalid).length) throw RestError.invalidParams(invalid)
  // `include` lists in publication order (upstream §5.4); otherwise by start, ties by id (contract §3).
  const sort = params.include ? ['publishedAt', 'id'] : ['startLocal', 'id']
  return { where: { and }, sort, echo, empty }
}
