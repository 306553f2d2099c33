/**
 * Confidentiality and permissions through every door (docs/api.md §2, §9, §18, §21): duplicates,
 * counts and sorts on withheld fields, contributors' private items, the anonymous change feed,
 * permission before the checks against stored data, and password reads (caching, throttling). Each
 * rule is checked through the namespace, Payload's REST and GraphQL where the door reaches it.
 */
import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { BASE_URL, call, type Reply, type TestUser, unique, everyRole } from '../support/api'
import { expectError, expectInvalidParam } from '../support/expectations'
import { createEvent, createOrganizer, createVenue } from '../support/fixtures'
import { api, createEventAs, payloadDocs } from '../support/writeFixtures'
import { failUntilWaitOf } from '../support/throttle'

const { admin, editor, author, contributor, subscriber } = await everyRole()

const graphql = (query: string, token?: string) =>
  call('/api/graphql', { method: 'POST', token, json: { query } })

const tomorrow = new Date(Date.now() + 86_400_000).toISOString()
const dayAfter = new Date(Date.now() + 2 * 86_400_000).toISOString()

describe('duplicating', () => {
  it('is refused to those who may not edit the original, through REST and GraphQL, and copies nothing', async () => {
    const secret = unique('secret-')
    const event = await createEvent({
      title: unique('Locked '),
      password: secret,
      website: `https://${secret}.example`,
    })
    // An editor's autosaved edits of it: a copy would carry them.
    const autosaved = await call(`/api/events/${event.id}?draft=true&autosave=true&depth=0`, {
      method: 'PATCH',
      token: editor.token,
      json: { title: `${secret} unsaved`, _status: 'draft' },
    })
    expect(autosaved.status, JSON.stringify(autosaved.body)).toBe(200)
    const venue = await createVenue({
      name: unique('Locked venue '),
      password: secret,
      city: secret,
    })
    const organizer = await createOrganizer({
      name: unique('Locked organizer '),
      password: secret,
      email: `${secret}@example.test`,
    })
    const others = await createEvent({ title: unique('Author’s own '), author: author.id })

    const attempts: [string, number, TestUser][] = [
      ['events', event.id, contributor],
      ['events', event.id, author],
      ['events', event.id, subscriber],
      ['venues', venue.id, contributor],
      ['organizers', organizer.id, contributor],
      ['events', others.id, contributor],
    ]
    for (const [collection, id, user] of attempts) {
      const reply = await call(`/api/${collection}/${id}/duplicate`, {
        method: 'POST',
        token: user.token,
        json: {},
      })
      expect(
        reply.status,
        `${user.role} duplicating ${collection} ${id}: ${JSON.stringify(reply.body)}`,
      ).toBe(403)
      expect(JSON.stringify(reply.body)).not.toContain(secret)
    }
    // GraphQL asks for the copy's required fields; the rest would come from the original.
    const mutation = await graphql(
      `mutation { duplicateEvent(id: ${event.id}, data: { title: "copy", start: "${tomorrow}", end: "${dayAfter}", status: draft }) { id title password website } }`,
      contributor.token,
    )
    expect(mutation.body.data?.duplicateEvent ?? null, JSON.stringify(mutation.body)).toBeNull()
    expect(mutation.body.errors?.[0]?.extensions?.statusCode, JSON.stringify(mutation.body)).toBe(
      403,
    )
    expect(JSON.stringify(mutation.body)).not.toContain(secret)
    const venueMutation = await graphql(
      `mutation { duplicateVenue(id: ${venue.id}, data: { name: "copy", status: draft }) { id city password } }`,
      contributor.token,
    )
    expect(
      venueMutation.body.data?.duplicateVenue ?? null,
      JSON.stringify(venueMutation.body),
    ).toBeNull()
    expect(
      venueMutation.body.errors?.[0]?.extensions?.statusCode,
      JSON.stringify(venueMutation.body),
    ).toBe(403)

    expect(
      await payloadDocs(
        'events',
        `where[author][equals]=${contributor.id}&where[title][like]=${secret}`,
      ),
    ).toEqual([])
    for (const user of [contributor, author, subscriber]) {
      expect(
        await payloadDocs(
          'events',
          `where[author][equals]=${user.id}&where[website][contains]=${secret}`,
        ),
      ).toEqual([])
      expect(
        await payloadDocs(
          'venues',
          `where[author][equals]=${user.id}&where[city][equals]=${secret}`,
        ),
      ).toEqual([])
      expect(
        await payloadDocs(
          'organizers',
          `where[author][equals]=${user.id}&where[email][contains]=${secret}`,
        ),
      ).toEqual([])
    }
  })

  it('is open to those who may edit the original: an author’s own protected event, a contributor’s own draft', async () => {
    const secret = unique('own-')
    const own = (
      await call('/api/events', {
        method: 'POST',
        token: author.token,
        json: {
          title: unique('Own '),
          start: tomorrow,
          end: dayAfter,
          status: 'publish',
          password: secret,
        },
      })
    ).body.doc
    const copy = await call(`/api/events/${own.id}/duplicate`, {
      method: 'POST',
      token: author.token,
      json: {},
    })
    expect(copy.status, JSON.stringify(copy.body)).toBe(200)
    expect(copy.body.doc).toMatchObject({ status: 'draft', password: secret })
    expect(copy.body.doc.id).not.toBe(own.id)

    const draft = (
      await call('/api/venues', {
        method: 'POST',
        token: contributor.token,
        json: { name: unique('Own venue '), status: 'draft' },
      })
    ).body.doc
    const mutation = await graphql(
      `mutation { duplicateVenue(id: ${draft.id}, data: { name: "${unique('Copy ')}", status: draft }) { id status } }`,
      contributor.token,
    )
    expect(mutation.body.data?.duplicateVenue?.status, JSON.stringify(mutation.body)).toBe('draft')
    expect(
      (await payloadDocs('venues', `where[id][equals]=${mutation.body.data.duplicateVenue.id}`))[0]
        .author,
    ).toBe(contributor.id)
  })
})

