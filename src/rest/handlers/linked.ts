import type { Where } from 'payload'
import type { Event, Organizer, Venue } from '../../payload-types'
import { capabilities } from '../../calendar/access/capabilities'
import { errorCodes, resourceOf, type LinkedResource } from '../../calendar/resources'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import { listResult, pageSize } from '../http/pagination'
import { unlocks } from '../../operations/passwords'
import { linkedWithEvents } from '../../database/linked/linkedWithEvents'
import { idBySlug } from '../../database/slugs'
import { findByIdsPerRevision, idIn, readOptions, searchWhere } from '../../operations/read'
import { statusFilter } from '../../operations/status'
import type { RestResult } from '../route'
import type { LinkedListParams } from '../schemas/linked'
import { idOf } from '../serialize/common'
import { emptyRelated, type Related } from '../../operations/related'
import { serializeOrganizer } from '../serialize/organizer'
import { serializeVenue, type LinkedOptions } from '../serialize/venue'

type Kind = LinkedResource['key']
type Doc = Venue | Organizer

/** What differs between venues and organizers; everything else is one handler (docs/api.md §7). */
const KINDS: Record<
  Kind,
  {
    searchPlain: string[]
    eventLinks: (event: Event) => unknown[]
    serialize: (ctx: RestContext, doc: Doc, related: Related, options: LinkedOptions) => unknown
  }
> = {
  venues: {
    searchPlain: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone', 'country'],
    eventLinks: (event) => [event.venue],
    serialize: (ctx, doc, related, options) => serializeVenue(ctx, doc as Venue, related, options),
  },
  organizers: {
    searchPlain: ['phone', 'email', 'website'],
    eventLinks: (event) => event.organizers ?? [],
    serialize: (ctx, doc, related, options) => serializeOrganizer(ctx, doc as Organizer, related, options),
  },
}

async function relatedOf(ctx: RestContext, docs: Doc[]): Promise<Related> {
  const related = emptyRelated()
  const images = docs.map((doc) => idOf(doc.image)).filter((id): id is number => id !== undefined)
  related.media = await findByIdsPerRevision(ctx, 'media', images)
  return related
}

/** `GET /venues`, `GET /organizers`: newest first, filters combined with AND. */
export async function listLinked(ctx: RestContext, kind: Kind, params: LinkedListParams): Promise<RestResult> {
  const { searchPlain, eventLinks, serialize } = KINDS[kind]
  const resource = resourceOf(kind)
  const { singular } = resource
  const perPage = pageSize(ctx, params.per_page)
  const and: Where[] = []
  const echo: [string, string][] = [['per_page', String(perPage)]]
  const pagesOnly: [string, string][] = []
  if (params.search) {
    and.push(searchWhere(ctx, { name: 'name', localized: ['descriptionHtml', 'excerpt'], plain: searchPlain }, params.search))
    echo.push(['search', params.search])
  }
  if (params.event !== undefined) {
    const event = (await findByIdsPerRevision<Event>(ctx, 'events', [params.event])).get(params.event)
    if (!event) throw RestError.invalidParams({ event: 'No such event.' })
    and.push(
      idIn(
        eventLinks(event)
          .map(idOf)
          .filter((id): id is number => id !== undefined),
      ),
    )
    echo.push(['event', String(params.event)])
  }
  if (params.has_events !== undefined) {
    const ids = await linkedWithEvents(ctx.req, kind)
    if (params.has_events.value) and.push(idIn(ids))
    else if (ids.length) and.push({ id: { not_in: ids } })
    echo.push(['has_events', params.has_events.given])
  }
  if (params.only_with_upcoming) {
    and.push(idIn(await linkedWithEvents(ctx.req, kind, { after: ctx.now, reader: ctx.actor })))
    pagesOnly.push(['only_with_upcoming', '1'])
  }
  const status = statusFilter(ctx, params.status)
  and.push(status.where)
  echo.push(['status', status.echo])

  const found = await ctx.req.payload.find({
    ...readOptions(ctx, kind),
    collection: kind,
    where: { and },
    sort: ['-publishedAt', '-id'],
    page: params.page,
    limit: perPage,
  })
  const docs = found.docs as Doc[]
  const related = await relatedOf(ctx, docs)
  return listResult({
    ctx,
    route: kind,
    key: kind,
    items: docs.map((doc) => serialize(ctx, doc, related, {})),
    total: found.totalDocs,
    page: params.page,
    perPage,
    echo,
    pagesOnly,
    pastEndCode: errorCodes(resource).pastLastPage,
    pastEndMessage: `The requested ${singular} archive page does not exist`,
  })
}

/** Single venue or organizer (docs/api.md §5): unknown is a 400, unreadable a 403, protected redacted. */
export async function readLinked(ctx: RestContext, kind: Kind, id: number, unlocking: { password?: string; context?: string }): Promise<RestResult> {
  const { serialize } = KINDS[kind]
  const resource = resourceOf(kind)
  const { singular } = resource
  const probe = await ctx.req.payload.findByID({
    collection: kind,
    id,
    depth: 0,
    overrideAccess: true,
    req: ctx.req,
    disableErrors: true,
    // The stored password too, so that checking a given one costs no second read.
    select: { status: true, author: true, hasPassword: true, password: true },
  })
  if (!probe) throw RestError.invalidParams({ id: `No ${singular} has this id.` })
  if (probe.status !== 'publish' && !capabilities.readUnpublished(ctx.actor, probe)) {
    throw new RestError(errorCodes(resource).notAccessible, `The requested ${singular} is not accessible`, 403)
  }
  const unlocked = await unlocks(ctx, kind, probe, unlocking, 'refuse')
  const doc = (await ctx.req.payload.findByID({
    ...readOptions(ctx, kind),
    collection: kind,
    id,
    overrideAccess: unlocked && Boolean(probe.hasPassword),
  })) as Doc
  return { body: serialize(ctx, doc, await relatedOf(ctx, [doc]), { single: true, unlocked }) }
}

export async function readLinkedBySlug(ctx: RestContext, kind: Kind, slug: string, unlocking: { password?: string; context?: string }): Promise<RestResult> {
  const id = await idBySlug(ctx, kind, slug)
  if (id === undefined) throw RestError.invalidParams({ slug: `No ${resourceOf(kind).singular} has this slug.` })
  return readLinked(ctx, kind, id, unlocking)
}
