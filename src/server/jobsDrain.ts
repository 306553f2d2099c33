import { setTimeout as sleep } from 'node:timers/promises'
import type { Payload } from 'payload'

/**
 * What Payload (in Next's bundle) lets the server in front of it (in its own bundle) do when the
 * process is told to stop: stop the jobs queue's timers and wait for the runs they started. Without
 * it, a deploy's SIGTERM ended a webhook pass or an import halfway, its job left marked as running
 * until another instance gave it back to the queue (`src/jobs/abandonedJobs.ts`, 90 s later).
 */
type Drain = (withinMs: number) => Promise<void>

const JOBS_DRAIN = Symbol.for('calendar.jobsDrain')

/** Called once Payload runs: from then on `drainJobs` reaches its timers. */
export function offerJobsDrain(payload: Payload): void {
  ;(globalThis as { [JOBS_DRAIN]?: Drain })[JOBS_DRAIN] = async (withinMs) => {
    const timers = [...payload.crons]
    for (const timer of timers) timer.stop()
    const until = Date.now() + withinMs
    while (timers.some((timer) => timer.isBusy()) && Date.now() < until) await sleep(50)
  }
}

/**
 * Stops the queue's timers and waits, at most `withinMs`, for the runs in progress; at once in a
 * process where Payload has not started.
 */
export async function drainJobs(withinMs: number): Promise<void> {
  await (globalThis as { [JOBS_DRAIN]?: Drain })[JOBS_DRAIN]?.(withinMs)
}