describe('queries on withheld fields', () => {
  let locked: { id: number }
  let open: { id: number }
  const hidden = unique('hidden')

  beforeAll(async () => {
    locked = await createEvent({
      title: unique('Counted '),
      password: unique('pw'),
      website: `https://${hidden}.example/a`,
    })
    open = await createEvent({ title: unique('Open '), website: `https://${hidden}.example/b` })
  })

  const guess = (id: number, text: string) =>
    `where[and][0][id][equals]=${id}&where[and][1][website][contains]=${text}`

  it('a REST count confirms nothing about a protected item, anonymous or signed in, and still counts open ones', async () => {
    for (const token of [undefined, subscriber.token, contributor.token]) {
      for (const text of [hidden, 'https', 'nothing-like-it']) {
        const reply = await call(`/api/events/count?${guess(locked.id, text)}`, { token })
        expect(reply.status).toBe(200)
        expect(reply.body.totalDocs, `${text} as ${token ? 'signed in' : 'anonymous'}`).toBe(0)
      }
      expect(
        (await call(`/api/events/count?${guess(open.id, hidden)}`, { token })).body.totalDocs,
      ).toBe(1)
    }
    expect(
      (await call(`/api/events/count?${guess(locked.id, hidden)}`, { token: editor.token })).body
        .totalDocs,
    ).toBe(1)
  })

  it('a GraphQL count and find confirm nothing either', async () => {
    const where = (id: number) =>
      `where: { AND: [{ id: { equals: ${id} } }, { website: { contains: "${hidden}" } }] }`
    const reply =
      await graphql(`{ locked: countEvents(${where(locked.id)}) { totalDocs } open: countEvents(${where(open.id)}) { totalDocs }
      found: Events(${where(locked.id)}) { totalDocs } }`)
    expect(reply.body.data, JSON.stringify(reply.body)).toEqual({
      locked: { totalDocs: 0 },
      open: { totalDocs: 1 },
      found: { totalDocs: 0 },
    })
  })

  it('a query through a relation into a protected item’s fields is refused to those who may not read them', async () => {
    const city = unique('city')
    const venue = await createVenue({ name: unique('Hidden venue '), password: unique('pw'), city })
    const event = await createEvent({ title: unique('At the hidden venue '), venue: venue.id })
    const path = `where[and][0][id][equals]=${event.id}&where[and][1][venue.city][equals]=${city}`
    for (const token of [undefined, contributor.token]) {
      expect((await call(`/api/events/count?${path}`, { token })).body.totalDocs ?? 0).toBe(0)
      expect((await call(`/api/events?${path}`, { token })).body.docs ?? []).toEqual([])
      expect(
        (await call(`/api/events?where[id][equals]=${event.id}&sort=venue.city`, { token })).status,
      ).toBe(403)
    }
    expect((await call(`/api/events/count?${path}`, { token: editor.token })).body.totalDocs).toBe(
      1,
    )
    // The linked item's id is the event's own field, not the venue's content.
    expect(
      (await call(`/api/events?where[venue.id][equals]=${venue.id}&depth=0`)).body.docs.map(
        (doc: { id: number }) => doc.id,
      ),
    ).toEqual([event.id])
  })

  it('a sort by a withheld field leaves protected items out, so their order tells nothing', async () => {
    for (const [path, token] of [
      [`/api/events?where[id][in]=${locked.id},${open.id}&sort=website&depth=0`, undefined],
      [
        `/api/events?where[id][in]=${locked.id},${open.id}&sort=-website&depth=0`,
        contributor.token,
      ],
    ] as const) {
      const reply = await call(path, { token })
      expect(
        reply.body.docs.map((doc: { id: number }) => doc.id),
        path,
      ).toEqual([open.id])
    }
    const sorted = await graphql(
      `{ Events(where: { OR: [{ id: { equals: ${locked.id} } }, { id: { equals: ${open.id} } }] }, sort: "website") { docs { id } } }`,
    )
    expect(sorted.body.data?.Events?.docs, JSON.stringify(sorted.body)).toEqual([{ id: open.id }])
  })
})

