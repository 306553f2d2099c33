/**
 * Payload's jobs queue on several instances of one database (docs/operations.md, "Scheduled work"):
 * instances that run the queue at once claim each job once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, unique } from '../support/api'
import { testDatabase } from '../support/database'
import { startSecondInstance, type Instance } from '../support/secondInstance'

const db = testDatabase()
let admin: string
let instance: Instance

beforeAll(async () => {
  admin = await asAdmin()
  instance = await startSecondInstance({}, { keepLog: true })
}, 200_000)

afterAll(async () => {
  await instance?.stop()
})

describe('the jobs queue on two instances', () => {
  it('claims each job once when both run the queue at once: every run answers, none meets a job the other finished', async () => {
    const queue = unique('claims')
    const wrong: string[] = []
    for (let round = 0; round < 5; round++) {
      await db.query(
        `insert into payload_jobs (task_slug, queue, input) select 'pruneChangeLog', $1, '{}'::jsonb from generate_series(1, 10)`,
        [queue],
      )
      const runs = await Promise.all(
        [BASE_URL, instance.base].map((base) =>
          fetch(`${base}/api/payload-jobs/run?queue=${queue}&limit=10`, {
            headers: { Authorization: `JWT ${admin}` },
          }),
        ),
      )
      for (const run of runs)
        if (run.status !== 200) wrong.push(`round ${round}: ${run.status} ${await run.text()}`)
    }
    const { rows } = await db.query(
      `select count(*)::int as left, count(*) filter (where has_error)::int as failed from payload_jobs where queue = $1`,
      [queue],
    )
    expect(wrong).toEqual([])
    expect(rows[0]).toEqual({ left: 0, failed: 0 })
    expect(await instance.settledLog()).not.toMatch(/Cannot read properties of null/)
  }, 120_000)
})
