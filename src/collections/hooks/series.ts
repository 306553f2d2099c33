import { lockSeriesOf } from './seriesLock'
import { reachableWhere } from './reach'
import type {
  CollectionAfterChangeHook,
  CollectionAfterOperationHook,
  CollectionBeforeDeleteHook,
  CollectionBeforeOperationHook,
  PayloadRequest,
} from 'payload'
import { savesDraftOnly } from '../drafts'
import { siteSettings } from '../../globals/siteSettings'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'
import type { Event } from '../../payload-types'
import { idOf } from '../../calendar/relationId'
import {
  afterEventWrite,
  asUpkeep,
  deleteInSeries,
  SERIES_UPKEEP,
  seriesDeferred,
  trashInSeries,
  type SeriesScope,
} from '../series'

async function scopeOf(req: PayloadRequest): Promise<SeriesScope> {
  return {
    req,
    now: new Date(),
    settings: await siteSettings(req),
    language: req.locale || DEFAULT_LANGUAGE,
  }
}

/**
 * Set on the request while Payload's bulk update or delete (the admin's list, `PATCH`/`DELETE
 * /api/events?where=...`) runs: the events of series it writes, as they were before. Payload writes
 * the documents of a bulk operation concurrently, in one transaction and one request context, so
 * their per-document upkeep would race (a parent's rule read and written back by two occurrences, an
 * occurrence deleted under its parent's upkeep); the bulk hooks below do it instead, once per event
 * and one after the other.
 */
const BULK_SERIES = 'calendarBulkSeries'

const bulkPlan = (req: PayloadRequest) => req.context[BULK_SERIES] as Map<number, Event> | undefined
const inBulk = (req: PayloadRequest, id: number | string) => bulkPlan(req)?.has(Number(id)) ?? false
const inSeries = (event: Event) => Boolean(event.recurrence) || idOf(event.parent) !== undefined

/**
 * A series follows every write to its events, whichever door made it (the admin, the namespace,
 * Payload's REST or local API), in the write's transaction (docs/api.md §16).
 */
export const keepSeries: CollectionAfterChangeHook<Event> = async ({
  doc,
  previousDoc,
  operation,
  req,
}) => {
  if (
    req.context[SERIES_UPKEEP] ||
    seriesDeferred(req) ||
    savesDraftOnly(doc) ||
    inBulk(req, doc.id)
  )
    return doc
  const before = operation === 'update' ? previousDoc : undefined
  const trashed = doc.status === 'trash' && before !== undefined && before.status !== 'trash'
  // A write to an event that neither is nor joins a series costs nothing more.
  if (!doc.recurrence && !before?.recurrence && idOf(before?.parent) === undefined) return doc
  const scope = await scopeOf(req)
  await asUpkeep(req, () =>
    trashed ? trashInSeries(scope, doc) : afterEventWrite(scope, doc, before),
  )
  return doc
}

/** Deleting for good: read while the event still exists, since its occurrences lose their parent with it. */
export const releaseSeries: CollectionBeforeDeleteHook = async ({ id, req }) => {
  if (req.context[SERIES_UPKEEP] || inBulk(req, id)) return
  const event = (await req.payload.findByID({
    collection: 'events',
    id,
    req,
    overrideAccess: true,
    depth: 0,
    disableErrors: true,
  })) as Event | null
  if (!event || (!event.recurrence && idOf(event.parent) === undefined)) return
  const scope = await scopeOf(req)
  await asUpkeep(req, () => deleteInSeries(scope, event))
}

/**
 * Before a bulk update or delete of events: which events of series it reaches (with the caller's own
 * access, as Payload will select them). A delete takes a parent's occurrences with it (they are part
 * of the where, so the answer lists them) and excludes an occurrence deleted without its parent from
 * the parent's rule now, before anything is gone.
 */
export const planBulkSeries: CollectionBeforeOperationHook = async ({
  args,
  collection,
  operation,
  req,
}) => {
  if (
    (operation !== 'update' && operation !== 'delete') ||
    ('id' in args && args.id !== undefined) ||
    !('where' in args) ||
    !args.where ||
    req.context[SERIES_UPKEEP]
  )
    return args
  const where = await reachableWhere(collection, operation, req, args)
  if (!where) return args
  const { docs } = await req.payload.find({
    collection: 'events',
    where,
    req,
    overrideAccess: true,
    pagination: false,
    depth: 0,
    locale: DEFAULT_LANGUAGE,
  })
  const reached = (docs as Event[]).filter(inSeries)
  if (!reached.length) return args
  await lockSeriesOf(
    req,
    reached.map((event) => event.id),
  )
  const plan = new Map(reached.map((event) => [event.id, event]))
  req.context[BULK_SERIES] = plan
  if (operation === 'update') return args
  const parents = reached.filter((event) => event.recurrence).map((event) => event.id)
  const scope = await scopeOf(req)
  await asUpkeep(req, async () => {
    for (const event of reached)
      if (!event.recurrence && !plan.has(idOf(event.parent) ?? 0)) await trashInSeries(scope, event)
  })
  if (!parents.length) return args
  const { docs: occurrences } = await req.payload.find({
    collection: 'events',
    where: { parent: { in: parents } },
    req,
    overrideAccess: true,
    pagination: false,
    depth: 0,
    select: { parent: true },
  })
  for (const occurrence of occurrences) plan.set(occurrence.id, occurrence as Event)
  return { ...args, where: { or: [args.where, { parent: { in: parents } }] } }
}

/**
 * After a bulk update of events: each series event it wrote gets the upkeep a write of its own would
 * (docs/api.md §16), parents first. An occurrence whose parent was written too is carried by the
 * parent's upkeep (trashed, restored or brought in line with it) rather than made an exception.
 */
export const runBulkSeries: CollectionAfterOperationHook = async ({ operation, req, result }) => {
  const plan = bulkPlan(req)
  if (!plan || (operation !== 'update' && operation !== 'delete')) return result
  delete req.context[BULK_SERIES]
  if (operation === 'delete') return result
  const scope = await scopeOf(req)
  const ordered = [...plan.values()].sort(
    (a, b) => Number(Boolean(b.recurrence)) - Number(Boolean(a.recurrence)),
  )
  await asUpkeep(req, async () => {
    for (const before of ordered) {
      if (!before.recurrence && plan.get(idOf(before.parent) ?? 0)?.recurrence) continue
      const doc = (await req.payload.findByID({
        collection: 'events',
        id: before.id,
        req,
        overrideAccess: true,
        depth: 0,
        disableErrors: true,
      })) as Event | null
      if (!doc || savesDraftOnly(doc)) continue
      const trashed = doc.status === 'trash' && before.status !== 'trash'
      await (trashed ? trashInSeries(scope, doc) : afterEventWrite(scope, doc, before))
    }
  })
  return result
}
