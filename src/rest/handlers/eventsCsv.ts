import { stringify } from 'csv-stringify/sync'
import {
  csvHeaders,
  csvRow,
  writeCsvBoolean,
  writeCsvList,
  writeCurrencyPosition,
  type CsvRecord,
} from '../../calendar/csvColumns'
import { wallClockIn } from '../../calendar/dates/format'
import { eventUid } from '../../calendar/eventUid'
import { servedWebUrl } from '../../calendar/webUrl'
import { eventQuery, findEventsThroughPayload } from '../../operations/events/find'
import type { Related } from '../../operations/related'
import type { Event } from '../../payload-types'
import type { RestContext } from '../context'
import type { RestResult } from '../route'
import type { EventListParams } from '../schemas/events'
import { idOf } from '../serialize/common'
import { serializeImage } from '../serialize/image'

/** The most events one export holds; `X-Total` says how many matched (docs/api.md §23.4). */
export const EXPORT_LIMIT = 10_000
const PAGE = 500
export const CSV_TYPE = 'text/csv; charset=utf-8'

/**
 * `GET /events.csv`: the events `/events` would list with the same parameters (window, filters,
 * the caller's access), all pages of them up to `EXPORT_LIMIT`, in the CSV import's columns, so the
 * file imports back unchanged. Password-protected content stays withheld, as in the list.
 */
export async function exportEvents(ctx: RestContext, params: EventListParams): Promise<RestResult> {
  const query = await eventQuery(ctx, params, EXPORT_LIMIT)
  const host = new URL(ctx.settings.siteUrl || ctx.root).host
  const rows = [csvHeaders('events')]
  let total = 0
  for (let page = 1; !query.empty && rows.length <= EXPORT_LIMIT; page++) {
    // Payload's field access withholds protected content; no password unlocks it here.
    const found = await findEventsThroughPayload(ctx, {
      match: query.match,
      sort: query.sort,
      page,
      perPage: PAGE,
      count: true,
      unlocking: {},
    })
    total = found.total
    for (const event of found.events)
      rows.push(csvRow('events', eventRecord(ctx, event, found.related, host)))
    if (page * PAGE >= total) break
  }
  return {
    body: stringify(rows.slice(0, EXPORT_LIMIT + 1)),
    contentType: CSV_TYPE,
    headers: {
      'X-Total': String(total),
      'Content-Disposition': 'attachment; filename="events.csv"',
    },
  }
}

function names(ids: unknown, found: Map<number, { name?: string | null }>): string {
  const list = Array.isArray(ids) ? ids : []
  return writeCsvList(list.map((value) => found.get(idOf(value) ?? 0)?.name ?? '').filter(Boolean))
}

function eventRecord(
  ctx: RestContext,
  event: Event,
  related: Related,
  host: string,
): CsvRecord<'events'> {
  const zone = event.timezone || ctx.settings.timezone
  const start = wallClockIn(new Date(event.start), zone)
  const end = wallClockIn(new Date(event.end), zone)
  const image = idOf(event.image)
  return {
    uid: eventUid(event.id, host),
    title: event.title,
    description: event.descriptionHtml ?? '',
    excerpt: event.excerpt ?? '',
    startDate: start.slice(0, 10),
    startTime: event.allDay ? '' : start.slice(11),
    endDate: end.slice(0, 10),
    endTime: event.allDay ? '' : end.slice(11),
    allDay: writeCsvBoolean(event.allDay),
    timezone: event.timezone ?? '',
    venue: related.venues.get(idOf(event.venue) ?? 0)?.name ?? '',
    organizers: names(event.organizers, related.organizers),
    showMapLink: writeCsvBoolean(event.showMapLink),
    showMap: writeCsvBoolean(event.showMap),
    cost: (event.cost ?? []).join(', '),
    currencySymbol: event.currencySymbol ?? '',
    currencyPosition: writeCurrencyPosition(event.currencyPosition),
    categories: names(event.categories, related.categories),
    tags: names(event.tags, related.tags),
    website: servedWebUrl(event.website),
    image:
      image === undefined
        ? ''
        : ((serializeImage(ctx, related.media.get(image))?.url as string | undefined) ?? ''),
    featured: writeCsvBoolean(event.featured),
    sticky: writeCsvBoolean(event.sticky),
  }
}