describe('a contributor asking for private', () => {
  it('is held as pending through the namespace, Payload’s REST and GraphQL, on create and on update', async () => {
    const namespace = await api('/events', {
      method: 'POST',
      token: contributor.token,
      json: {
        title: unique('ns '),
        start_date: '2031-01-01 10:00:00',
        end_date: '2031-01-01 11:00:00',
        status: 'private',
      },
    })
    expect(namespace.status, JSON.stringify(namespace.body)).toBe(201)
    expect(namespace.body.status).toBe('pending')

    const rest = await call('/api/venues', {
      method: 'POST',
      token: contributor.token,
      json: { name: unique('rest '), status: 'private' },
    })
    expect(rest.body.doc?.status, JSON.stringify(rest.body)).toBe('pending')

    const created = await graphql(
      `mutation { createEvent(data: { title: "${unique('gql ')}", start: "${tomorrow}", end: "${dayAfter}", status: private }) { id status } }`,
      contributor.token,
    )
    expect(created.body.data?.createEvent?.status, JSON.stringify(created.body)).toBe('pending')

    const draft = await createEventAs(contributor.token, { status: 'draft' })
    const patched = await call(`/api/events/${draft.id}`, {
      method: 'PATCH',
      token: contributor.token,
      json: { status: 'private' },
    })
    expect(patched.body.doc?.status, JSON.stringify(patched.body)).toBe('pending')
    const updated = await api(`/organizers`, {
      method: 'POST',
      token: contributor.token,
      json: { organizer: unique('org '), status: 'draft' },
    })
    const renamed = await api(`/organizers/${updated.body.id}`, {
      method: 'PATCH',
      token: contributor.token,
      json: { status: 'private' },
    })
    expect(renamed.body.status, JSON.stringify(renamed.body)).toBe('pending')
  })

  it('is private for an author, who may publish', async () => {
    const reply = await call('/api/events', {
      method: 'POST',
      token: author.token,
      json: { title: unique('private '), start: tomorrow, end: dayAfter, status: 'private' },
    })
    expect(reply.body.doc?.status, JSON.stringify(reply.body)).toBe('private')
  })
})

