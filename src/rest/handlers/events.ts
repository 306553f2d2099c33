import { errorCodes, EVENTS } from '../../calendar/resources'
import { findEventList, type Unlocking } from '../../operations/events/find'
import { findEventById } from '../../operations/events/findOne'
import { idOfSlug } from '../../operations/readOne'
import type { RestContext } from '../context'
import { listResult, pageSize } from '../http/pagination'
import type { RestResult } from '../route'
import type { EventListParams } from '../schemas/events'
import { serializeEvent, type Fragments } from '../serialize/event'

/** `GET /events` (docs/api.md §4). */
export async function listEvents(ctx: RestContext, params: EventListParams): Promise<RestResult> {
  const perPage = pageSize(ctx, params.per_page)
  // The parameters themselves, not a copy: the date window made for the ETag is kept by them (`requestWindow`).
  const found = await findEventList(ctx, params, { page: params.page, perPage, unlocking: params })
  const fragments: Fragments = new Map()
  return listResult({
    ctx,
    route: 'events',
    key: 'events',
    items: found.events.map((event) =>
      serializeEvent(
        ctx,
        event,
        found.related,
        { unlocked: found.unlocked.has(event.id) },
        fragments,
      ),
    ),
    total: found.total,
    page: params.page,
    perPage,
    echo: found.echo,
    kept: { in: 'pages', args: keptByPages(params) },
    pastEndCode: errorCodes(EVENTS).pastLastPage,
    pastEndMessage: 'The requested event archive page does not exist',
  })
}

/**
 * What the next and previous pages keep besides `rest_url`'s arguments, which leave them out as
 * upstream's do (docs/api.md §4.5): `strict_dates` (without it, the echoed bounds would snap to whole
 * days and select other events) and `context=edit`. Never the `password`: a URL is logged and shared.
 */
function keptByPages(params: EventListParams): [string, string][] {
  return [
    ...(params.strict_dates ? [['strict_dates', '1'] as [string, string]] : []),
    ...(params.context === 'edit' ? [['context', 'edit'] as [string, string]] : []),
  ]
}

/** `GET /events/{id}` (docs/api.md §5): the event with its `json_ld`. */
export async function readEvent(
  ctx: RestContext,
  id: number,
  unlocking: Unlocking,
): Promise<RestResult> {
  const { doc: event, related } = await findEventById(ctx, id, unlocking)
  return { body: serializeEvent(ctx, event, related, { single: true, unlocked: true }) }
}

/** `GET /events/by-slug/{slug}`: an unknown slug is a 400, then as by id (docs/api.md §5). */
export async function readEventBySlug(
  ctx: RestContext,
  slug: string,
  unlocking: Unlocking,
): Promise<RestResult> {
  return readEvent(ctx, await idOfSlug(ctx, 'events', slug), unlocking)
}
