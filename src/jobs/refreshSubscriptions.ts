import type { TaskConfig } from 'payload'
import { SUBSCRIPTION_JOB } from '../collections/ImportSubscriptions'
import { refreshSubscriptions as refresh } from '../imports/subscriptions'

/** Imports the subscriptions that are due (docs/api.md §23.7), every few minutes; or the one saved just now. */
export const refreshSubscriptions: TaskConfig<typeof SUBSCRIPTION_JOB.task> = {
  slug: SUBSCRIPTION_JOB.task,
  schedule: [{ cron: SUBSCRIPTION_JOB.every, queue: SUBSCRIPTION_JOB.queue }],
  inputSchema: [
    { name: 'subscriptionId', type: 'number' },
    { name: 'lastRunAt', type: 'text' },
  ],
  outputSchema: [{ name: 'imported', type: 'number', required: true }],
  retries: 3,
  handler: async ({ input, req }) => ({
    output: {
      imported: await refresh(
        req,
        input?.subscriptionId
          ? { id: input.subscriptionId, lastRunAt: input.lastRunAt ?? null }
          : undefined,
      ),
    },
  }),
}
