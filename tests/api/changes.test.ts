/**
 * The change feed (docs/api.md §18): every door's writes (the namespace, Payload's REST as the admin
 * uses it, hand-written SQL) appear in order, once per item, as each caller may see them; cursors
 * resume, page and expire.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, unique } from '../support/api'
import { testDatabase } from '../support/database'
import { changeSettings, restoreSettings } from '../support/fixtures'
import { api, createEventAs } from '../support/writeFixtures'

let admin: string
const db = testDatabase()

beforeAll(async () => {
  admin = await asAdmin()
})

type Change = { type: string; id: number; action: string; modified_utc: string }

/** Every change after `since`, following the cursors page by page, and the last cursor. */
async function changesSince(
  since: string,
  token?: string,
  perPage = 500,
): Promise<{ changes: Change[]; cursor: string }> {
  const changes: Change[] = []
  let cursor = since
  for (;;) {
    const reply = await api(`/changes?since=${cursor}&per_page=${perPage}`, { token })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    changes.push(...reply.body.changes)
    cursor = reply.body.next_cursor
    if (!reply.body.has_more) return { changes, cursor }
  }
}

async function now(token?: string): Promise<string> {
  const reply = await api('/changes?since=now', { token })
  expect(reply.status).toBe(200)
  expect(reply.body.changes).toEqual([])
  expect(reply.body.has_more).toBe(false)
  return reply.body.next_cursor
}

const pick = (changes: Change[], type: string, id: number) =>
  changes.filter((change) => change.type === type && change.id === id)

