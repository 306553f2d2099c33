import type { PayloadRequest, TypedJobs } from 'payload'

export type Task = keyof TypedJobs['tasks']

/**
 * Puts a run of `job`'s task on its queue, in the request's transaction: a write that rolls back
 * queues nothing. `waitUntil`: not before then.
 */
export async function queueJob<T extends Task>(
  req: PayloadRequest,
  job: { task: T; queue: string },
  input: TypedJobs['tasks'][T]['input'],
  waitUntil?: Date,
): Promise<void> {
  // Payload types `task` as a conditional on the task's name, which a generic name cannot meet.
  await req.payload.jobs.queue({ task: job.task as never, queue: job.queue, input, waitUntil, req })
}