describe('the change feed', () => {
  type Change = { type: string; id: number; action: string }
  async function changesSince(cursor: string, token?: string): Promise<Change[]> {
    const changes: Change[] = []
    for (;;) {
      const reply = await api(`/changes?since=${cursor}&per_page=500`, { token })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      changes.push(...reply.body.changes)
      cursor = reply.body.next_cursor
      if (!reply.body.has_more) return changes
    }
  }

  it('tells anonymous readers only of items that were public at some time; editors hear of everything', async () => {
    const since = (await api('/changes?since=now')).body.next_cursor as string
    const deletedDraft = await createEventAs(admin, { status: 'draft' })
    const trashedPending = await createEventAs(admin, { status: 'pending' })
    const livingDraft = await createEventAs(admin, { status: 'draft' })
    const draftVenue = (
      await call('/api/venues', {
        method: 'POST',
        token: admin,
        json: { name: unique('Draft venue '), status: 'draft' },
      })
    ).body.doc
    const unpublished = await createEventAs(admin, { status: 'publish' })
    const deletedPublished = await createEventAs(admin, { status: 'publish' })
    expect(
      (await call(`/api/events/${deletedDraft.id}`, { method: 'DELETE', token: admin })).status,
    ).toBe(200)
    expect(
      (await api(`/events/${trashedPending.id}`, { method: 'DELETE', token: admin })).status,
    ).toBe(200)
    expect(
      (await call(`/api/venues/${draftVenue.id}`, { method: 'DELETE', token: admin })).status,
    ).toBe(200)
    expect(
      (
        await api(`/events/${unpublished.id}`, {
          method: 'PATCH',
          token: admin,
          json: { status: 'draft' },
        })
      ).status,
    ).toBe(200)
    expect(
      (await call(`/api/events/${deletedPublished.id}`, { method: 'DELETE', token: admin })).status,
    ).toBe(200)

    const key = (change: Change) => `${change.type}:${change.id}:${change.action}`
    // By kind and id: a venue and an event may have the same id.
    const ours = new Set([
      ...[deletedDraft, trashedPending, livingDraft, unpublished, deletedPublished].map(
        (event) => `event:${event.id}`,
      ),
      `venue:${draftVenue.id}`,
    ])
    const mine = (changes: Change[]) =>
      changes
        .filter((change) => ours.has(`${change.type}:${change.id}`))
        .map(key)
        .sort()
    for (const token of [undefined, subscriber.token, author.token]) {
      expect(mine(await changesSince(since, token))).toEqual(
        [`event:${deletedPublished.id}:delete`, `event:${unpublished.id}:delete`].sort(),
      )
    }
    expect(mine(await changesSince(since, editor.token))).toEqual(
      [
        `event:${deletedDraft.id}:delete`,
        `event:${trashedPending.id}:delete`,
        `event:${livingDraft.id}:upsert`,
        `venue:${draftVenue.id}:delete`,
        `event:${unpublished.id}:upsert`,
        `event:${deletedPublished.id}:delete`,
      ].sort(),
    )
  })
})

describe('permission before the checks against stored data', () => {
  it('answers 401 to anonymous callers whatever a slug, an author or an id names, and 400 to writers', async () => {
    const draft = await createEventAs(admin, { status: 'draft' })
    const target = await createEventAs(admin, { status: 'publish' })
    const adminId = (await call('/api/users/me', { token: admin })).body.user.id as number
    const bodies = [
      { slug: draft.slug },
      { slug: unique('no-such-slug-') },
      { author: 1_999_999_999 },
      { author: adminId },
      { venue: 1_999_999_999 },
    ]
    for (const json of bodies) {
      expectError(
        await api(`/events/${target.id}`, { method: 'PATCH', json }),
        401,
        'rest_forbidden',
      )
      expectError(
        await api(`/events/${target.id}`, { method: 'PATCH', token: subscriber.token, json }),
        403,
        'rest_forbidden',
      )
    }
    for (const slug of [draft.slug, unique('no-such-slug-')]) {
      expectError(
        await api(`/events/by-slug/${slug}`, { method: 'PATCH', json: { title: 'x' } }),
        401,
        'rest_forbidden',
      )
    }
    expectError(
      await api('/events', {
        method: 'POST',
        json: {
          title: 'x',
          start_date: '2031-01-01 10:00:00',
          end_date: '2031-01-01 11:00:00',
          author: 1_999_999_999,
        },
      }),
      401,
      'rest_forbidden',
    )
    expectError(
      await api('/venues/1999999999', { method: 'PATCH', json: { venue: 'x' } }),
      401,
      'rest_forbidden',
    )
    expectError(
      await api('/categories/1999999999', { method: 'PATCH', json: { description: 'x' } }),
      401,
      'rest_forbidden',
    )

    expectInvalidParam(
      await api(`/events/${target.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { slug: draft.slug },
      }),
      'slug',
    )
    expectInvalidParam(
      await api(`/events/${target.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { author: 1_999_999_999 },
      }),
      'author',
    )
    expectInvalidParam(
      await api('/venues/1999999999', {
        method: 'PATCH',
        token: editor.token,
        json: { venue: 'x' },
      }),
      'id',
    )
  })
})

