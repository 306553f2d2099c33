import type { TaskConfig } from 'payload'
import { FORGET_SECONDS } from '../collections/hooks/loginThrottle'
import { pruneDeliveries } from '../collections/Webhooks'
import { pruneChanges } from '../database/changeLog'
import { pruneKeys } from '../database/idempotency'
import { pruneLoginFailures } from '../database/loginThrottle'
import { pruneRateBuckets } from '../database/rateBuckets'
import { PRUNE_CHANGES_JOB } from '../globals/Settings'
import { siteSettings } from '../globals/siteSettings'

/**
 * Forgets changes and webhook delivery logs past the retention (docs/api.md §18, §20), idempotency keys
 * past their 24 hours (docs/api.md §19), and the rate-limit buckets and failed sign-ins that no longer count
 * (docs/operations.md), daily.
 */
export const pruneChangeLog: TaskConfig<typeof PRUNE_CHANGES_JOB.task> = {
  slug: PRUNE_CHANGES_JOB.task,
  schedule: [{ cron: '30 3 * * *', queue: PRUNE_CHANGES_JOB.queue }],
  outputSchema: [{ name: 'pruned', type: 'number', required: true }],
  handler: async ({ req }) => {
    const { changesRetentionDays } = await siteSettings(req)
    await pruneKeys(req.payload)
    await pruneRateBuckets(req.payload)
    await pruneLoginFailures(req.payload, FORGET_SECONDS)
    await pruneDeliveries(req, changesRetentionDays)
    return { output: { pruned: await pruneChanges(req.payload, changesRetentionDays) } }
  },
}
