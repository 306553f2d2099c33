import { errorCodes, resourceOf } from '../../calendar/resources'
import { inTransaction } from '../../database/transaction'
import { updateInLanguage, type WrittenDoc } from '../localizedWrite'
import { Refusal } from '../refusal'
import { heldItem } from '../readOne'
import { lockSeriesOf } from '../../collections/hooks/seriesLock'
import { holdEventsLinking } from '../../collections/hooks/trashedLinks'
import type { Writer } from '../writer'
import { written, type AuthoredItem, type AuthoredKind, type Written } from './item'

/**
 * To the trash, never permanently; 410 when already there, or put there by a writer before this one
 * took its turn (docs/api.md §6.7). A venue or organizer leaves every event that links it.
 * Answered with the record as read next (`written`): for an event the caller reads by the page
 * query, that one statement is the answer and what it embeds.
 */
export async function trashAuthored(
  writer: Writer,
  kind: AuthoredKind,
  stored: AuthoredItem,
): Promise<Written> {
  return written(writer, kind, await trashStored(writer, kind, stored))
}

/** The trashing alone, for a door that does not answer with the record (an import's refresh): Payload's answer, nothing read back. */
export async function trashStored(
  writer: Writer,
  kind: AuthoredKind,
  stored: AuthoredItem,
): Promise<WrittenDoc> {
  const resource = resourceOf(kind)
  return inTransaction(writer.req, async () => {
    // Two trashes at once both found the item out of the trash, and the second answered 200: the
    // status that decides is the one stored once the item is held, in the order an update takes
    // its locks (an event's series first; a venue's or organizer's events first).
    if (kind === 'events') await lockSeriesOf(writer.req, [stored.id])
    else await holdEventsLinking(writer.req, kind, [stored.id])
    const held = await heldItem<{ status: string }>(writer.req, resource, stored.id, ['status'])
    if (held.status === 'trash')
      throw new Refusal(
        errorCodes(resource).inTrash,
        `The ${resource.singular} is already trashed`,
        410,
      )
    // A venue or organizer leaves its events in the collection's hook (`leaveEventsWhenTrashed`).
    return updateInLanguage(writer, kind, stored.id, { status: 'trash' })
  })
}
