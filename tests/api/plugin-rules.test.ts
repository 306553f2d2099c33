/**
 * The calendar in a developer's app whose own read rule on events hides some from anonymous readers
 * (README, "Extending": access rules joined with the calendar's): the rule holds through the doors
 * that unlock or announce an event, a password, an event's iCalendar file, the change feed and webhooks. An app
 * of its own, in a file of its own: one Payload per process.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BARE_NAMESPACE, startBareApp, type BareApp } from '../plugin/bareApp'

const root = `/api/${BARE_NAMESPACE}`
// The test's webhook receiver listens on this machine.
process.env.WEBHOOK_ALLOW_PRIVATE = 'true'

describe('an app whose developer narrows who reads events', () => {
  let ruled: BareApp
  let admin: string
  const at = (path: string, auth = false) =>
    fetch(`${ruled.url}${path}`, { headers: auth ? { Authorization: `JWT ${admin}` } : {} })

  beforeAll(async () => {
    // Only administrators see events for families.
    ruled = await startBareApp(process.env.DATABASE_URL!, undefined, {
      eventsRead: ({ req }) =>
        (req.user as { role?: string } | null)?.role === 'administrator'
          ? true
          : { audience: { not_equals: 'families' } },
    })
    const account = { email: 'dev@ruled.test', password: 'ruled-password-1' }
    const post = (path: string, json: unknown) =>
      fetch(`${ruled.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(json),
      })
    await post('/api/users/first-register', account)
    admin = ((await (await post('/api/users/login', account)).json()) as { token: string }).token
  })

  afterAll(async () => {
    await ruled?.close()
    // Not started when the webhooks' test is left out (`-t`).
    if (hooks) await new Promise((resolve) => hooks!.close(resolve))
  })

  /** A published event made by the administrator; its id. */
  const write = (json: Record<string, unknown>) =>
    fetch(`${ruled.url}${root}/events`, {
      method: 'POST',
      headers: { Authorization: `JWT ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        status: 'publish',
        start_date: '2031-04-02 19:00:00',
        end_date: '2031-04-02 21:00:00',
        ...json,
      }),
    }).then(async (answer) => {
      expect(answer.status).toBe(201)
      return ((await answer.json()) as { id: number }).id
    })

  /** A webhook receiver on this machine (WEBHOOK_ALLOW_PRIVATE, set for this file), and what it got. */
  let hooks: Server | undefined
  const received: { id: number; action: string }[] = []

  it('keeps a hidden event hidden through a password, its file and the change feed', async () => {
    const cursor = (
      (await (await at(`${root}/changes?since=now`)).json()) as { next_cursor: string }
    ).next_cursor
    const shown = await write({ title: 'Open night', audience: 'adults' })
    const hidden = await write({ title: 'Family night', audience: 'families' })
    const locked = await write({ title: 'Locked family', audience: 'families', password: 'pw-1' })

    // As an event that does not exist, with its password or without: never its content, nor a 403
    // that tells it is there.
    const missing = { code: 'rest-event-not-found', data: { status: 404 } }
    for (const path of [
      `/events/${hidden}`,
      `/events/${hidden}.ics`,
      `/events/${locked}`,
      `/events/${locked}?password=pw-1`,
      `/events/${locked}.ics?password=pw-1`,
    ]) {
      const answer = await at(`${root}${path}`)
      expect([path, answer.status]).toEqual([path, 404])
      expect(await answer.json()).toMatchObject(missing)
    }
    expect((await at(`${root}/events/${shown}`)).status).toBe(200)
    expect((await at(`${root}/events/${locked}?password=pw-1`, true)).status).toBe(200)

    // The change feed as anonymous readers (and webhooks) hear it: the hidden ones are not news.
    const feed = (await (await at(`${root}/changes?since=${cursor}`)).json()) as {
      changes: { type: string; id: number; action: string }[]
    }
    const events = feed.changes.filter((change) => change.type === 'event')
    expect(
      events.filter((change) => change.action === 'upsert').map((change) => change.id),
    ).toEqual([shown])
  })

  it('tells of a hidden event neither by its trash, its status, its slug nor a password throttle', async () => {
    const remove = (id: number) =>
      fetch(`${ruled.url}${root}/events/${id}`, {
        method: 'DELETE',
        headers: { Authorization: `JWT ${admin}` },
      })
    const trashed = await write({ title: 'Trashed family', audience: 'families' })
    const draft = await write({ title: 'Draft family', audience: 'families', status: 'draft' })
    const locked = await write({ title: 'Guarded family', audience: 'families', password: 'pw-2' })
    const shownTrashed = await write({ title: 'Trashed adults', audience: 'adults' })
    for (const id of [trashed, shownTrashed]) expect((await remove(id)).status).toBe(200)

    const missing = { code: 'rest-event-not-found', data: { status: 404 } }
    const paths = [
      `/events/${trashed}`,
      `/events/${draft}`,
      // Seven wrong passwords: past the five a client may try before it must wait.
      ...Array.from({ length: 7 }, (_, n) => `/events/${locked}?password=wrong-${n}`),
    ]
    for (const path of paths) {
      const answer = await at(`${root}${path}`)
      expect([path, answer.status]).toEqual([path, 404])
      expect(await answer.json()).toMatchObject(missing)
    }
    const bySlug = await at(`${root}/events/by-slug/draft-family`)
    expect(bySlug.status).toBe(400)
    expect(await bySlug.json()).toMatchObject({
      data: { params: { slug: 'No event has this slug.' } },
    })
    // The same doors tell a reader the rule lets see what upstream tells.
    expect((await at(`${root}/events/${shownTrashed}`)).status).toBe(403)
    expect((await at(`${root}/events/${trashed}`, true)).status).toBe(403)
  })

  it('finds the readable event by its English slug where a hidden one has that slug in French', async () => {
    const shown = await write({
      title: 'Shared slug, adults',
      audience: 'adults',
      slug: 'shared-slug',
    })
    const hidden = await write({
      title: 'Même adresse, familles',
      audience: 'families',
      i18n_language: 'fr',
      slug: 'shared-slug',
    })
    for (const path of [
      `/events/by-slug/shared-slug?i18n_language=fr`,
      `/events/by-slug/shared-slug`,
    ]) {
      const answer = await at(`${root}${path}`)
      expect([path, answer.status]).toEqual([path, 200])
      expect(((await answer.json()) as { id: number }).id).toBe(shown)
    }
    const asAdmin = await at(`${root}/events/by-slug/shared-slug?i18n_language=fr`, true)
    expect(((await asAdmin.json()) as { id: number }).id).toBe(hidden)
  })

  it("tells a contributor of a hidden event nothing by writing to it: an event that does not exist's 404", async () => {
    const hidden = await write({ title: 'Written family', audience: 'families' })
    const login = { email: `contributor-${Date.now()}@ruled.test`, password: 'ruled-password-2' }
    const made = await fetch(`${ruled.url}/api/users`, {
      method: 'POST',
      headers: { Authorization: `JWT ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...login, role: 'contributor' }),
    })
    expect(made.status).toBe(201)
    const { token } = (await (
      await fetch(`${ruled.url}/api/users/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(login),
      })
    ).json()) as { token: string }
    const as = (method: string, id: number) =>
      fetch(`${ruled.url}${root}/events/${id}`, {
        method,
        headers: { Authorization: `JWT ${token}`, 'Content-Type': 'application/json' },
        ...(method === 'DELETE' ? {} : { body: JSON.stringify({ title: 'Mine now' }) }),
      })
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const [toHidden, toMissing] = [await as(method, hidden), await as(method, 999_999)]
      const [hiddenBody, missingBody] = [await toHidden.json(), await toMissing.json()]
      expect([method, toHidden.status, hiddenBody.code]).toEqual([
        method,
        toMissing.status,
        missingBody.code,
      ])
      expect(toHidden.status).toBe(404)
    }
  })

  it('sends webhooks only what anonymous readers may read', async () => {
    hooks = createServer((request, response) => {
      let raw = ''
      request.on('data', (chunk) => (raw += chunk))
      request.on('end', () => {
        received.push(JSON.parse(raw) as { id: number; action: string })
        response.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => hooks!.listen(0, '127.0.0.1', resolve))
    const registered = await fetch(`${ruled.url}/api/webhooks`, {
      method: 'POST',
      headers: { Authorization: `JWT ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`,
        secret: 'ruled-secret-of-16',
      }),
    })
    expect(registered.status, await registered.clone().text()).toBe(201)
    const shown = await write({ title: 'Open matinee', audience: 'adults' })
    const hidden = await write({ title: 'Family matinee', audience: 'families' })
    for (let pass = 0; pass < 10 && !received.some((change) => change.id === hidden); pass++) {
      const delivered = await fetch(`${ruled.url}/api/webhooks/deliver`, {
        method: 'POST',
        headers: { Authorization: `JWT ${admin}` },
      })
      expect(delivered.status).toBe(200)
    }
    expect(
      received.filter((change) => change.action === 'upsert').map((change) => change.id),
    ).toEqual([shown])
  })
})
