import type { TaskConfig } from 'payload'
import { IMPORT_JOB } from '../collections/Imports'
import { runRecorded } from '../imports/recordedRun'

/**
 * Runs an import recorded in `imports` (docs/api.md §23): queued when one is saved as Queued. A run
 * that lost its database is tried again by the queue; the mapping makes the second try skip what the
 * first one finished.
 */
export const importCalendar: TaskConfig<typeof IMPORT_JOB.task> = {
  slug: IMPORT_JOB.task,
  inputSchema: [{ name: 'importId', type: 'number', required: true }],
  outputSchema: [{ name: 'status', type: 'text', required: true }],
  retries: 3,
  handler: async ({ input, req }) => ({
    output: { status: (await runRecorded(req.payload, input.importId)) ? 'done' : 'failed' },
  }),
}
