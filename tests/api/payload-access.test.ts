/**
 * The capability matrix (docs/api.md §2) through Payload's own REST API: nothing the namespace forbids
 * can be done through /api/<collection> either.
 */
import { describe, expect, it } from 'vitest'
import { BASE_URL, call, unique, everyRole, uploadImage } from '../support/api'
import { graphql } from '../support/doors'

const tomorrow = new Date(Date.now() + 86_400_000).toISOString()
const dayAfter = new Date(Date.now() + 2 * 86_400_000).toISOString()

async function createEvent(token: string, data: Record<string, unknown>) {
  return call('/api/events', {
    method: 'POST',
    token,
    json: { start: tomorrow, end: dayAfter, ...data },
  })
}

const { admin, editor, author, contributor, subscriber } = await everyRole()

describe('reading events', () => {
  it('shows anonymous readers published events only, and hides a protected event’s content and password', async () => {
    const tag = unique('read')
    await createEvent(admin, {
      title: `${tag} published`,
      status: 'publish',
      website: 'https://a.example',
    })
    await createEvent(admin, { title: `${tag} draft`, status: 'draft' })
    await createEvent(admin, { title: `${tag} pending`, status: 'pending' })
    await createEvent(admin, { title: `${tag} trashed`, status: 'trash' })
    await createEvent(admin, {
      title: `${tag} locked`,
      status: 'publish',
      password: 'secret',
      website: 'https://locked.example',
      cost: ['10'],
      featured: true,
      ticketed: true,
    })

    const list = await call(`/api/events?where[title][like]=${tag}&sort=title&limit=50`)
    expect(list.status).toBe(200)
    const titles = list.body.docs.map((d: { title: string }) => d.title)
    expect(titles).toEqual([`${tag} locked`, `${tag} published`])
    const locked = list.body.docs.find((d: { title: string }) => d.title.endsWith('locked'))
    expect(locked.password).toBeUndefined()
    expect(locked.website).toBeUndefined()
    expect(locked.cost).toBeUndefined()
    // The flags the namespace answers null, as it does (docs/api.md §3.2); the times stay.
    expect([locked.featured, locked.ticketed, locked.hideFromListings]).toEqual([
      undefined,
      undefined,
      undefined,
    ])
    expect(typeof locked.allDay).toBe('boolean')
    const open = list.body.docs.find((d: { title: string }) => d.title.endsWith('published'))
    expect(open.website).toBe('https://a.example')
    // GraphQL withholds the same fields.
    const viaGraphql = await graphql(
      `{ Events(where: { title: { like: "${tag} locked" } }) { docs { title password website cost featured ticketed hideFromListings allDay } } }`,
    )
    expect(viaGraphql.body.data.Events.docs).toEqual([
      {
        title: `${tag} locked`,
        password: null,
        website: null,
        cost: null,
        featured: null,
        ticketed: null,
        hideFromListings: null,
        allDay: false,
      },
    ])

    const asEditor = await call(`/api/events?where[title][like]=${tag}&limit=50`, {
      token: editor.token,
    })
    expect(asEditor.body.totalDocs).toBe(5)
    const lockedForEditor = asEditor.body.docs.find((d: { title: string }) =>
      d.title.endsWith('locked'),
    )
    expect(lockedForEditor.password).toBe('secret')
    expect(lockedForEditor.website).toBe('https://locked.example')
    expect([lockedForEditor.featured, lockedForEditor.ticketed]).toEqual([true, true])
  })

  it('lets authors and contributors see their own unpublished events but not others’', async () => {
    const tag = unique('own')
    await createEvent(contributor.token, { title: `${tag} mine`, status: 'draft' })
    await createEvent(admin, { title: `${tag} theirs`, status: 'draft' })
    const reply = await call(`/api/events?where[title][like]=${tag}`, { token: contributor.token })
    expect(reply.body.docs.map((d: { title: string }) => d.title)).toEqual([`${tag} mine`])
  })
})

