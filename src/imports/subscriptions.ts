/**
 * Subscriptions (docs/api.md §23.7): each due one is imported with the core, its events that left
 * the feed trashed, and its record updated with the run's counts and failures. Due subscriptions are
 * imported side by side (IMPORT_SUBSCRIPTIONS_AT_ONCE), so a slow feed holds up only itself; each one
 * is claimed in the database first, so instances never import the same one at once; a subscription
 * that fails is recorded and the others go on.
 */
import type { Payload, PayloadRequest, Where } from 'payload'
import { isConnectionLoss } from '../database/connectionErrors'
import { rawQuery } from '../database/rawQuery'
import { sql } from '@payloadcms/db-postgres'
import { idOf } from '../calendar/relationId'
import { sideBySide } from '../calendar/sideBySide'
import type { ImportSubscription } from '../payload-types'
import { subscriptionsAtOnce } from './limits'
import { openSource } from './openSource'
import { authorOf, errorText, failuresOf, record, totalsOf } from './record'
import { runImport } from './run'

const HOUR = 3_600_000

/**
 * Marks a subscription running if its last run is still the one this pass read: of two passes (two
 * instances) that read it due, one claims it and the other leaves it.
 */
async function claim(payload: Payload, subscription: ImportSubscription): Promise<boolean> {
  const claimed = await rawQuery(
    payload,
    sql`update import_subscriptions set last_status = 'running', last_run_at = now(), error = null
        where id = ${subscription.id} and last_run_at is not distinct from ${subscription.lastRunAt ?? null}::timestamptz returning id`,
  )
  return claimed.length > 0
}

async function refresh(payload: Payload, subscription: ImportSubscription): Promise<void> {
  if (!(await claim(payload, subscription))) return
  try {
    const source = await openSource(payload, {
      format: subscription.format,
      url: subscription.url,
      credentials: subscription.credentials || undefined,
    })
    const report = await runImport({
      payload,
      source,
      status: subscription.createdStatus,
      user: await authorOf(payload, subscription.createdBy),
      defaultCategories: (subscription.defaultCategories ?? [])
        .map(idOf)
        .filter((id): id is number => id !== undefined),
      trashMissing: true,
    })
    await record(payload, 'import-subscriptions', subscription.id, {
      ...totalsOf(report),
      lastStatus: 'done',
      failures: failuresOf(report),
    })
  } catch (error) {
    if (isConnectionLoss(error)) throw error
    await record(payload, 'import-subscriptions', subscription.id, {
      lastStatus: 'failed',
      error: errorText(error),
    })
  }
}

/** Whether a subscription is due at `now` (ms): it never ran, or its last run is `intervalHours` old (docs/api.md §23.7). */
export function isDue(
  subscription: Pick<ImportSubscription, 'lastRunAt' | 'intervalHours'>,
  now: number,
): boolean {
  return (
    !subscription.lastRunAt ||
    new Date(subscription.lastRunAt).getTime() + subscription.intervalHours * HOUR <= now
  )
}

/** The time of a subscription's last run, comparable whatever its spelling (null: never ran). */
function runTime(lastRunAt: string | null | undefined): number | null {
  return lastRunAt ? new Date(lastRunAt).getTime() : null
}

/**
 * Imports the active subscriptions that are due, or the one named if it has not run since `lastRunAt`
 * (the run it was queued after): a scheduled pass may have imported it in between.
 */
export async function refreshSubscriptions(
  req: PayloadRequest,
  only?: { id: number; lastRunAt: string | null },
): Promise<number> {
  const { payload } = req
  const where: Where = only ? { id: { equals: only.id } } : { active: { equals: true } }
  const { docs } = await payload.find({
    collection: 'import-subscriptions',
    where,
    pagination: false,
    depth: 0,
    overrideAccess: true,
  })
  const now = Date.now()
  const due = docs.filter((doc) =>
    only ? runTime(doc.lastRunAt) === runTime(only.lastRunAt) : isDue(doc, now),
  )
  await sideBySide(due, subscriptionsAtOnce(), (subscription) => refresh(payload, subscription))
  return due.length
}
