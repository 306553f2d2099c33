import { errorCodes, resourceOf, type LinkedResource } from '../../calendar/resources'
import type { Unlocking } from '../../operations/events/find'
import { findLinkedList, type LinkedDoc } from '../../operations/linked/find'
import { findLinkedById } from '../../operations/linked/findOne'
import { idOfSlug } from '../../operations/readOne'
import type { Related } from '../../operations/related'
import type { Organizer, Venue } from '../../payload-types'
import type { RestContext } from '../context'
import { listResult, pageSize } from '../http/pagination'
import type { RestResult } from '../route'
import type { LinkedListParams } from '../schemas/linked'
import { serializeOrganizer } from '../serialize/organizer'
import type { LinkedOptions } from '../serialize/linked'
import { serializeVenue } from '../serialize/venue'

type LinkedKind = LinkedResource['key']

/** What differs between venues and organizers here: their serializer; everything else is one handler (docs/api.md §7). */
const SERIALIZE: Record<
  LinkedKind,
  (ctx: RestContext, doc: LinkedDoc, related: Related, options: LinkedOptions) => unknown
> = {
  venues: (ctx, doc, related, options) => serializeVenue(ctx, doc as Venue, related, options),
  organizers: (ctx, doc, related, options) =>
    serializeOrganizer(ctx, doc as Organizer, related, options),
}

/** `GET /venues`, `GET /organizers`: newest first, filters combined with AND. */
export async function listLinked(
  ctx: RestContext,
  kind: LinkedKind,
  params: LinkedListParams,
): Promise<RestResult> {
  const resource = resourceOf(kind)
  const perPage = pageSize(ctx, params.per_page)
  const found = await findLinkedList(ctx, kind, params, { page: params.page, perPage })
  return listResult({
    ctx,
    route: kind,
    key: kind,
    items: found.docs.map((doc) => SERIALIZE[kind](ctx, doc, found.related, {})),
    total: found.total,
    page: params.page,
    perPage,
    echo: found.echo,
    kept: { in: 'pages', args: found.keptByPages },
    pastEndCode: errorCodes(resource).pastLastPage,
    pastEndMessage: `The requested ${resource.singular} archive page does not exist`,
  })
}

/** Single venue or organizer (docs/api.md §5): unknown is a 400, unreadable a 403, protected redacted. */
export async function readLinked(
  ctx: RestContext,
  kind: LinkedKind,
  id: number,
  unlocking: Unlocking,
): Promise<RestResult> {
  const { doc, related, unlocked } = await findLinkedById(ctx, kind, id, unlocking)
  return { body: SERIALIZE[kind](ctx, doc, related, { single: true, unlocked }) }
}

export async function readLinkedBySlug(
  ctx: RestContext,
  kind: LinkedKind,
  slug: string,
  unlocking: Unlocking,
): Promise<RestResult> {
  return readLinked(ctx, kind, await idOfSlug(ctx, kind, slug), unlocking)
}
