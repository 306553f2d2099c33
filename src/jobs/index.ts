import type { Config } from 'payload'
import { resumable } from './abandonedJobs'
import { deliverWebhooks } from './deliverWebhooks'
import { extendRecurrenceHorizons } from './extendRecurrenceHorizons'
import { importCalendar } from './importCalendar'
import { publishScheduled } from './publishScheduled'
import { pruneChangeLog } from './pruneChangeLog'
import { refreshSubscriptions } from './refreshSubscriptions'

/**
 * The calendar's tasks on Payload's jobs queue, one per module. Each slug is what queued jobs are
 * stored under: renaming one leaves the jobs already queued in a database without a task to run them.
 * Each beats while it runs, so that a run its instance abandoned is taken up again (abandonedJobs.ts).
 */
export const CALENDAR_TASKS: NonNullable<NonNullable<Config['jobs']>['tasks']> = resumable([
  extendRecurrenceHorizons,
  pruneChangeLog,
  publishScheduled,
  deliverWebhooks,
  importCalendar,
  refreshSubscriptions,
])
