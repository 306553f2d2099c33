import type { TaskConfig } from 'payload'
import { publishDue } from '../collections/scheduledPublishing'
import { exclusively } from '../database/exclusive'
import { PUBLISH_JOB } from '../globals/Settings'

/** Publishes what came due, every minute; runs on several instances wait for each other. */
export const publishScheduled: TaskConfig<typeof PUBLISH_JOB.task> = {
  slug: PUBLISH_JOB.task,
  schedule: [{ cron: '* * * * *', queue: PUBLISH_JOB.queue }],
  outputSchema: [{ name: 'published', type: 'number', required: true }],
  handler: async ({ req }) => ({
    output: { published: await exclusively(req.payload, PUBLISH_JOB.task, () => publishDue(req)) },
  }),
}