describe('password reads', () => {
  it('sends an unlocked answer private, no-store, and keeps it from anonymous readers', async () => {
    const password = unique('pw')
    const event = await createEvent({
      title: unique('Unlocked '),
      password,
      website: `https://${password}.example`,
    })
    const unlocked = await api(`/events/${event.id}?password=${password}`)
    expect(unlocked.status).toBe(200)
    expect(unlocked.body.website).toBe(`https://${password}.example`)
    expect(unlocked.headers.get('Cache-Control')).toBe('private, no-store')
    const list = await api(
      `/events?password=${password}&search=${encodeURIComponent(String(event.title))}`,
    )
    expect(list.headers.get('Cache-Control')).toBe('private, no-store')
    const anonymous = await api(`/events/${event.id}`)
    expectError(anonymous, 403, 'event-password-protected')
    expect(anonymous.headers.get('Cache-Control')).not.toContain('public')
  })

  it('throttles wrong passwords per client and item with a 429 and Retry-After, the right one included, until the wait is over', async () => {
    const password = unique('pw')
    const website = `https://${password}.example/`
    const [event, other] = [
      await createEvent({ title: unique('Guessed '), password, website }),
      await createEvent({ title: unique('Other '), password }),
    ]
    const venue = await createVenue({ name: unique('Guessed venue '), password, city: password })
    for (let n = 1; n <= 5; n++)
      expectError(
        await api(`/events/${event.id}?password=wrong${n}`),
        403,
        'event-password-protected',
      )
    // Then refused; each wait sat out until one is long enough for the checks below to fall within it.
    const { wait } = await failUntilWaitOf(4, async (n) => {
      const wrong: Reply = await api(`/events/${event.id}?password=wrong${6 + n}`)
      if (wrong.status !== 429) {
        expectError(wrong, 403, 'event-password-protected')
        return 0
      }
      expectError(wrong, 429, 'rest_too_many_password_attempts')
      const retryAfter = Number(wrong.headers.get('Retry-After'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      return retryAfter
    })
    expectError(
      await api(`/events/${event.id}?password=${password}`),
      429,
      'rest_too_many_password_attempts',
    )
    // In a list the item stays locked, the right password not even compared.
    const listed = await api(`/events?include=${event.id}&password=${password}`)
    expect(listed.status).toBe(200)
    expect(
      listed.body.events.map((item: { id: number; website: string }) => [item.id, item.website]),
    ).toEqual([[event.id, '']])
    // Another item, and another client, are not held back.
    expect((await api(`/events/${other.id}?password=${password}`)).status).toBe(200)
    expect(
      (await api(`/events/${event.id}?password=${password}`, { token: subscriber.token })).status,
    ).toBe(200)

    for (let n = 1; n <= 5; n++)
      expect((await api(`/venues/${venue.id}?password=wrong${n}`)).body.city ?? '').toBe('')
    expectError(
      await api(`/venues/${venue.id}?password=${password}`),
      429,
      'rest_too_many_password_attempts',
    )

    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 200))
    const after = await api(`/events/${event.id}?password=${password}`)
    expect(after.status, JSON.stringify(after.body)).toBe(200)
    expect(after.body.website).toBe(website)
    // The right password cleared the failures: a slip afterwards is a 403 again, not a wait.
    expectError(await api(`/events/${event.id}?password=slip`), 403, 'event-password-protected')
  })
})

