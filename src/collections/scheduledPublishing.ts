import { queueJob } from './queueJob'
import type {
  CollectionAfterChangeHook,
  CollectionBeforeChangeHook,
  CollectionSlug,
  PayloadRequest,
} from 'payload'
import { savesDraftOnly } from './drafts'
import { RESOURCES } from '../calendar/resources'
import { PUBLISH_JOB } from '../globals/Settings'

/** The authored collections, whose items can be scheduled. */
const SCHEDULABLE = RESOURCES.filter((resource) => resource.family === 'authored').map(
  (resource) => resource.collection as CollectionSlug,
)

/**
 * Publishes every scheduled (`future`) event, venue and organizer whose publication date has come
 * (docs/api.md §2): through Payload's local API, so hooks run as for any write (a series' first event
 * takes its occurrences along) and the content revision and change feed move. The condition is in
 * the update itself, so two runs never publish an item twice, and a run after a restart publishes
 * whatever came due meanwhile.
 */
export async function publishDue(req: PayloadRequest, now = new Date()): Promise<number> {
  let published = 0
  for (const collection of SCHEDULABLE) {
    const { docs } = await req.payload.update({
      collection,
      where: {
        and: [
          { status: { equals: 'future' } },
          { publishedAt: { less_than_equal: now.toISOString() } },
        ],
      },
      data: { status: 'publish' } as never,
      overrideAccess: true,
      depth: 0,
      req,
    })
    published += docs.length
  }
  return published
}

/**
 * A run of the publishing task queued for the item's publication date, so it goes out on time; the
 * task's schedule (every minute) catches anything a lost queue entry would miss.
 */
export const queuePublication: CollectionAfterChangeHook = async ({ doc, previousDoc, req }) => {
  const scheduled = !savesDraftOnly(doc) && doc.status === 'future' && doc.publishedAt
  if (
    scheduled &&
    (previousDoc?.status !== 'future' || previousDoc?.publishedAt !== doc.publishedAt)
  ) {
    await queueJob(req, PUBLISH_JOB, {}, new Date(doc.publishedAt))
  }
  return doc
}

/**
 * A Scheduled item whose publication date has already come is published as it is saved, as WordPress
 * does: it would otherwise wait for the next run of the task, and show as Scheduled for a past date.
 */
export const publishWhenDue: CollectionBeforeChangeHook = ({ data, originalDoc }) => {
  if (savesDraftOnly(data)) return data
  const status = data.status ?? originalDoc?.status
  const at = data.publishedAt ?? originalDoc?.publishedAt
  if (status === 'future' && (!at || new Date(at).getTime() <= Date.now())) data.status = 'publish'
  return data
}
