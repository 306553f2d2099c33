import type { Where } from 'payload'
import type { DateBound } from '../../calendar/dates/resolve'
import { indexedWindow, type EventMatch } from '../../database/events/eventMatch'
import { idIn, searchWhere } from '../read'
import type { Reader } from '../reader'
import { statusWhere } from '../status'

const OPERATOR: Record<DateBound['op'], string> = {
  gte: 'greater_than_equal',
  lte: 'less_than_equal',
  gt: 'greater_than',
  lt: 'less_than',
}

/**
 * `match` as Payload's `where`, for the reads Payload serves: a password to try, developers' fields
 * or access rules, a search, a condition through the venue, the export. The same conditions as
 * `matchSql` (database/events/eventMatch.ts), each from the same typed part.
 */
export function matchWhere(reader: Reader, match: EventMatch): Where {
  const and: Where[] = indexedWindow(match.window ?? []).map(({ field, op, value }) => ({
    [field]: { [OPERATOR[op]]: value },
  }))
  if (match.listed) and.push({ hideFromListings: { not_equals: true } })
  if (match.statuses) and.push(statusWhere(match.statuses))
  if (match.ids) and.push(idIn(match.ids))
  if (match.excluded?.length) and.push({ id: { not_in: match.excluded } })
  const links = [
    ['venue', match.venues],
    ['venue', match.near],
    ['parent', match.parents],
    ['categories', match.categories],
    ['tags', match.tags],
    ['organizers', match.organizers],
  ] as const
  for (const [field, ids] of links) if (ids) and.push(idIn(ids, field))
  if (match.featured !== undefined) and.push({ featured: { equals: match.featured } })
  if (match.ticketed !== undefined) and.push({ ticketed: { equals: match.ticketed } })
  if (match.geoloc !== undefined) {
    and.push(
      match.geoloc
        ? { 'venue.geoLat': { exists: true } }
        : { or: [{ venue: { exists: false } }, { 'venue.geoLat': { exists: false } }] },
    )
  }
  if (match.search) {
    and.push(
      searchWhere(
        reader,
        { name: 'title', localized: ['descriptionHtml', 'excerpt'], plain: [] },
        match.search,
        'anyField',
      ),
    )
    // WordPress leaves protected posts out of visitors' searches altogether, titles included.
    if (!reader.signedIn) and.push({ hasPassword: { not_equals: true } })
  }
  return { and }
}
