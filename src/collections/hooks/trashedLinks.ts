import type { CollectionAfterChangeHook, PayloadRequest } from 'payload'
import { idOf } from '../../calendar/relationId'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'

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
