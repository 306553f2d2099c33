import { resourceOf, type AuthoredResource } from '../../calendar/resources'
import type { Event, Organizer, Venue } from '../../payload-types'
import { eventData } from '../events/data'
import { organizerData, venueData } from '../linked/data'
import { loadEventPage } from '../events/page'
import { readOptions } from '../read'
import { notAccessible } from '../readOne'
import type { Related } from '../related'
import { pageAccess } from '../../database/events/eventPage'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'
import { idOf } from '../../calendar/relationId'
import type { WrittenDoc } from '../localizedWrite'
import type { Writer } from '../writer'
import type { EventInput, InputOf, OrganizerInput, VenueInput } from './input'

export type AuthoredKind = AuthoredResource['key']
export type AuthoredItem = Event | Venue | Organizer

/** A write's answer: the record as written and, for an event read as the page query reads it, what it embeds. */
export type Written = { item: AuthoredItem; related?: Related }

/** Payload data for a write of one of the three kinds of authored records: the write flow is one (docs/api.md §6). */
export function dataOf<K extends AuthoredKind>(
  writer: Writer,
  kind: K,
  input: InputOf[K],
  stored?: AuthoredItem,
): Promise<Record<string, unknown>> {
  const operation = stored ? 'update' : 'create'
  if (kind === 'events') return eventData(writer, input as EventInput, stored as Event | undefined)
  if (kind === 'venues') return venueData(writer, input as VenueInput, operation)
  return organizerData(writer, input as OrganizerInput, operation)
}

/**
 * The record as written, as the caller's language serves it. An event is read as the single read
 * that follows serves it, with what it embeds, in one statement (`loadEventPage`) where that read
 * takes the page query. Otherwise Payload's own answer to the write (`answer`, made with the
 * caller's access, at depth 0) where a read would give the same, else the record read back with the
 * caller's access (a developer's field no one may read stays unread): in another language a read
 * falls back to English where Payload's answer has nothing; a series' upkeep, after Payload
 * answered, may change its first event. Payload's answer stands for a record a developer's read
 * rule hides from its own writer; without one (an existing venue or organizer a create found as its
 * duplicate), a 403: nothing was written.
 */
export async function written(
  writer: Writer,
  kind: AuthoredKind,
  answer: number | WrittenDoc,
): Promise<Written> {
  const given = typeof answer === 'object' ? answer : undefined
  const id = given?.id ?? (answer as number)
  const asRead = kind === 'events' ? await eventAsRead(writer, id) : undefined
  if (asRead) return asRead
  if (
    given &&
    writer.language === DEFAULT_LANGUAGE &&
    !given.recurrence &&
    idOf(given.parent) === undefined
  )
    return { item: given as unknown as AuthoredItem }
  const item =
    (await writer.req.payload.findByID({
      ...readOptions(writer, kind),
      collection: kind,
      id,
      disableErrors: true,
    })) ?? given
  if (!item) throw notAccessible(resourceOf(kind))
  return { item: item as unknown as AuthoredItem }
}

/** The event and what it embeds through the page query, when the caller's reads take it and it reads the event. */
async function eventAsRead(writer: Writer, id: number): Promise<Written | undefined> {
  const rules = pageAccess(writer.req)
  if (!rules) return undefined
  const { events, related } = await loadEventPage(writer, [id], rules)
  return events[0] && { item: events[0], related }
}

/** The stored record a write on an item changes, whoever may read it: the permission check comes after. */
export async function storedItem(
  writer: Writer,
  kind: AuthoredKind,
  id: number,
): Promise<AuthoredItem | undefined> {
  const stored = await writer.req.payload.findByID({
    collection: kind,
    id,
    depth: 0,
    overrideAccess: true,
    req: writer.req,
    disableErrors: true,
    locale: writer.language,
    fallbackLocale: 'en',
  })
  return (stored as AuthoredItem | null) ?? undefined
}