describe('selects, paths and bulk changes that would read around the protection', () => {
  const secret = unique('around-')
  let locked: { id: number }
  let venue: { id: number }
  let atVenue: { id: number }

  beforeAll(async () => {
    locked = await createEvent({
      title: unique('Selected '),
      password: unique('pw'),
      website: `https://${secret}.example`,
      meta: { description: `${secret} described` },
    })
    venue = await createVenue({
      name: unique('Selected venue '),
      password: unique('pw'),
      city: secret,
    })
    atVenue = await createEvent({ title: unique('At the selected venue '), venue: venue.id })
  })

  it('a select that leaves the password flag out withholds as much as one that names fields', async () => {
    for (const path of [
      `/api/events/${locked.id}?select[hasPassword]=false&depth=0`,
      `/api/events?where[id][equals]=${locked.id}&select[hasPassword]=false&select[author]=false&depth=0`,
    ]) {
      const reply = await call(path, { token: subscriber.token })
      const doc = reply.body.docs?.[0] ?? reply.body
      expect(reply.status, path).toBe(200)
      expect(doc.id, path).toBe(locked.id)
      expect(doc.website, path).toBeUndefined()
      expect(doc.meta?.description, path).toBeUndefined()
    }
    const venueRead = await call(`/api/venues/${venue.id}?select[hasPassword]=false`)
    expect(venueRead.body.city).toBeUndefined()
    const populated = await call(
      `/api/events/${atVenue.id}?populate[venues][hasPassword]=false&depth=1`,
    )
    expect(populated.body.venue.id).toBe(venue.id)
    expect(populated.body.venue.city).toBeUndefined()
    const overridden = await call(`/api/events/${locked.id}`, {
      method: 'POST',
      headers: { 'X-HTTP-Method-Override': 'GET' },
      form: { 'select[hasPassword]': 'false' },
    })
    expect(overridden.status).toBe(200)
    expect(overridden.body.website).toBeUndefined()
    // Those who may edit it read it whole, whatever they leave out.
    const edited = await call(`/api/events/${locked.id}?select[hasPassword]=false`, {
      token: editor.token,
    })
    expect(edited.body.website).toBe(`https://${secret}.example`)
  })

  it('a path spelt with `__` is held as one spelt with dots', async () => {
    const count = async (where: string, token?: string) =>
      (await call(`/api/events/count?${where}`, { token })).body.totalDocs ?? 0
    expect((await call(`/api/events/count?where[venue__city][like]=${secret}`)).status).toBe(403)
    expect(await count(`where[meta__description][like]=${secret}`)).toBe(0)
    expect(await count(`where[meta__description][like]=${secret}`, editor.token)).toBe(1)
    expect((await call(`/api/events?sort=venue__city&depth=0`)).status).toBe(403)
    const graph = await graphql(
      `{ countEvents(where: { meta__description: { like: "${secret}" } }) { totalDocs } }`,
    )
    expect(graph.body.data?.countEvents?.totalDocs ?? 0, JSON.stringify(graph.body)).toBe(0)
  })

  it('a bulk change selects by a linked item’s fields only for those who may read them', async () => {
    const own = await createEventAs(author.token, {
      title: unique('Own at the venue '),
      venue: venue.id,
    })
    const bulk = await call(`/api/events?where[venue.city][like]=${secret}&depth=0`, {
      method: 'PATCH',
      token: author.token,
      json: {},
    })
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(403)
    const dashed = await call(`/api/events?where[venue__city][like]=${secret}`, {
      method: 'DELETE',
      token: author.token,
    })
    expect(dashed.status).toBe(403)
    expect((await call(`/api/events/${own.id}`, { token: author.token })).status).toBe(200)
  })

  it('nobody but an administrator sorts or filters events by their authors’ accounts', async () => {
    for (const [sort, token] of [
      ['author.email', subscriber.token],
      ['-author.name', author.token],
      ['author.role', editor.token],
      ['author.hash', undefined],
      ['author__salt', undefined],
    ] as const) {
      const reply = await call(`/api/events?sort=${sort}&depth=0&limit=2`, { token })
      expect(reply.status, sort).toBe(403)
    }
    expect(
      (await call('/api/events/count?where[author.email][like]=a', { token: editor.token })).status,
    ).toBe(403)
    const graph = await graphql('{ Events(sort: "author.email") { docs { id } } }', author.token)
    expect(graph.body.data?.Events ?? null, JSON.stringify(graph.body)).toBeNull()
    expect((await call('/api/events?sort=author.email&limit=1', { token: admin })).status).toBe(200)
    expect((await call('/api/events?sort=author&depth=0&limit=1')).status).toBe(200)
  })

  it('nobody but an administrator sorts or filters by any link to an account: last editors, versions, GraphQL', async () => {
    const wrong: string[] = []
    for (const [path, token] of [
      ['/api/events?sort=editedBy.email', subscriber.token],
      ['/api/events?sort=-editedBy.role', contributor.token],
      ['/api/venues?sort=editedBy.email', author.token],
      ['/api/organizers?sort=editedBy__name', editor.token],
      ['/api/events?where[editedBy.email][like]=a', editor.token],
      ['/api/events/versions?sort=version.author.email', editor.token],
      ['/api/events/versions?sort=version.editedBy.email', editor.token],
      ['/api/payload-locked-documents?sort=user.value.email', editor.token],
      // One link further: an event's venue's last editor, an organizer's author, a parent's editor.
      ['/api/events?sort=venue.editedBy.email', editor.token],
      ['/api/events?sort=organizers.author.email', editor.token],
      ['/api/events?sort=parent__editedBy__role', editor.token],
      ['/api/events/versions?sort=version.venue.editedBy.email', editor.token],
    ] as const) {
      const reply = await call(`${path}&depth=0&limit=2`, { token })
      if (reply.status !== 403) wrong.push(`${path} → ${reply.status}`)
    }
    expect(wrong).toEqual([])
    const graph = await graphql('{ Events(sort: "editedBy.email") { docs { id } } }', author.token)
    expect(graph.body.data?.Events ?? null, JSON.stringify(graph.body)).toBeNull()
    // The link itself, and administrators' queries, are answered.
    for (const [path, token] of [
      ['/api/events?sort=editedBy', editor.token],
      ['/api/events?sort=venue.editedBy', editor.token],
      ['/api/events?where[editedBy][equals]=1', editor.token],
      ['/api/events/versions?sort=version.editedBy', editor.token],
      ['/api/events?sort=editedBy.email', admin],
      ['/api/events/versions?sort=version.author.email', admin],
    ] as const)
      expect((await call(`${path}&depth=0&limit=1`, { token })).status, path).toBe(200)
  })

  it('an author restores no version, through REST or GraphQL; an editor does', async () => {
    const own = await createEventAs(author.token, { title: unique('Restored ') })
    await call(`/api/events/${own.id}`, {
      method: 'PATCH',
      token: author.token,
      json: { title: unique('Retitled ') },
    })
    const versions = await call(
      `/api/events/versions?where[parent][equals]=${own.id}&sort=createdAt&depth=0`,
      { token: editor.token },
    )
    const first = versions.body.docs[0].id
    const refused = await call(`/api/events/versions/${first}`, {
      method: 'POST',
      token: author.token,
    })
    expect(refused.status, JSON.stringify(refused.body)).toBe(403)
    const graph = await graphql(
      `mutation { restoreVersionEvent(id: "${first}") { id } }`,
      author.token,
    )
    expect(graph.body.data?.restoreVersionEvent ?? null, JSON.stringify(graph.body)).toBeNull()
    const restored = await call(`/api/events/versions/${first}`, {
      method: 'POST',
      token: editor.token,
    })
    expect(restored.status, JSON.stringify(restored.body)).toBe(200)
  })
})

