import type { CollectionAfterChangeHook, CollectionBeforeDeleteHook, PayloadRequest } from 'payload'
import { savesDraftOnly } from '../drafts'
import { siteSettings } from '../../globals/siteSettings'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'
import type { Event } from '../../payload-types'
import { afterEventWrite, asUpkeep, deleteInSeries, idOf, SERIES_UPKEEP, trashInSeries, type SeriesScope } from '../series'

async function scopeOf(req: PayloadRequest): Promise<SeriesScope> {
  return { req, now: new Date(), settings: await siteSettings(req), language: req.locale || DEFAULT_LANGUAGE }
}

/**
 * A series follows every write to its events, whichever door made it (the admin, the namespace,
 * Payload's REST or local API), in the write's transaction (docs/api.md §16).
 */
export const keepSeries: CollectionAfterChangeHook<Event> = async ({ doc, previousDoc, operation, req }) => {
  if (req.context[SERIES_UPKEEP] || savesDraftOnly(doc)) return doc
  const before = operation === 'update' ? previousDoc : undefined
  const trashed = doc.status === 'trash' && before !== undefined && before.status !== 'trash'
  // A write to an event that neither is nor joins a series costs nothing more.
  if (!doc.recurrence && !before?.recurrence && idOf(before?.parent) === undefined) return doc
  const scope = await scopeOf(req)
  await asUpkeep(req, () => (trashed ? trashInSeries(scope, doc) : afterEventWrite(scope, doc, before)))
  return doc
}

/** Deleting for good: read while the event still exists, since its occurrences lose their parent with it. */
export const releaseSeries: CollectionBeforeDeleteHook = async ({ id, req }) => {
  if (req.context[SERIES_UPKEEP]) return
  const event = (await req.payload.findByID({ collection: 'events', id, req, overrideAccess: true, depth: 0, disableErrors: true })) as Event | null
  if (!event || (!event.recurrence && idOf(event.parent) === undefined)) return
  const scope = await scopeOf(req)
  await asUpkeep(req, () => deleteInSeries(scope, event))
}
