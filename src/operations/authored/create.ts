import { inTransaction } from '../../database/transaction'
import { eventData } from '../events/data'
import { createdOrFound } from '../linked/create'
import { createInLanguage } from '../localizedWrite'
import type { Writer } from '../writer'
import type { EventInput, InputOf, OrganizerInput, VenueInput } from './input'
import { written, type AuthoredKind, type Written } from './item'

/**
 * Creates an event, a venue or an organizer in the caller's language, in one transaction; a venue
 * or organizer that duplicates an existing one is that one (docs/api.md §6.5).
 */
export async function createAuthored<K extends AuthoredKind>(
  writer: Writer,
  kind: K,
  input: InputOf[K],
): Promise<Written> {
  const answer = await inTransaction(writer.req, async () => {
    if (kind !== 'events') return createdOrFound(writer, kind, input as VenueInput | OrganizerInput)
    return createInLanguage(writer, kind, await eventData(writer, input as EventInput))
  })
  return written(writer, kind, answer)
}
