import type { Where } from 'payload'
import { idOf } from '../../calendar/relationId'
import { linkedWithEvents, type LinkedKind } from '../../database/linked/linkedWithEvents'
import type { Event, Organizer, Venue } from '../../payload-types'
import { findByIdsPerRevision, idIn, readOptions, searchWhere } from '../read'
import type { Reader } from '../reader'
import { Refusal } from '../refusal'
import { emptyRelated, type Related } from '../related'
import { statusFilter, statusWhere } from '../status'

export type LinkedDoc = Venue | Organizer

/** Which venues or organizers a list selects, in the namespace's parameter names (docs/api.md §7). */
export type LinkedFilter = {
  search?: string
  event?: number
  has_events?: { value: boolean; given: string }
  only_with_upcoming?: boolean
  status?: string[]
}

/** What differs between venues and organizers in a list's filters. */
const KINDS: Record<
  LinkedKind,
  { searchPlain: string[]; eventLinks: (event: Event) => unknown[] }
> = {
  venues: {
    searchPlain: [
      'address',
      'city',
      'province',
      'state',
      'stateprovince',
      'zip',
      'phone',
      'country',
    ],
    eventLinks: (event) => [event.venue],
  },
  organizers: {
    searchPlain: ['phone', 'email', 'website'],
    eventLinks: (event) => event.organizers ?? [],
  },
}

/** What a venue or organizer embeds: its image. */
export async function linkedRelated(reader: Reader, docs: LinkedDoc[]): Promise<Related> {
  const related = emptyRelated()
  const images = docs.map((doc) => idOf(doc.image)).filter((id): id is number => id !== undefined)
  related.media = await findByIdsPerRevision(reader, 'media', images)
  return related
}

/**
 * Page `page` of the venues or organizers `filter` selects, newest first, filters combined with AND,
 * with what they embed, the effective arguments the links echo, and those only the pages' links keep.
 */
export async function findLinkedList(
  reader: Reader,
  kind: LinkedKind,
  filter: LinkedFilter,
  { page, perPage }: { page: number; perPage: number },
) {
  const { searchPlain, eventLinks } = KINDS[kind]
  const and: Where[] = []
  const echo: [string, string][] = [['per_page', String(perPage)]]
  const keptByPages: [string, string][] = []
  if (filter.search) {
    and.push(
      searchWhere(
        reader,
        { name: 'name', localized: ['descriptionHtml', 'excerpt'], plain: searchPlain },
        filter.search,
      ),
    )
    echo.push(['search', filter.search])
  }
  if (filter.event !== undefined) {
    const event = (await findByIdsPerRevision<Event>(reader, 'events', [filter.event])).get(
      filter.event,
    )
    if (!event) throw Refusal.invalidParams({ event: 'No such event.' })
    and.push(
      idIn(
        eventLinks(event)
          .map(idOf)
          .filter((id): id is number => id !== undefined),
      ),
    )
    echo.push(['event', String(filter.event)])
  }
  if (filter.has_events !== undefined) {
    const ids = await linkedWithEvents(reader.req, kind)
    if (filter.has_events.value) and.push(idIn(ids))
    else if (ids.length) and.push({ id: { not_in: ids } })
    echo.push(['has_events', filter.has_events.given])
  }
  if (filter.only_with_upcoming) {
    and.push(
      idIn(await linkedWithEvents(reader.req, kind, { after: reader.now, reader: reader.actor })),
    )
    keptByPages.push(['only_with_upcoming', '1'])
  }
  const status = statusFilter(reader, filter.status)
  and.push(statusWhere(status.statuses))
  echo.push(['status', status.echo])

  const found = await reader.req.payload.find({
    ...readOptions(reader, kind),
    collection: kind,
    where: { and },
    sort: ['-publishedAt', '-id'],
    page,
    limit: perPage,
  })
  const docs = found.docs as LinkedDoc[]
  return {
    docs,
    related: await linkedRelated(reader, docs),
    total: found.totalDocs,
    echo,
    keptByPages,
  }
}
