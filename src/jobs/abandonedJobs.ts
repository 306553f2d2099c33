import { sql } from '@payloadcms/db-postgres'
import type { Config, Payload } from 'payload'
import { rawQuery } from '../database/rawQuery'
import { numberSetting } from '../calendar/settings'

/**
 * Payload's queue marks a job `processing` when an instance takes it and clears the mark when the
 * job ends; an instance that dies meanwhile (a crash, the OOM killer, a deploy that does not wait)
 * leaves the mark set, and Payload neither runs such a job again nor schedules another run of its
 * task while it stands. One webhook pass cut short that way stopped every delivery for good, on every
 * instance; an import stayed "running". So while one of the calendar's tasks runs, its job's
 * `updatedAt` is touched four times per `JOBS_ABANDONED_AFTER_SECONDS` (90), and a calendar job marked
 * `processing` that nobody has touched for that long is given back to the queue (docs/operations.md,
 * "Scheduled work"), by whatever instance finds it: its instance is gone, however long the job itself
 * may run. A developer's own tasks do not beat, so their jobs are left alone.
 */
const abandonedAfterSeconds = () => numberSetting('JOBS_ABANDONED_AFTER_SECONDS')

type Task = NonNullable<NonNullable<Config['jobs']>['tasks']>[number]

async function touch(payload: Payload, id: number | string): Promise<void> {
  await rawQuery(
    payload,
    sql`UPDATE payload_jobs SET updated_at = now() WHERE id = ${id} AND processing`,
  )
}

/** Gives the calendar's abandoned jobs back to the queue, saying so in the log. */
async function releaseAbandonedJobs(payload: Payload, slugs: string[]): Promise<void> {
  const rows = await rawQuery<{ id: number }>(
    payload,
    sql`UPDATE payload_jobs SET processing = false, updated_at = now()
        WHERE processing AND completed_at IS NULL
          AND task_slug::text IN (${sql.join(
            slugs.map((slug) => sql`${slug}`),
            sql`, `,
          )})
          AND updated_at < now() - make_interval(secs => ${abandonedAfterSeconds()})
        RETURNING id`,
  )
  if (rows.length)
    payload.logger.warn({
      msg: `gave back to the queue ${rows.length} job(s) whose instance stopped while running them`,
      jobs: rows.map((row) => row.id),
    })
}

/**
 * The calendar's tasks with their beat, and with each schedule giving the abandoned jobs back before
 * it decides whether to queue a run (Payload's own rule: not while a run of the task is pending).
 */
export function resumable(tasks: Task[]): Task[] {
  const slugs = tasks.map((task) => task.slug)
  return tasks.map((task) => {
    const { handler } = task
    if (typeof handler !== 'function') return task
    return {
      ...task,
      handler: async (args) => {
        const { payload } = args.req
        // Three beats may be lost (a slow moment of the database) before the job counts as abandoned.
        const beat = setInterval(
          () => void touch(payload, args.job.id).catch(() => undefined),
          (abandonedAfterSeconds() * 1000) / 4,
        )
        beat.unref()
        try {
          return await handler(args)
        } finally {
          clearInterval(beat)
        }
      },
      schedule: task.schedule?.map((schedule) => ({
        ...schedule,
        hooks: {
          ...schedule.hooks,
          beforeSchedule: async (args) => {
            await releaseAbandonedJobs(args.req.payload, slugs)
            const decide = schedule.hooks?.beforeSchedule ?? args.defaultBeforeSchedule
            return decide(args)
          },
        },
      })),
    }
  })
}
