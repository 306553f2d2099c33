/**
 * Autosave (docs/api.md §21): an autosave (`draft`) keeps the editor's edits in a version and leaves
 * the item, what every door serves, as it was: no occurrences, no change in the feed, no new content
 * revision, no publication. Only those who may edit the item read its autosave; a save (from any
 * door) supersedes it.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, unique, userWithRole } from '../support/api'
import { testDatabase } from '../support/database'
import { api, createEventAs, createVenueAs, payloadDocs } from '../support/writeFixtures'

let admin: string
const db = testDatabase()

beforeAll(async () => {
  admin = await asAdmin()
})

/** What the admin's autosave sends: the edits, as a draft of the item. */
const autosave = (collection: string, id: number, data: Record<string, unknown>, token = admin) =>
  call(`/api/${collection}/${id}?draft=true&autosave=true&depth=0&locale=en`, {
    method: 'PATCH',
    token,
    json: { ...data, _status: 'draft' },
  })

/** A list whose window names its dates, so its ETag follows the content revision alone. */
const LIST = '/events?start_date=2000-01-01&end_date=2100-01-01&per_page=1'
const listTag = async () => (await api(LIST)).headers.get('ETag')

const changesOf = async (type: string, id: number, since: string) =>
  (
    (await api(`/changes?since=${since}&per_page=100`, { token: admin })).body.changes as {
      type: string
      id: number
    }[]
  ).filter((change) => change.type === type && change.id === id)

const payloadTitle = async (id: number, query: string, token?: string) =>
  (await call(`/api/events/${id}?depth=0&locale=en${query}`, { token })).body.title