describe('the admin’s document locks', () => {
  const lock = (token: string | undefined, value: number, user = subscriber.id) =>
    call('/api/payload-locked-documents', {
      method: 'POST',
      token,
      json: {
        document: { relationTo: 'events', value },
        user: { relationTo: 'users', value: user },
      },
    })

  it('are made by nobody but administrators through the APIs, never in another’s name, and changed by their holder or an editor', async () => {
    const adminId = (await call('/api/users/me', { token: admin })).body.user.id as number
    const event = await createEventAs(author.token, { title: unique('Locked by nobody ') })
    for (const user of [subscriber, contributor, author, editor]) {
      expect((await lock(user.token, event.id)).status, user.role).toBe(403)
    }
    const graph = await graphql(
      `mutation { createPayloadLockedDocument(data: { globalSlug: "settings", user: { relationTo: users, value: ${adminId} } }) { id } }`,
      subscriber.token,
    )
    expect(graph.body.data?.createPayloadLockedDocument ?? null).toBeNull()
    // An editor can still save the author's event through Payload's REST.
    const saved = await call(`/api/events/${event.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { sticky: false },
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)

    const made = await lock(admin, event.id, editor.id)
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const held = made.body.doc
    expect(held.user.value.id ?? held.user.value).toBe(adminId)
    const seen = async (token: string) =>
      ((await call('/api/payload-locked-documents?depth=0', { token })).body.docs ?? []).map(
        (doc: { id: number }) => doc.id,
      )
    expect(await seen(subscriber.token)).not.toContain(held.id)
    expect(await seen(author.token)).toContain(held.id)
    for (const method of ['PATCH', 'DELETE'])
      expect(
        (
          await call(`/api/payload-locked-documents/${held.id}`, {
            method,
            token: author.token,
            json: { user: { relationTo: 'users', value: author.id } },
          })
        ).status,
        method,
      ).toBe(403)
    const taken = await call(`/api/payload-locked-documents/${held.id}?depth=0`, {
      method: 'PATCH',
      token: editor.token,
      json: { user: { relationTo: 'users', value: adminId } },
    })
    expect(taken.status, JSON.stringify(taken.body)).toBe(200)
    expect(taken.body.doc.user.value).toBe(editor.id)
    expect(
      (
        await call(`/api/payload-locked-documents/${held.id}`, {
          method: 'DELETE',
          token: editor.token,
        })
      ).status,
    ).toBe(200)
  })
})

describe('the admin’s document locks taken by its form state', () => {
  /** Payload's form state, which the admin asks for as a document changes: it takes the lock. */
  async function formState(token: string, target: Record<string, unknown>): Promise<number> {
    const manifest = JSON.parse(
      await readFile(
        new URL('../../.next/server/server-reference-manifest.json', import.meta.url),
        'utf8',
      ),
    ) as { node: Record<string, { filename: string }> }
    const action = Object.entries(manifest.node).find(
      ([, entry]) => entry.filename === 'src/app/(payload)/layout.tsx',
    )?.[0]
    const reply = await fetch(`${BASE_URL}/admin`, {
      method: 'POST',
      headers: {
        'Next-Action': action!,
        'Content-Type': 'text/plain;charset=UTF-8',
        Accept: 'text/x-component',
        Cookie: `payload-token=${token}`,
        // As the admin's page sends it: a cookie without it is not believed (Payload's CSRF rule).
        Origin: new URL(BASE_URL).origin,
      },
      body: JSON.stringify([
        {
          name: 'form-state',
          args: {
            ...target,
            operation: 'update',
            formState: {},
            returnLockStatus: true,
            updateLastEdited: true,
            docPermissions: { fields: true },
            docPreferences: { fields: {} },
            renderAllFields: false,
          },
        },
      ]),
    })
    await reply.arrayBuffer()
    return reply.status
  }
  const locks = async (where: string) =>
    (await call(`/api/payload-locked-documents?depth=0&${where}`, { token: admin })).body.docs as {
      id: number
      user: { value: number }
      document?: { value: number }
    }[]

  it('are taken only on items their holder may edit, and stay on the item they were taken on', async () => {
    const others = await createEventAs(admin, {
      title: unique('Not the contributor’s '),
      status: 'publish',
    })
    const own = await createEventAs(contributor.token, { title: unique('The contributor’s ') })
    expect(
      await formState(contributor.token, {
        collectionSlug: 'events',
        id: others.id,
        schemaPath: 'events',
      }),
    ).toBe(200)
    expect(
      await formState(contributor.token, { globalSlug: 'settings', schemaPath: 'settings' }),
    ).toBe(200)
    expect(await locks(`where[document.value][equals]=${others.id}`)).toEqual([])
    expect(
      (await locks('where[globalSlug][equals]=settings')).filter(
        (lock) => lock.user.value === contributor.id,
      ),
    ).toEqual([])
    const saved = await call(`/api/events/${others.id}`, {
      method: 'PATCH',
      token: admin,
      json: { sticky: false },
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)

    // Their own draft they lock, as the admin does while they edit it; the lock cannot be moved.
    expect(
      await formState(contributor.token, {
        collectionSlug: 'events',
        id: own.id,
        schemaPath: 'events',
      }),
    ).toBe(200)
    const [held] = await locks(`where[document.value][equals]=${own.id}`)
    expect(held?.user.value).toBe(contributor.id)
    const moved = await call(`/api/payload-locked-documents/${held!.id}?depth=0`, {
      method: 'PATCH',
      token: contributor.token,
      json: { document: { relationTo: 'events', value: others.id } },
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(moved.body.doc.document.value).toBe(own.id)
    expect(await locks(`where[document.value][equals]=${others.id}`)).toEqual([])
    await call(`/api/payload-locked-documents/${held!.id}`, { method: 'DELETE', token: admin })
  })
})

describe('unlocking accounts', () => {
  it('is for administrators: any other account is refused, whichever account it names', async () => {
    for (const user of [editor, author, contributor, subscriber]) {
      const reply = await call('/api/users/unlock', {
        method: 'POST',
        token: user.token,
        json: { email: editor.email },
      })
      expect([user.role, reply.status]).toEqual([user.role, 403])
    }
    const reply = await call('/api/users/unlock', {
      method: 'POST',
      token: admin,
      json: { email: editor.email },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  })
})
