/**
 * Webhooks (docs/api.md §20): each change is POSTed to the registered endpoints, signed, in order,
 * at least once, with retries after a growing wait and an endpoint turned off after too many
 * failures in a row (the test server runs with WEBHOOK_RETRY_BASE_SECONDS=1, WEBHOOK_MAX_FAILURES=3).
 * The receiver is a real HTTP server on loopback (WEBHOOK_ALLOW_PRIVATE=true on the test server).
 */
import { createHmac } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, unique, userWithRole, type Reply } from '../support/api'
import { testDatabase } from '../support/database'
import { startSecondInstance, type Instance } from '../support/secondInstance'
import { graphql } from '../support/doors'
import { siteClient } from '../support/siteClient'
import { api, createEventAs, createVenueAs } from '../support/writeFixtures'

type Received = {
  headers: http.IncomingHttpHeaders
  raw: string
  body: { type: string; id: number; action: string; modified_utc: string; seq: string }
}

/**
 * A receiver that records every POST and answers with the status it is told, for as many POSTs as it
 * is told, then 200; each answer `delayMs` after the POST came.
 */
async function receiver(delayMs = 0) {
  const received: Received[] = []
  let status = 200
  let times = Infinity
  const server = http.createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk) => (raw += chunk))
    request.on('end', () => {
      received.push({ headers: request.headers, raw, body: JSON.parse(raw) })
      if (times-- <= 0) status = 200
      if (status >= 300 && status < 400)
        response.setHeader('Location', 'http://127.0.0.1:1/elsewhere')
      const answer = status
      setTimeout(() => response.writeHead(answer).end(), delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return {
    url,
    received,
    answer: (next: number, forPosts = Infinity) => {
      status = next
      times = forPosts
    },
    of: (id: number) => received.filter((entry) => entry.body.id === id),
  }
}

const servers: http.Server[] = []
let admin: string
const db = testDatabase()

beforeAll(async () => {
  admin = await asAdmin()
})

afterAll(async () => {
  // Endpoints left behind would keep failing (their receivers are gone) and writing their state while
  // later tests run. Deleting one takes its delivery log along.
  expect(
    (await call('/api/webhooks?where[id][exists]=true', { method: 'DELETE', token: admin })).status,
  ).toBe(200)
  expect((await call('/api/webhook-deliveries?limit=1', { token: admin })).body.totalDocs).toBe(0)
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
})

async function register(url: string, extra: Record<string, unknown> = {}) {
  const reply = await call('/api/webhooks', {
    method: 'POST',
    token: admin,
    json: { url, secret: 'shared-secret-16', ...extra },
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body.doc as { id: number; secret: string; cursor: string }
}

const webhook = async (id: number) => (await call(`/api/webhooks/${id}`, { token: admin })).body

/** Delivery passes, as the queue runs them, until `done` holds (other tests' changes may come first). */
async function deliverUntil(done: () => boolean, passes = 20): Promise<void> {
  for (let pass = 0; pass < passes && !done(); pass++) {
    const reply = await call('/api/webhooks/deliver', { method: 'POST', token: admin })
    expect(reply.status).toBe(200)
  }
  expect(done()).toBe(true)
}

describe('registering a webhook', () => {
  it('is for administrators only, and needs an http(s) URL', async () => {
    const editor = await userWithRole('editor')
    expect(
      (
        await call('/api/webhooks', {
          method: 'POST',
          token: editor.token,
          json: { url: 'https://example.org/hook' },
        })
      ).status,
    ).toBe(403)
    expect((await call('/api/webhooks', { token: editor.token })).status).toBe(403)
    expect(
      (await call('/api/webhooks/deliver', { method: 'POST', token: editor.token })).status,
    ).toBe(403)
    const ftp = await call('/api/webhooks', {
      method: 'POST',
      token: admin,
      json: { url: 'ftp://example.org/hook' },
    })
    expect(ftp.status).toBe(400)
    expect(JSON.stringify(ftp.body)).toContain('Only http and https URLs')
  })

  it('gets a generated secret, and starts from the changes made after it', async () => {
    const before = await createEventAs(admin, { status: 'publish' })
    const hook = await receiver()
    const created = (
      await call('/api/webhooks', {
        method: 'POST',
        token: admin,
        json: { url: hook.url, types: ['event'] },
      })
    ).body.doc
    expect(created.secret).toMatch(/^[0-9a-f]{48}$/)
    const after = await createEventAs(admin, { status: 'publish' })
    await deliverUntil(() => hook.of(after.id).length > 0)
    expect(hook.of(before.id)).toEqual([])
  })
})

describe('a webhook secret', () => {
  const secretOf = async (id: number) => (await webhook(id)).secret as string

  it('is generated when left empty, through Payload REST and GraphQL alike, and again when cleared', async () => {
    const hook = await receiver()
    const generated = /^[0-9a-f]{48}$/
    for (const secret of [undefined, '', null]) {
      const reply = await call('/api/webhooks', {
        method: 'POST',
        token: admin,
        json: { url: hook.url, types: ['tag'], ...(secret === undefined ? {} : { secret }) },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      expect(reply.body.doc.secret).toMatch(generated)
    }
    const viaGraphql = await graphql(
      `mutation { createWebhook(data: { url: "${hook.url}", types: tag }) { id secret } }`,
      admin,
    )
    expect(viaGraphql.body.errors, JSON.stringify(viaGraphql.body)).toBeUndefined()
    const { id, secret } = viaGraphql.body.data.createWebhook
    expect(secret).toMatch(generated)
    // Untouched by an update that does not name it; a new one when cleared.
    await call(`/api/webhooks/${id}`, { method: 'PATCH', token: admin, json: { types: ['venue'] } })
    expect(await secretOf(id)).toBe(secret)
    const cleared = await call(`/api/webhooks/${id}`, {
      method: 'PATCH',
      token: admin,
      json: { secret: '' },
    })
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200)
    expect(await secretOf(id)).toMatch(generated)
    expect(await secretOf(id)).not.toBe(secret)
  })

  it('of your own has no spaces at either end, through every door', async () => {
    const hook = await receiver()
    const { id } = await register(hook.url, { types: ['tag'] })
    for (const bad of [' '.repeat(20), ' sixteen-chars-ok', 'sixteen-chars-ok ', 'tab\t']) {
      const created = await call('/api/webhooks', {
        method: 'POST',
        token: admin,
        json: { url: hook.url, secret: bad },
      })
      expect(created.status, JSON.stringify(bad)).toBe(400)
      const updated = await call(`/api/webhooks/${id}`, {
        method: 'PATCH',
        token: admin,
        json: { secret: bad },
      })
      expect(updated.status, JSON.stringify(bad)).toBe(400)
      const viaGraphql = await graphql(
        `mutation { createWebhook(data: { url: "${hook.url}", secret: ${JSON.stringify(bad)} }) { id } }`,
        admin,
      )
      expect(viaGraphql.body.errors, JSON.stringify(bad)).toBeDefined()
    }
    expect(await secretOf(id)).toBe('shared-secret-16')
    // However short: the administrator's choice.
    for (const good of ['s', 'inner space ok']) {
      const changed = await call(`/api/webhooks/${id}`, {
        method: 'PATCH',
        token: admin,
        json: { secret: good },
      })
      expect(changed.status, JSON.stringify(changed.body)).toBe(200)
      expect(await secretOf(id)).toBe(good)
    }
  })

  it('saved before the rule keeps working, and may be changed only to one that keeps it', async () => {
    const hook = await receiver()
    const { id } = await register(hook.url, { types: ['venue'] })
    await db.query(`update webhooks set secret = 'short ' where id = $1`, [id])
    const venue = await createVenueAs(admin, { status: 'publish' })
    await deliverUntil(() => hook.of(venue.id).length === 1)
    const [delivery] = hook.of(venue.id)
    const timestamp = String(delivery!.headers['x-calendar-timestamp'])
    expect(delivery!.headers['x-calendar-signature']).toBe(
      `sha256=${createHmac('sha256', 'short ').update(`${timestamp}.${delivery!.raw}`).digest('hex')}`,
    )
    expect(
      (await call(`/api/webhooks/${id}`, { method: 'PATCH', token: admin, json: { active: true } }))
        .status,
    ).toBe(200)
    expect(
      (
        await call(`/api/webhooks/${id}`, {
          method: 'PATCH',
          token: admin,
          json: { secret: 'shorter ' },
        })
      ).status,
    ).toBe(400)
  })
})

describe('a webhook cursor', () => {
  type Refusal = { path?: string }[] | undefined
  /**
   * Why a reply is not a 400 naming `cursor` (undefined: it is): Payload REST's status, or the
   * status GraphQL gives its error in an answer that is itself a 200.
   */
  const notRefused = (reply: Reply) => {
    const errors: {
      data?: { errors?: Refusal }
      extensions?: { statusCode?: number; data?: { errors?: Refusal } }
    }[] = reply.body?.errors ?? []
    const refusals = errors.map((error) => ({
      status: error.extensions?.statusCode ?? reply.status,
      paths: (error.data?.errors ?? error.extensions?.data?.errors ?? []).map(
        (entry) => entry.path,
      ),
    }))
    return refusals.some(({ status, paths }) => status === 400 && paths.includes('cursor'))
      ? undefined
      : `${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`
  }

  it('is a position the change log has reached, through Payload REST and GraphQL alike', async () => {
    const hook = await receiver()
    const { id, cursor } = await register(hook.url, { types: ['tag'] })
    const end = async () =>
      BigInt(
        (
          await db.query<{ end: string }>(
            'select case when is_called then last_value else 0 end as "end" from calendar_changes_seq',
          )
        ).rows[0]!.end,
      )
    const ahead = String((await end()) + 1000n)
    const wrong: string[] = []
    for (const bad of [ahead, '-1', '1.5', '1e3', ' 7']) {
      const doors = {
        'REST create': await call('/api/webhooks', {
          method: 'POST',
          token: admin,
          json: { url: hook.url, secret: 'shared-secret-16', cursor: bad },
        }),
        'REST update': await call(`/api/webhooks/${id}`, {
          method: 'PATCH',
          token: admin,
          json: { cursor: bad },
        }),
        'GraphQL update': await graphql(
          `mutation { updateWebhook(id: ${id}, data: { cursor: ${JSON.stringify(bad)} }) { cursor } }`,
          admin,
        ),
      }
      for (const [door, reply] of Object.entries(doors)) {
        const why = notRefused(reply)
        if (why) wrong.push(`${door} ${JSON.stringify(bad)}: ${why}`)
      }
    }
    expect(wrong).toEqual([])
    expect((await webhook(id)).cursor).toBe(cursor)
    // The log's end itself is good: the endpoint then receives the next change.
    const atEnd = String(await end())
    const moved = await graphql(
      `mutation { updateWebhook(id: ${id}, data: { cursor: "${atEnd}" }) { cursor } }`,
      admin,
    )
    expect(moved.body.errors, JSON.stringify(moved.body)).toBeUndefined()
    expect(moved.body.data.updateWebhook.cursor).toBe(atEnd)
  })

  it('cleared, sends again the changes from the oldest the log keeps, those before the endpoint was registered included', async () => {
    const hook = await receiver()
    // A change before the registration: a new endpoint starts after it, a cleared cursor before it.
    await createVenueAs(admin, { status: 'publish' })
    const { id, cursor } = await register(hook.url, { types: ['venue'] })
    const cleared = await call(`/api/webhooks/${id}`, {
      method: 'PATCH',
      token: admin,
      json: { cursor: null },
    })
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200)
    // Refused, the first change stops the endpoint there: the whole log to one receiver would hold
    // up this file's later passes.
    hook.answer(500)
    await deliverUntil(() => hook.received.length > 0)
    expect(BigInt(hook.received[0]!.body.seq)).toBeLessThanOrEqual(BigInt(cursor))
    expect((await call(`/api/webhooks/${id}`, { method: 'DELETE', token: admin })).status).toBe(200)
  })
})

describe('a delivery', () => {
  it('is signed over the timestamp and the body, and says what changed as anonymous readers see it', async () => {
    const hook = await receiver()
    const { id } = await register(hook.url, { types: ['event'] })
    const venue = await createVenueAs(admin, { status: 'publish' })
    const event = await createEventAs(admin, { status: 'publish' })
    await deliverUntil(() => hook.of(event.id).length === 1)

    const [delivery] = hook.of(event.id)
    expect(delivery!.body).toMatchObject({ type: 'event', id: event.id, action: 'upsert' })
    expect(delivery!.body.modified_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    expect(delivery!.headers['content-type']).toBe('application/json')
    expect(delivery!.headers['x-calendar-webhook']).toBe(String(id))
    const timestamp = String(delivery!.headers['x-calendar-timestamp'])
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(120)
    const expected = `sha256=${createHmac('sha256', 'shared-secret-16').update(`${timestamp}.${delivery!.raw}`).digest('hex')}`
    expect(delivery!.headers['x-calendar-signature']).toBe(expected)
    // Only the chosen types are sent.
    expect(
      hook.received.some((entry) => entry.body.type === 'venue' && entry.body.id === venue.id),
    ).toBe(false)

    // An event taken back to draft is gone for the public: a delete.
    expect(
      (
        await api(`/events/${event.id}`, {
          method: 'POST',
          token: admin,
          json: { status: 'draft' },
        })
      ).status,
    ).toBe(200)
    await deliverUntil(() => hook.of(event.id).length === 2)
    expect(hook.of(event.id)[1]!.body.action).toBe('delete')
    expect(BigInt(hook.of(event.id)[1]!.body.seq)).toBeGreaterThan(
      BigInt(hook.of(event.id)[0]!.body.seq),
    )
  })

  it('comes in change order, and by itself through the jobs queue', async () => {
    const hook = await receiver()
    await register(hook.url, { types: ['venue'] })
    const first = await createVenueAs(admin, { status: 'publish' })
    const second = await createVenueAs(admin, { status: 'publish' })
    // No pass is asked for: the queue polls every ten seconds.
    const deadline = Date.now() + 45_000
    while (Date.now() < deadline && hook.of(second.id).length === 0) await sleep(500)
    const order = hook.received
      .map((entry) => entry.body.id)
      .filter((id) => id === first.id || id === second.id)
    expect(order).toEqual([first.id, second.id])
  }, 60_000)

  it('goes on after an instance died during a pass: the pass it left marked as running is run again', async () => {
    // What an instance killed during a scheduled pass leaves: the pass's job marked as running,
    // untouched since. While it stood, Payload queued no further pass, on any instance.
    const [abandoned] = (
      await db.query<{ id: number }>(
        `insert into payload_jobs (task_slug, queue, processing, meta, wait_until, updated_at, created_at)
         values ('deliverWebhooks', 'webhooks', true, '{"scheduled": true}',
                 now() - interval '10 minutes', now() - interval '10 minutes', now() - interval '10 minutes')
         returning id`,
      )
    ).rows
    const hook = await receiver()
    await register(hook.url, { types: ['venue'] })
    const venue = await createVenueAs(admin, { status: 'publish' })
    // No pass is asked for: the queue's own, every ten seconds, must get there.
    const deadline = Date.now() + 45_000
    while (Date.now() < deadline && hook.of(venue.id).length === 0) await sleep(500)
    expect(hook.of(venue.id)).toHaveLength(1)
    // Run to its end, a moment after its delivery: Payload deletes a job that completes.
    const left = () =>
      db.query('select processing from payload_jobs where id = $1', [abandoned!.id])
    const ended = Date.now() + 10_000
    while (Date.now() < ended && (await left()).rows.length) await sleep(200)
    expect((await left()).rows).toEqual([])
  }, 60_000)

  it('is retried after a failure with a growing wait, is logged, and resumes in order', async () => {
    const hook = await receiver()
    const { id } = await register(hook.url, { types: ['event'] })
    // Once: the queue's own pass (every 10 s) may retry before the test would have switched it back.
    hook.answer(500, 1)
    const event = await createEventAs(admin, { status: 'publish' })
    await deliverUntil(() => hook.of(event.id).length === 1)
    let state = await webhook(id)
    expect(state.failures).toBe(1)
    expect(state.lastError).toBe('HTTP 500')
    expect(new Date(state.retryAt).getTime()).toBeGreaterThan(Date.now() - 1000)

    // A second event waits behind the first: nothing overtakes a failed change.
    const next = await createEventAs(admin, { status: 'publish' })
    await sleep(1200)
    await deliverUntil(() => hook.of(next.id).length === 1)
    const sequence = hook.received
      .map((entry) => entry.body.id)
      .filter((item) => item === event.id || item === next.id)
    expect(sequence).toEqual([event.id, event.id, next.id])
    state = await webhook(id)
    expect(state.failures).toBe(0)
    expect(state.active).toBe(true)

    const log = (
      await call(`/api/webhook-deliveries?where[webhook][equals]=${id}&sort=createdAt&limit=10`, {
        token: admin,
      })
    ).body.docs
    const forEvent = log.filter(
      (entry: { summary: string }) => entry.summary === `event ${event.id} upsert`,
    )
    expect(
      forEvent.map((entry: { ok: boolean; status: number; attempt: number }) => [
        entry.ok,
        entry.status,
        entry.attempt,
      ]),
    ).toEqual([
      [false, 500, 1],
      [true, 200, 2],
    ])
  }, 60_000)

  it('ends quietly when its endpoint is deleted while a change is on its way', async () => {
    let hookId = 0
    let deleted = 0
    const server = http.createServer((request, response) => {
      request.resume()
      request.on('end', async () => {
        if (!deleted)
          deleted = (await call(`/api/webhooks/${hookId}`, { method: 'DELETE', token: admin }))
            .status
        response.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    servers.push(server)
    hookId = (await register(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)).id
    await createEventAs(admin, { status: 'publish' })
    for (let pass = 0; pass < 5 && !deleted; pass++) {
      const reply = await call('/api/webhooks/deliver', { method: 'POST', token: admin })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    }
    expect(deleted).toBe(200)
    expect((await call(`/api/webhooks/${hookId}`, { token: admin })).status).toBe(404)
  })

  it('does not follow redirects, and turns the endpoint off after too many failures in a row', async () => {
    const hook = await receiver()
    const { id } = await register(hook.url, { types: ['event'] })
    hook.answer(302)
    const event = await createEventAs(admin, { status: 'publish' })
    await deliverUntil(() => hook.of(event.id).length === 1)
    expect((await webhook(id)).lastError).toBe('HTTP 302: redirects are not followed')
    // Waits of 1 s, then 2 s, before the third failure (WEBHOOK_MAX_FAILURES=3).
    const deadline = Date.now() + 20_000
    while (Date.now() < deadline && (await webhook(id)).active) {
      await call('/api/webhooks/deliver', { method: 'POST', token: admin })
      await sleep(500)
    }
    const state = await webhook(id)
    expect(state.active).toBe(false)
    expect(state.failures).toBe(3)
    expect(hook.of(event.id).length).toBe(3)
    // Switched off, it gets nothing more.
    hook.answer(200)
    const later = await createEventAs(admin, { status: 'publish' })
    await call('/api/webhooks/deliver', { method: 'POST', token: admin })
    expect(hook.of(event.id).length).toBe(3)
    // Turned on again, it resumes at the next pass where it stopped, its failures forgotten.
    const resumed = await call(`/api/webhooks/${id}`, {
      method: 'PATCH',
      token: admin,
      json: { active: true },
    })
    expect(resumed.status).toBe(200)
    expect(resumed.body.doc).toMatchObject({ active: true, failures: 0, retryAt: null })
    await deliverUntil(() => hook.of(later.id).length === 1, 3)
    expect(hook.of(event.id).length).toBe(4)
  }, 60_000)
})

describe('a receiver that never answers', () => {
  it("holds up only its own deliveries: another endpoint's next change goes out at once", async () => {
    // Takes every POST and answers none until the test is over.
    const held: http.ServerResponse[] = []
    const hanging = http.createServer((request, response) => {
      request.resume()
      held.push(response)
    })
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    const slow = await register(
      `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`,
      { types: ['venue'] },
    )
    const fast = await receiver()
    await register(fast.url, { types: ['venue'] })
    try {
      const first = await createVenueAs(admin, { status: 'publish' })
      // No pass is asked for: the queue's own (every ten seconds) sends the first venue to both, and
      // waits 10 s for the one that does not answer; the queue runs no other pass meanwhile.
      const deadline = Date.now() + 30_000
      while (Date.now() < deadline && (held.length === 0 || fast.of(first.id).length === 0))
        await sleep(100)
      expect(held).toHaveLength(1)
      expect(fast.of(first.id)).toHaveLength(1)
      const second = await createVenueAs(admin, { status: 'publish' })
      const made = Date.now()
      while (Date.now() < made + 15_000 && fast.of(second.id).length === 0) await sleep(100)
      expect(fast.of(second.id)).toHaveLength(1)
      expect(Date.now() - made).toBeLessThan(4_000)
      // The receiver that never answered is still waited on, its first change not yet given up.
      expect(held).toHaveLength(1)
      expect(held[0]!.writableEnded).toBe(false)
    } finally {
      expect(
        (await call(`/api/webhooks/${slow.id}`, { method: 'DELETE', token: admin })).status,
      ).toBe(200)
      for (const response of held) response.destroy()
      hanging.closeAllConnections()
      await new Promise((resolve) => hanging.close(resolve))
    }
  }, 60_000)
})

describe('a pass that takes long', () => {
  // The last test stops the instance itself.
  let instance: Instance
  const site = siteClient(() => instance)

  beforeAll(async () => {
    // A calendar of its own, so that its queue alone runs its passes, with a job counted abandoned
    // after 3 s of silence.
    instance = await startSecondInstance(
      { JOBS_ABANDONED_AFTER_SECONDS: '3', WEBHOOK_ALLOW_PRIVATE: 'true' },
      { ownDatabase: true, keepLog: true },
    )
    await site.signIn({ email: 'hooks@example.org', password: 'long-enough-1' })
  }, 180_000)

  afterAll(async () => {
    await instance?.stop()
  })

  /** Registers `url` on the instance for the changes of one type; the webhook. */
  async function registerOnSite(url: string, type: string): Promise<{ id: number }> {
    const registered = await site.onSite('/api/webhooks', {
      method: 'POST',
      json: { url, secret: 'shared-secret-16', types: [type] },
    })
    expect(registered.status, JSON.stringify(registered.body)).toBe(201)
    return registered.body.doc
  }

  it('is not run again while its instance is alive, however long past the limit of silence it runs', async () => {
    const hook = await receiver(5_000)
    await registerOnSite(hook.url, 'venue')
    const ids: number[] = []
    for (let n = 0; n < 2; n++)
      ids.push((await site.write('/venues', { venue: unique('long pass'), status: 'publish' })).id)
    // Meanwhile, as another instance's poll would each time, the schedules are checked every second
    // (Payload's endpoint for hosts without a timer): the pass, 5 s an answer, is past 3 s of
    // silence at several of them, and still running.
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline && hook.of(ids[1]!).length === 0) {
      const checked = await site.onSite('/api/payload-jobs/handle-schedules?queue=webhooks')
      expect(checked.status, JSON.stringify(checked.body)).toBe(200)
      await sleep(1_000)
    }
    // Each once, in order, and no pass was given back to the queue while its instance ran it.
    expect(hook.received.map((entry) => entry.body.id)).toEqual(ids)
    expect(await instance.settledLog()).not.toContain('gave back to the queue')
  }, 90_000)

  it('ends before its instance does when the instance is told to stop: the change delivered and recorded, no job left running', async () => {
    const hook = await receiver(3_000)
    const registered = await registerOnSite(hook.url, 'organizer')
    const organizer = await site.write('/organizers', {
      organizer: unique('stopping'),
      status: 'publish',
    })
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline && hook.of(organizer.id).length === 0) await sleep(200)
    expect(hook.of(organizer.id)).toHaveLength(1)
    // The pass waits 3 s for the receiver's answer: the instance is told to stop meanwhile (SIGTERM,
    // as a deploy does), and its database is read once it has exited.
    let running: unknown[] = []
    let cursor: string | undefined
    await instance.stop(async () => {
      const client = new pg.Client({ connectionString: instance.databaseUrl })
      await client.connect()
      try {
        running = (await client.query('select id from payload_jobs where processing')).rows
        cursor = (
          await client.query<{ cursor: string }>('select cursor from webhooks where id = $1', [
            registered.id,
          ])
        ).rows[0]?.cursor
      } finally {
        await client.end()
      }
    })
    expect(running).toEqual([])
    expect(String(cursor)).toBe(hook.of(organizer.id)[0]!.body.seq)
  }, 60_000)
})