describe('an autosave', () => {
  it('writes a version only: no occurrences, no change, no new revision, and every door serves the saved item', async () => {
    const event = await createEventAs(admin, { status: 'publish', title: unique('Saved title ') })
    const edited = unique('Autosaved title ')
    const since = (await api('/changes?since=now', { token: admin })).body.next_cursor as string
    const tag = await listTag()

    const saved = await autosave('events', event.id, {
      title: edited,
      recurrence: 'RRULE:FREQ=DAILY;COUNT=3',
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)

    expect(await payloadDocs('events', `where[parent][equals]=${event.id}`)).toEqual([])
    expect(await changesOf('event', event.id, since)).toEqual([])
    expect(await listTag()).toBe(tag)
    for (const token of [undefined, admin]) {
      const served = (await api(`/events/${event.id}`, { token })).body
      expect(served.title).toBe(event.title)
    }
    // The editor finds the edits again; Payload's REST and GraphQL give them to no one else.
    expect(await payloadTitle(event.id, '&draft=true', admin)).toBe(edited)
    expect(await payloadTitle(event.id, '&draft=true')).toBe(event.title)
    expect(await payloadTitle(event.id, '')).toBe(event.title)
    const author = await userWithRole('author')
    expect(await payloadTitle(event.id, '&draft=true', author.token)).toBe(event.title)
    const listed = await call(
      `/api/events?draft=true&where[id][equals]=${event.id}&depth=0&locale=en`,
      { token: admin },
    )
    expect(listed.body.docs.map((doc: { title: string }) => doc.title)).toEqual([event.title])
    const graphql = await call('/api/graphql', {
      method: 'POST',
      json: { query: `{ Event(id: ${event.id}, draft: true) { title } }` },
    })
    expect(graphql.body.data.Event.title, JSON.stringify(graphql.body)).toBe(event.title)
    const graphqlList = await call('/api/graphql', {
      method: 'POST',
      json: {
        query: `{ Events(draft: true, where: { id: { equals: ${event.id} } }) { docs { title } } }`,
      },
    })
    expect(graphqlList.body.data.Events.docs, JSON.stringify(graphqlList.body)).toEqual([
      { title: event.title },
    ])
  })

  it('never changes the status: a change of status waits for a save', async () => {
    const event = await createEventAs(admin, { status: 'publish' })
    const tag = await listTag()
    expect((await autosave('events', event.id, { status: 'trash' })).status).toBe(200)
    expect(
      (await call(`/api/events/${event.id}?draft=true&depth=0`, { token: admin })).body.status,
    ).toBe('publish')
    expect((await api(`/events/${event.id}`)).body.status).toBe('publish')
    expect(await listTag()).toBe(tag)
  })

  it('of a scheduled item publishes nothing and queues nothing', async () => {
    const event = await createEventAs(admin, { status: 'draft' })
    const queued = async (at: string) =>
      Number(
        (
          await db.query(
            `select count(*) from payload_jobs where task_slug = 'publishScheduled' and wait_until = $1`,
            [at],
          )
        ).rows[0].count,
      )
    // Due already: a save would publish it at once; far ahead: a save would queue its publication.
    for (const at of ['2020-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z']) {
      expect(
        (await autosave('events', event.id, { status: 'future', publishedAt: at })).status,
      ).toBe(200)
      expect((await call(`/api/events/${event.id}?depth=0`, { token: admin })).body.status).toBe(
        'draft',
      )
      expect((await api(`/events/${event.id}`)).status).toBe(403)
    }
    expect(await queued('2099-01-01T00:00:00.000Z')).toBe(0)
    const scheduled = await call(`/api/events/${event.id}?depth=0`, {
      method: 'PATCH',
      token: admin,
      json: { status: 'future', publishedAt: '2098-01-01T00:00:00.000Z' },
    })
    expect(scheduled.body.doc.status, JSON.stringify(scheduled.body)).toBe('future')
    expect(await queued('2098-01-01T00:00:00.000Z')).toBe(1)
  })

  it('is validated as a save is: it never holds an item the namespace could not serve', async () => {
    const event = await createEventAs(admin, { status: 'publish' })
    const emptied = await autosave('events', event.id, { title: '' })
    expect(emptied.status).toBe(400)
    const reversed = await autosave('events', event.id, {
      start: '2030-01-02T10:00:00.000Z',
      end: '2030-01-01T10:00:00.000Z',
    })
    expect(reversed.status).toBe(400)
    // A new item is created, never autosaved: without its title and dates there is nothing to create.
    const empty = await call('/api/events?draft=true&depth=0', {
      method: 'POST',
      token: admin,
      json: { _status: 'draft' },
    })
    expect(empty.status).toBe(400)
    expect(
      (await call(`/api/events/${event.id}?draft=true&depth=0&locale=en`, { token: admin })).body
        .title,
    ).toBe(event.title)
    expect((await api('/events?per_page=50', { token: admin })).status).toBe(200)
  })

  it('is superseded by a save from any door, and stays in the history', async () => {
    const event = await createEventAs(admin, { status: 'publish', title: unique('Kept title ') })
    const edited = unique('Autosaved only ')
    expect((await autosave('events', event.id, { title: edited })).status).toBe(200)
    // A write through the namespace starts from the saved item: the editor's autosave is not saved with it.
    expect(
      (
        await api(`/events/${event.id}`, {
          method: 'POST',
          token: admin,
          json: { excerpt: 'Changed elsewhere' },
        })
      ).status,
    ).toBe(200)
    const served = (await api(`/events/${event.id}`)).body
    expect(served.title).toBe(event.title)
    expect(served.excerpt).toContain('Changed elsewhere')
    expect(await payloadTitle(event.id, '&draft=true', admin)).toBe(event.title)
    const versions = await call(
      `/api/events/versions?where[parent][equals]=${event.id}&sort=-updatedAt&depth=0&locale=en`,
      { token: admin },
    )
    expect(
      versions.body.docs.map((entry: { version: { title: string } }) => entry.version.title),
    ).toContain(edited)
  })

  it('is saved by the admin’s Save (a write with `_status: published`): then every door serves it', async () => {
    const event = await createEventAs(admin, { status: 'publish' })
    const edited = unique('Saved at last ')
    const tag = await listTag()
    expect((await autosave('events', event.id, { title: edited })).status).toBe(200)
    const saved = await call(`/api/events/${event.id}?depth=0&locale=en`, {
      method: 'PATCH',
      token: admin,
      json: { title: edited, _status: 'published' },
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect((await api(`/events/${event.id}`)).body.title).toBe(edited)
    expect(await listTag()).not.toBe(tag)
  })

  it('of their own item is read back by its author', async () => {
    const author = await userWithRole('author')
    const event = await createEventAs(author.token, { status: 'publish' })
    const edited = unique('Author’s autosave ')
    expect((await autosave('events', event.id, { title: edited }, author.token)).status).toBe(200)
    expect(await payloadTitle(event.id, '&draft=true', author.token)).toBe(edited)
    expect((await api(`/events/${event.id}`)).body.title).toBe(event.title)
    const other = await userWithRole('author')
    expect(await payloadTitle(event.id, '&draft=true', other.token)).toBe(event.title)
  })

  it('of a venue leaves the venue as served', async () => {
    const venue = await createVenueAs(admin, { status: 'publish' })
    const since = (await api('/changes?since=now', { token: admin })).body.next_cursor as string
    expect((await autosave('venues', venue.id, { name: unique('Autosaved hall ') })).status).toBe(
      200,
    )
    expect((await api(`/venues/${venue.id}`)).body.venue).toBe(venue.venue)
    expect(await changesOf('venue', venue.id, since)).toEqual([])
  })
})
