/**
 * Scheduled publishing (docs/api.md §2): a Scheduled (`future`) item publishes itself when its
 * publication date comes, through the jobs queue, once, whichever instance runs it.
 */
import { DateTime } from 'luxon'
import { beforeAll, describe, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterQueueRuns, asAdmin, call } from '../support/api'
import { testDatabase } from '../support/database'
import { api, createEventAs } from '../support/writeFixtures'

let admin: string
const db = testDatabase()

beforeAll(async () => {
  admin = await asAdmin()
})

/** What the server's own polling of the jobs queue does, now. */
async function tick(): Promise<void> {
  expect((await call('/api/payload-jobs/run?queue=calendar', { token: admin })).status).toBe(200)
}

describe('a scheduled event', () => {
  it('stays hidden until its publication date, then is published by the queue, once', async () => {
    // Far enough ahead that two creates and a run of the queue fit before it on a busy machine.
    const soon = DateTime.utc().plus({ seconds: 15 })
    const later = DateTime.utc().plus({ days: 2 })
    const due = await createEventAs(admin, {
      status: 'future',
      date_utc: soon.toFormat('yyyy-MM-dd HH:mm:ss'),
    })
    const notYet = await createEventAs(admin, {
      status: 'future',
      date_utc: later.toFormat('yyyy-MM-dd HH:mm:ss'),
    })
    expect(due.status).toBe('future')
    expect((await api(`/events/${due.id}`)).status).toBe(403)

    await tick()
    expect((await api(`/events/${due.id}`)).status).toBe(403)

    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, soon.toMillis() - Date.now()) + 500),
    )
    await afterQueueRuns(admin, async () => (await api(`/events/${due.id}`)).status).toBe(200)
    const published = await api(`/events/${due.id}`)
    expect(published.body.status).toBe('publish')
    expect((await api(`/events/${notYet.id}`, { token: admin })).body.status).toBe('future')

    // Another run finds nothing more to publish: the item changed once.
    const before = (await api(`/events/${due.id}`, { token: admin })).body.modified_utc
    await tick()
    expect((await api(`/events/${due.id}`, { token: admin })).body.modified_utc).toBe(before)
  })
})

describe('scheduled events, one of which can no longer be published', () => {
  it('publishes the others when the queue is run through /api/payload-jobs/run', async () => {
    // The server's own polling runs at each minute's start: this test starts clear of it, so that
    // its own run, through the endpoint, is the one that publishes.
    const second = new Date().getUTCSeconds()
    if (second > 30) await sleep((62 - second) * 1000)
    const soon = DateTime.utc().plus({ seconds: 8 })
    const [fine, broken] = await Promise.all(
      [1, 2].map(() =>
        createEventAs(admin, { status: 'future', date_utc: soon.toFormat('yyyy-MM-dd HH:mm:ss') }),
      ),
    )
    // A stored value its field no longer takes (written by hand, or before a rule tightened): the
    // publication of that event fails its validation.
    await db.query(`update events set website = 'not a web address' where id = $1`, [broken!.id])
    try {
      await sleep(Math.max(0, soon.toMillis() - Date.now()) + 500)
      await tick()
      const status = async (id: number) =>
        (await api(`/events/${id}`, { token: admin })).body.status
      expect(await status(fine!.id)).toBe('publish')
      expect(await status(broken!.id)).toBe('future')
    } finally {
      await call(`/api/events/${broken!.id}`, { method: 'DELETE', token: admin })
    }
  }, 90_000)
})

describe('a scheduled event whose date has come', () => {
  it('is published as it is saved', async () => {
    const past = await createEventAs(admin, {
      status: 'future',
      date_utc: DateTime.utc().minus({ minutes: 5 }).toFormat('yyyy-MM-dd HH:mm:ss'),
    })
    expect(past.status).toBe('publish')
    expect((await api(`/events/${past.id}`)).status).toBe(200)
  })
})