describe('caching', () => {
  it("marks every answer of Payload's REST and GraphQL private, no-store, signed in or not, and leaves media files as Payload sends them", async () => {
    const image = await uploadImage()
    const wrong: string[] = []
    for (const [path, token, init] of [
      ['/api/events?draft=true', author.token, {}],
      ['/api/events', undefined, {}],
      ['/api/events/versions?limit=1', editor.token, {}],
      ['/api/users/me', editor.token, {}],
      ['/api/globals/settings', undefined, {}],
      ['/api/events/99999999', undefined, {}],
      ['/api/events?where=notjson', undefined, {}],
      [
        '/api/graphql',
        editor.token,
        { method: 'POST', json: { query: '{ Events(draft: true) { docs { id } } }' } },
      ],
    ] as const) {
      const reply = await call(path, { token, ...init })
      const cacheControl = reply.headers.get('cache-control')
      if (cacheControl !== 'private, no-store')
        wrong.push(`${path} → ${reply.status} ${cacheControl}`)
    }
    expect(wrong).toEqual([])
    const file = await fetch(`${BASE_URL}${new URL(image.url, BASE_URL).pathname}`)
    expect(file.status).toBe(200)
    expect(file.headers.get('cache-control')).not.toBe('private, no-store')
  })
})

describe('writing events', () => {
  it('refuses anonymous and subscriber writes', async () => {
    expect((await createEvent('', { title: 'nope', status: 'publish' })).status).toBe(403)
    expect((await createEvent(subscriber.token, { title: 'nope', status: 'publish' })).status).toBe(
      403,
    )
  })

  it('scales a contributor’s publish back to pending and makes them the author', async () => {
    const reply = await createEvent(contributor.token, {
      title: unique('contrib'),
      status: 'publish',
      author: editor.id,
    })
    expect(reply.status).toBe(201)
    expect(reply.body.doc.status).toBe('pending')
    expect(reply.body.doc.author.id ?? reply.body.doc.author).toBe(contributor.id)
  })

  it('lets contributors edit their own drafts but not their published events nor others’', async () => {
    const own = (await createEvent(contributor.token, { title: unique('c'), status: 'draft' })).body
      .doc
    expect(
      (
        await call(`/api/events/${own.id}`, {
          method: 'PATCH',
          token: contributor.token,
          json: { title: 'renamed' },
        })
      ).status,
    ).toBe(200)
    await call(`/api/events/${own.id}`, {
      method: 'PATCH',
      token: admin,
      json: { status: 'publish' },
    })
    expect(
      (
        await call(`/api/events/${own.id}`, {
          method: 'PATCH',
          token: contributor.token,
          json: { title: 'again' },
        })
      ).status,
    ).toBe(403)
    const others = (await createEvent(admin, { title: unique('o'), status: 'draft' })).body.doc
    expect(
      (
        await call(`/api/events/${others.id}`, {
          method: 'PATCH',
          token: contributor.token,
          json: { title: 'x' },
        })
      ).status,
    ).toBe(403)
    expect(
      (await call(`/api/events/${others.id}`, { method: 'DELETE', token: contributor.token }))
        .status,
    ).toBe(403)
  })

  it('lets authors publish and edit their own events, not others’', async () => {
    const own = (await createEvent(author.token, { title: unique('a'), status: 'publish' })).body
      .doc
    expect(own.status).toBe('publish')
    expect(
      (
        await call(`/api/events/${own.id}`, {
          method: 'PATCH',
          token: author.token,
          json: { title: 'renamed' },
        })
      ).status,
    ).toBe(200)
    const others = (await createEvent(editor.token, { title: unique('e'), status: 'publish' })).body
      .doc
    expect(
      (
        await call(`/api/events/${others.id}`, {
          method: 'PATCH',
          token: author.token,
          json: { title: 'x' },
        })
      ).status,
    ).toBe(403)
  })

  it('lets editors edit anyone’s event', async () => {
    const others = (await createEvent(author.token, { title: unique('a'), status: 'draft' })).body
      .doc
    const reply = await call(`/api/events/${others.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { status: 'publish' },
    })
    expect(reply.status).toBe(200)
    expect(reply.body.doc.status).toBe('publish')
  })

  it('answers more simultaneous edits and deletions than the server has database connections, and keeps answering', async () => {
    // Each of these writes once held a pooled connection while waiting for another: from ten at once
    // (the default pool) the server stopped answering anything for good.
    const tag = unique('burst')
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, n) =>
        createEvent(admin, { title: `${tag} ${n}`, status: 'draft' }),
      ),
    )
    const ids = created.map((reply) => reply.body.doc.id as number)
    const edits = await Promise.all(
      ids.map((id) =>
        call(`/api/events/${id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { title: `${tag} edited ${id}`, status: 'publish' },
        }),
      ),
    )
    expect(edits.map((reply) => reply.status)).toEqual(ids.map(() => 200))
    const listed = await call(`/api/events?where[title][like]=${tag} edited&limit=50&depth=0`)
    expect(listed.body.docs.map((doc: { id: number }) => doc.id).sort()).toEqual([...ids].sort())
    const deletions = await Promise.all(
      ids.map((id) => call(`/api/events/${id}`, { method: 'DELETE', token: editor.token })),
    )
    expect(deletions.map((reply) => reply.status)).toEqual(ids.map(() => 200))
    expect(
      (await call(`/api/events?where[title][like]=${tag}&depth=0`, { token: admin })).body
        .totalDocs,
    ).toBe(0)
  })
})

