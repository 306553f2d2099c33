import type {
  CollectionAfterChangeHook,
  CollectionBeforeOperationHook,
  PayloadRequest,
  Where,
} from 'payload'
import { idOf } from '../../calendar/relationId'
import { eventsLinking, type LinkedKind } from '../../database/linked/linkedWithEvents'
import { tableNameOf, tableOf } from '../../database/seriesCopy'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'
import { reachableWhere } from './reach'
import { holdRows, idsOf } from './rowLocks'
import { lockSeriesOf } from './seriesLock'

/**
 * The events a trash of these venues or organizers will unlink, held before the venues' or
 * organizers' own rows: their series' locks, then their rows, in the order an event's write takes
 * them before it holds a venue or organizer it links (`fields/linkTargets.ts`). A trash held its
 * items, then waited for its events, while a write that held an event waited to link one of those
 * items: PostgreSQL undid one of the two as a deadlock (docs/api.md §6.5).
 * Events linked meanwhile, by writes this trash's turn then waits for, are unlinked all the same.
 */
export async function holdEventsLinking(
  req: PayloadRequest,
  kind: LinkedKind,
  ids: number[],
): Promise<void> {
  const events = await eventsLinking(req, kind, ids)
  if (!events.length) return
  await lockSeriesOf(req, events)
  await holdRows(req, tableOf(req, tableNameOf(req.payload, 'events'))!, events)
}

/** What a venue's or organizer's update holds before its rows (`takingTurns`): a trash, their events. */
export const eventsOfTrashed =
  (kind: LinkedKind) =>
  async (req: PayloadRequest, ids: number[], data: Record<string, unknown>): Promise<void> => {
    if (data.status === 'trash') await holdEventsLinking(req, kind, ids)
  }

/**
 * A delete of venues or organizers holds their events first too: deleting a venue's row sets its
 * events' venue to null (its foreign key), which waited for an event that a write linking the venue
 * held while it waited for the venue. Within the caller's reach, as Payload will delete them.
 */
export const eventsOfDeleted: CollectionBeforeOperationHook = async ({
  args,
  collection,
  operation,
  req,
}) => {
  if (operation !== 'delete') return args
  const call = args as { id?: number | string; where?: Where; overrideAccess?: boolean }
  const reach = await reachableWhere(collection, 'delete', req, call)
  if (!reach) return args
  const ids = call.id !== undefined ? [call.id] : await idsOf(req, collection.slug, reach)
  await holdEventsLinking(req, collection.slug as LinkedKind, ids.map(Number))
  return args
}

/**
 * A venue or organizer put in the trash leaves every event that links it (docs/api.md §6.7),
 * whichever door trashed it: the namespace's delete, the admin's status, Payload's REST and GraphQL,
 * a bulk edit. Only the namespace unlinked them: trashed elsewhere, the link stayed, and came back
 * with the item's next status. An autosave never changes the status (`separateAutosaves`).
 */
export const leaveEventsWhenTrashed: CollectionAfterChangeHook = async ({
  collection,
  doc,
  operation,
  previousDoc,
  req,
}) => {
  if (operation !== 'update' || doc.status !== 'trash' || previousDoc?.status === 'trash')
    return doc
  await unlinkFromEvents(req, collection.slug as 'venues' | 'organizers', Number(doc.id))
  return doc
}

/** The links are not localized: written in the default language, where every event has a title. */
async function unlinkFromEvents(
  req: PayloadRequest,
  kind: 'venues' | 'organizers',
  id: number,
): Promise<void> {
  const { payload } = req
  const options = { req, overrideAccess: true, depth: 0, locale: DEFAULT_LANGUAGE } as const
  if (kind === 'venues') {
    const { errors } = await payload.update({
      ...options,
      collection: 'events',
      where: { venue: { equals: id } },
      data: { venue: null },
    })
    if (errors.length)
      throw new Error(`unlinking venue ${id}: ${errors.map((error) => error.message).join('; ')}`)
    return
  }
  const { docs } = await payload.find({
    ...options,
    collection: 'events',
    where: { organizers: { in: [id] } },
    pagination: false,
    select: { organizers: true },
  })
  for (const event of docs) {
    const organizers = (event.organizers ?? [])
      .map(idOf)
      .filter((other) => other !== undefined && other !== id)
    await payload.update({
      ...options,
      collection: 'events',
      id: event.id,
      data: { organizers: organizers as number[] },
    })
  }
}
