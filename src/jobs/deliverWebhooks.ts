import type { TaskConfig } from 'payload'
import { DELIVER_JOB } from '../collections/Webhooks'
import { deliverWebhooks as deliver } from '../webhooks/deliver'

/**
 * Sends what changed to the webhooks (docs/api.md §20). Each endpoint is served under a lock of its
 * own, so it gets its changes once and in order whatever the number of instances.
 */
export const deliverWebhooks: TaskConfig<typeof DELIVER_JOB.task> = {
  slug: DELIVER_JOB.task,
  schedule: [{ cron: DELIVER_JOB.every, queue: DELIVER_JOB.queue }],
  outputSchema: [
    { name: 'delivered', type: 'number', required: true },
    { name: 'failed', type: 'number', required: true },
  ],
  handler: async ({ req }) => ({ output: await deliver(req) }),
}