describe('terms, users and settings', () => {
  it('lets only editors and administrators manage categories and tags', async () => {
    for (const user of [author, contributor, subscriber]) {
      expect(
        (
          await call('/api/event-categories', {
            method: 'POST',
            token: user.token,
            json: { name: unique('cat') },
          })
        ).status,
      ).toBe(403)
    }
    expect(
      (await call('/api/event-tags', { method: 'POST', json: { name: unique('tag') } })).status,
    ).toBe(403)
    expect(
      (
        await call('/api/event-tags', {
          method: 'POST',
          token: editor.token,
          json: { name: unique('tag') },
        })
      ).status,
    ).toBe(201)
  })

  it('lets only administrators create users or change roles', async () => {
    expect(
      (
        await call('/api/users', {
          method: 'POST',
          token: editor.token,
          json: { email: `${unique()}@x.test`, password: 'p4ssword!', role: 'editor' },
        })
      ).status,
    ).toBe(403)
    const promoted = await call(`/api/users/${subscriber.id}`, {
      method: 'PATCH',
      token: subscriber.token,
      json: { role: 'administrator' },
    })
    const me = await call(`/api/users/${subscriber.id}`, { token: admin })
    expect(promoted.status).toBeLessThan(500)
    expect(me.body.role).toBe('subscriber')
  })

  it('lets everyone read the settings and only administrators change them', async () => {
    expect((await call('/api/globals/settings')).body.postsPerPage).toBe(10)
    expect(
      (
        await call('/api/globals/settings', {
          method: 'POST',
          token: editor.token,
          json: { postsPerPage: 5 },
        })
      ).status,
    ).toBe(403)
    const changed = await call('/api/globals/settings', {
      method: 'POST',
      token: admin,
      json: { geolocRadiusKm: 30 },
    })
    expect(changed.status).toBe(200)
    expect((await call('/api/globals/settings')).body.geolocRadiusKm).toBe(30)
    await call('/api/globals/settings', {
      method: 'POST',
      token: admin,
      json: { geolocRadiusKm: 25 },
    })
    expect(
      (
        await call('/api/globals/settings', {
          method: 'POST',
          token: admin,
          json: { timezone: 'Mars/Olympus' },
        })
      ).status,
    ).toBe(400)
  })
})
