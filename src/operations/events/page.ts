import { pageBody, type PageAccess } from '../../database/events/eventPage'
import { termCounts } from '../../database/terms/termCounts'
import type { Event, EventCategory, EventTag, Media, Organizer, Venue } from '../../payload-types'
import { RESOURCES } from '../../calendar/resources'
import { findByIds, findByIdsPerRevision } from '../read'
import type { Reader } from '../reader'
import { emptyRelated, type Related } from '../related'

type PageBody = {
  events: Event[]
  venues: Venue[]
  organizers: Organizer[]
  categories: EventCategory[]
  tags: EventTag[]
}

/**
 * A page of events with everything it embeds, in hand-written SQL, for readers whose access rules it
 * can state (`pageAccess`): one statement, the body (`pageBody`), for the page's ids.
 *
 * Payload's local API costs several milliseconds of CPU per read (query building, field hooks,
 * access), and a page needs six reads: at 32 concurrent readers that, not PostgreSQL, bounded the
 * list's throughput (bench/results). The body reads Payload's own tables and returns documents in
 * the shape Payload returns at depth 0, so the one event serializer serves both paths. Protected
 * items' content is withheld by the serializers, as on every path. Images, rare in lists, are read
 * through Payload, which builds their URLs, once per revision; term counts come from the
 * per-revision cache; the fields a developer added, through Payload (`withDevelopersFields`).
 */
export async function loadEventPage(
  reader: Reader,
  ids: number[],
  access: PageAccess,
  read?: unknown,
): Promise<{ events: Event[]; related: Related }> {
  if (!ids.length) return { events: [], related: emptyRelated() }
  // The body the ids' statement read with them (`listIds`), else a statement of its own.
  const body = await withDevelopersFields(
    reader,
    (read as PageBody | undefined) ?? (await pageBody<PageBody>(reader, access, ids)),
  )
  const images = [...body.events, ...body.venues, ...body.organizers]
    .map((item) => item.image)
    .filter((id): id is number => typeof id === 'number')
  const byId = <T extends { id: number }>(items: T[]) =>
    new Map(items.map((item) => [item.id, item]))
  const [media, counts] = await Promise.all([
    findByIdsPerRevision<Media>(reader, 'media', images),
    termCounts(
      reader,
      body.categories.map((term) => term.id),
      body.tags.map((term) => term.id),
    ),
  ])
  return {
    events: body.events,
    related: {
      venues: byId(body.venues),
      organizers: byId(body.organizers),
      categories: byId(body.categories),
      tags: byId(body.tags),
      media,
      termCounts: counts,
    },
  }
}

/**
 * The page's records with the fields a developer added to their collections, read through Payload:
 * the body's SQL knows only the calendar's columns, and a developer's field may have read access,
 * hooks or a shape (rows, a relationship) of its own. One find for each collection that has such
 * fields and records on the page, with the caller's access, selecting those fields alone.
 */
async function withDevelopersFields(reader: Reader, body: PageBody): Promise<PageBody> {
  const found = await Promise.all(
    RESOURCES.map(async ({ key, collection }) => {
      const fields = reader.calendar.customFields[key]
      const records = body[key] as { id: number }[]
      if (!fields.length || !records.length) return undefined
      const values = await findByIds<Record<string, unknown>>(
        reader,
        collection,
        records.map((record) => record.id),
        Object.fromEntries(fields.map((field) => [field.name, true] as const)),
      )
      return [key, records.map((record) => ({ ...values.get(record.id), ...record }))] as const
    }),
  )
  return { ...body, ...Object.fromEntries(found.filter((entry) => entry !== undefined)) }
}
