import { EVENTS } from '../../calendar/resources'
import { pageAccess } from '../../database/events/eventPage'
import type { Event } from '../../payload-types'
import { unlocks } from '../passwords'
import type { Reader } from '../reader'
import {
  missing,
  notAccessible,
  probeOne,
  readOne,
  refuseUnreadable,
  withRelated,
  type OneRead,
} from '../readOne'
import { Refusal } from '../refusal'
import { loadRelated } from '../related'
import type { Unlocking } from './find'
import { loadEventPage } from './page'

/** Steps 1 to 3 of a single read (docs/api.md §5): the event exists, is not in the trash, and the caller may read it. */
export async function readableEvent(reader: Reader, id: number) {
  const probe = await probeOne(reader, 'events', id)
  if (!probe) throw missing(EVENTS, id)
  if (probe.status === 'trash')
    throw new Refusal('event-no-longer-available', 'This event is no longer available', 403)
  refuseUnreadable(reader, EVENTS, probe)
  return probe
}

/** The decision sequence of a single read (docs/api.md §5), then the event and what it embeds. */
export async function findEventById(
  reader: Reader,
  id: number,
  unlocking: Unlocking,
): Promise<OneRead<Event>> {
  const probe = await readableEvent(reader, id)
  const unlocked = await unlocks(reader, 'events', probe, unlocking, 'refuse')
  const pageRules = pageAccess(reader.req)
  if (!unlocked)
    throw new Refusal(
      'event-password-protected',
      'The requested event is not accessible without a password',
      403,
    )
  if (pageRules) {
    const { events, related } = await loadEventPage(reader, [id], pageRules)
    if (!events[0]) throw notAccessible(EVENTS)
    return { doc: events[0], related }
  }
  const event = (await readOne(reader, 'events', id, Boolean(probe.hasPassword))) as Event
  return withRelated(event, (events) => loadRelated(reader, events))
}