describe('the change feed', () => {
  it('records writes from every door, once per item, in the order of their latest change', async () => {
    const start = await now()
    const event = await createEventAs(admin, { status: 'publish' })
    const venue = await call('/api/venues?locale=en', {
      method: 'POST',
      token: admin,
      json: { name: unique('Venue '), status: 'publish' },
    })
    expect(venue.status, JSON.stringify(venue.body)).toBe(201)
    const category = await api('/categories', {
      method: 'POST',
      token: admin,
      json: { name: unique('Category ') },
    })
    expect(category.status).toBe(201)
    // A tag renamed with SQL, behind every API's back.
    const tag = await api('/tags', { method: 'POST', token: admin, json: { name: unique('Tag ') } })
    await db.query(
      `update event_tags_locales set name = name || ' (renamed)' where _parent_id = $1`,
      [tag.body.id],
    )
    // The event changes again last: it moves behind the others.
    expect(
      (
        await api(`/events/${event.id}`, {
          method: 'POST',
          token: admin,
          json: { title: unique('Renamed ') },
        })
      ).status,
    ).toBe(200)

    const { changes } = await changesSince(start)
    const order = changes.map((change) => `${change.type}:${change.id}`)
    expect(order).toEqual([
      `venue:${venue.body.doc.id}`,
      `category:${category.body.id}`,
      `tag:${tag.body.id}`,
      `event:${event.id}`,
    ])
    expect(changes.every((change) => change.action === 'upsert')).toBe(true)
    expect(changes[3]!.modified_utc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect(Math.abs(Date.parse(`${changes[3]!.modified_utc}Z`) - Date.now())).toBeLessThan(60_000)
  })

  it('shows each caller what it may read: an event that leaves publish is a delete for anonymous callers only; trash and deletion are deletes for all', async () => {
    const drafted = await createEventAs(admin, { status: 'publish' })
    const trashed = await createEventAs(admin, { status: 'publish' })
    const deleted = await createEventAs(admin, { status: 'publish' })
    const anonymous = await now()
    const signedIn = await now(admin)
    expect(
      (
        await api(`/events/${drafted.id}`, {
          method: 'POST',
          token: admin,
          json: { status: 'draft' },
        })
      ).status,
    ).toBe(200)
    expect((await api(`/events/${trashed.id}`, { method: 'DELETE', token: admin })).status).toBe(
      200,
    )
    expect(
      (await call(`/api/events/${deleted.id}`, { method: 'DELETE', token: admin })).status,
    ).toBe(200)

    const seen = (await changesSince(anonymous)).changes
    expect(pick(seen, 'event', drafted.id).map((change) => change.action)).toEqual(['delete'])
    expect(pick(seen, 'event', trashed.id).map((change) => change.action)).toEqual(['delete'])
    expect(pick(seen, 'event', deleted.id).map((change) => change.action)).toEqual(['delete'])
    const admins = (await changesSince(signedIn, admin)).changes
    expect(pick(admins, 'event', drafted.id).map((change) => change.action)).toEqual(['upsert'])
    expect(pick(admins, 'event', trashed.id).map((change) => change.action)).toEqual(['delete'])
    expect(pick(admins, 'event', deleted.id).map((change) => change.action)).toEqual(['delete'])
  })

  it('pages by per_page and resumes from next_cursor without losing or repeating a change', async () => {
    const start = await now()
    const created = []
    for (let n = 0; n < 5; n++) created.push(await createEventAs(admin, { status: 'publish' }))
    const first = await api(`/changes?since=${start}&per_page=2`)
    expect(first.body.changes).toHaveLength(2)
    expect(first.body.has_more).toBe(true)
    const rest = await changesSince(first.body.next_cursor, undefined, 2)
    const ids = [...first.body.changes, ...rest.changes]
      .filter((change: Change) => change.type === 'event')
      .map((change: Change) => change.id)
    expect(ids).toEqual(created.map((event) => event.id))
    // Nothing new: the same position, and still nothing.
    expect((await changesSince(rest.cursor)).changes).toEqual([])
  })

  it('starts from the oldest change kept when since is omitted', async () => {
    // As an administrator, who hears every change: the lane's oldest may be a draft of another
    // file's, which anonymous callers never hear of (a page of none, with has_more).
    const reply = await api('/changes?per_page=1', { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body.changes).toHaveLength(1)
    expect(reply.body.has_more).toBe(true)
  })

  it('answers a cursor older than changesRetentionDays with a 410 rest_cursor_expired, and bad parameters with a 400', async () => {
    const [seq] = (await now()).split('.')
    const old = `${seq}.${Math.floor(Date.now() / 1000) - 31 * 86_400}`
    const expired = await api(`/changes?since=${old}`)
    expect(expired.status).toBe(410)
    expect(expired.body.code).toBe('rest_cursor_expired')
    expect(expired.body.data.status).toBe(410)
    for (const query of [
      'since=yesterday',
      'since=9999999999999999999.1796063990',
      'per_page=501',
      'per_page=0',
    ]) {
      const reply = await api(`/changes?${query}`)
      expect(reply.status, query).toBe(400)
      expect(reply.body.code).toBe('rest_invalid_param')
    }
  })

  it('answers a cursor it never handed out with a 410, one at the end of the log with nothing new, and one made by another door once its change is there', async () => {
    const end = await now()
    const [seq, issued] = end.split('.')
    // At the end, nothing new: a 200, as often as asked.
    for (let n = 0; n < 2; n++) {
      const reply = await api(`/changes?since=${end}`)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body.changes).toEqual([])
    }
    const hour = Math.floor(Date.now() / 3_600_000) * 3600
    for (const tampered of [
      `${BigInt(seq!) + 1000n}.${issued}`,
      '9223372036854775807.' + issued,
      `${seq}.${hour + 30 * 86_400}`,
    ]) {
      const reply = await api(`/changes?since=${tampered}`)
      expect(reply.status, tampered).toBe(410)
      expect(reply.body.code).toBe('rest_cursor_expired')
    }
    // A change this server never saw (hand-written SQL, as another instance's would be): a cursor at
    // it, handed out elsewhere, is good here.
    const event = await createEventAs(admin, { status: 'publish' })
    await db.query(`update events set updated_at = now() where id = $1`, [event.id])
    const [{ seq: latest }] = (
      await db.query<{ seq: string }>(`select max(seq)::text as seq from calendar_changes`)
    ).rows as [{ seq: string }]
    const there = await api(`/changes?since=${latest}.${issued}`)
    expect(there.status, JSON.stringify(there.body)).toBe(200)
    expect(there.body.changes).toEqual([])
  })

  it('forgets changes past the retention when its job runs, queued by a change of the setting', async () => {
    const event = await createEventAs(admin, { status: 'publish' })
    await db.query(
      `update calendar_changes set modified_utc = now() - interval '40 days' where type = 'event' and item_id = $1`,
      [event.id],
    )
    const previous = await changeSettings({ changesRetentionDays: 35 })
    try {
      expect((await call('/api/payload-jobs/run?queue=calendar', { token: admin })).status).toBe(
        200,
      )
      const { rows } = await db.query(
        `select 1 from calendar_changes where type = 'event' and item_id = $1`,
        [event.id],
      )
      expect(rows).toHaveLength(0)
    } finally {
      await restoreSettings(previous)
      await call('/api/payload-jobs/run?queue=calendar', { token: admin })
    }
  })

  it('is in the namespace index and in /doc', async () => {
    const index = await api('')
    expect(Object.keys(index.body.routes)).toContain('/cal/events/v1/changes')
    const doc = await api('/doc')
    expect(doc.body.paths['/changes']?.get).toBeDefined()
  })
})
