import type { TaskConfig } from 'payload'
import { extendHorizons } from '../collections/series'
import { exclusively } from '../database/exclusive'
import { HORIZON_JOB } from '../globals/Settings'
import { siteSettings } from '../globals/siteSettings'
import { DEFAULT_LANGUAGE } from '../i18n/languages'

/**
 * Keeps every series materialized up to the horizon as time passes (docs/api.md §16.3): daily, and
 * whenever the horizon setting changes. Each run only adds the days the horizon newly reaches.
 */
export const extendRecurrenceHorizons: TaskConfig<typeof HORIZON_JOB.task> = {
  slug: HORIZON_JOB.task,
  schedule: [{ cron: '0 3 * * *', queue: HORIZON_JOB.queue }],
  outputSchema: [{ name: 'series', type: 'number', required: true }],
  // Runs on several instances wait for each other: two at once could both add the same new day.
  handler: async ({ req }) => ({
    output: {
      series: await exclusively(req.payload, HORIZON_JOB.task, async () =>
        extendHorizons({
          req,
          now: new Date(),
          settings: await siteSettings(req),
          language: DEFAULT_LANGUAGE,
        }),
      ),
    },
  }),
}
