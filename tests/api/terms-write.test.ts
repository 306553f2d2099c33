/**
 * The write side of `/categories` and `/tags` (docs/api.md §2, §3.5, §8, §11; docs/api.md §2, §6.1, §11):
 * editors and administrators only, parameters checked before permission and stored data after, unique names, flat tags, partial
 * updates, and permanent deletion that events feel.
 */
import { describe, expect, it } from 'vitest'
import { BASE_URL, call, ROOT, unique, everyRole, NO_SUCH_ID } from '../support/api'
import { graphql } from '../support/doors'
import { expectError, expectInvalidParam, expectMissing } from '../support/expectations'
import { api, createEventAs, readEvent } from '../support/writeFixtures'

const { admin, editor, author, contributor, subscriber } = await everyRole()

const TAXONOMIES = [
  {
    route: 'categories',
    taxonomy: 'event_category',
    permalink: 'events/category',
    hierarchical: true,
  },
  { route: 'tags', taxonomy: 'event_tag', permalink: 'events/tag', hierarchical: false },
] as const

/** WordPress's `_links` of a term answered to someone who may manage terms. */
function managerLinks(route: string, id: number) {
  return {
    self: [
      {
        href: `${ROOT}/${route}/${id}`,
        targetHints: { allow: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
      },
    ],
    collection: [{ href: `${ROOT}/${route}` }],
  }
}

async function createTerm(route: string, token: string, data: Record<string, unknown> = {}) {
  const reply = await api(`/${route}`, {
    method: 'POST',
    token,
    json: { name: unique('Term '), ...data },
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

describe.each(TAXONOMIES)('/$route', ({ route, taxonomy, permalink, hierarchical }) => {
  const shape = hierarchical
    ? [
        'id',
        'count',
        'description',
        'name',
        'slug',
        'taxonomy',
        'parent',
        'meta',
        'url',
        'urls',
        '_links',
      ]
    : ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls', '_links']

  describe('create', () => {
    it('answers 201 with the term in the endpoint shape', async () => {
      const name = unique('Jazz ')
      const slug = unique('jazz-slug-')
      const reply = await api(`/${route}`, {
        method: 'POST',
        token: editor.token,
        json: { name, description: 'All that jazz', slug },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      expect(Object.keys(reply.body)).toEqual(shape)
      expect(reply.body).toEqual({
        _links: managerLinks(route, reply.body.id),
        id: reply.body.id,
        count: 0,
        description: 'All that jazz',
        url: `${BASE_URL}/${permalink}/${slug}/`,
        name,
        slug,
        taxonomy,
        ...(hierarchical ? { parent: 0 } : {}),
        meta: [],
        urls: { self: `${ROOT}/${route}/${reply.body.id}`, collection: `${ROOT}/${route}` },
      })
      const read = await api(`/${route}/${reply.body.id}`)
      expect(read.status).toBe(200)
      expect(read.body.name).toBe(name)
    })

    it('generates the slug from the name, and lets administrators create too', async () => {
      const name = unique('Folk Music ')
      const term = await createTerm(route, admin, { name })
      expect(term.slug).toBe(name.toLowerCase().replace(/ /g, '-'))
      expect(term.description).toBe('')
    })

    it('reads form-urlencoded and multipart bodies', async () => {
      const name = unique('Form term ')
      const form = await api(`/${route}`, {
        method: 'POST',
        token: editor.token,
        form: { name, description: 'from a form' },
      })
      expect(form.status).toBe(201)
      expect(form.body).toMatchObject({ name, description: 'from a form' })
      const multipart = new FormData()
      const other = unique('Multipart term ')
      multipart.append('name', other)
      const reply = await api(`/${route}`, { method: 'POST', token: editor.token, body: multipart })
      expect(reply.status).toBe(201)
      expect(reply.body.name).toBe(other)
    })

    it('requires a non-empty name', async () => {
      expectMissing(
        await api(`/${route}`, { method: 'POST', token: editor.token, json: { description: 'x' } }),
        ['name'],
      )
      expectInvalidParam(
        await api(`/${route}`, { method: 'POST', token: editor.token, json: { name: '' } }),
        'name',
      )
      expectInvalidParam(
        await api(`/${route}`, {
          method: 'POST',
          token: editor.token,
          json: { name: unique(), slug: '' },
        }),
        'slug',
      )
      expectError(
        await api(`/${route}`, {
          method: 'POST',
          token: editor.token,
          body: '{"name":',
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
        'rest_invalid_json',
      )
    })

    it('refuses a name already used in the taxonomy with term_exists and the existing id', async () => {
      const existing = await createTerm(route, editor.token)
      for (const name of [existing.name, existing.name.toUpperCase()]) {
        const reply = await api(`/${route}`, {
          method: 'POST',
          token: editor.token,
          json: { name },
        })
        expectError(reply, 400, 'term_exists')
        expect(reply.body.data.term_id).toBe(existing.id)
      }
    })

    it('refuses a name again whose letters ICU and the database lower differently (İ, a final Σ)', async () => {
      for (const name of [unique('İzmir '), `${unique('ΧΟΡΟΣ ')} ΧΟΡΟΣ`]) {
        const existing = await createTerm(route, editor.token, { name })
        for (const again of [name, name.toUpperCase()]) {
          const reply = await api(`/${route}`, {
            method: 'POST',
            token: editor.token,
            json: { name: again },
          })
          expectError(reply, 400, 'term_exists')
          expect(reply.body.data.term_id).toBe(existing.id)
        }
      }
    })

    it('lets a category and a tag share a name', async () => {
      const name = unique('Shared ')
      const other = route === 'categories' ? 'tags' : 'categories'
      await createTerm(other, editor.token, { name })
      expect((await createTerm(route, editor.token, { name })).name).toBe(name)
    })

    it('lets only editors and administrators create, after validation', async () => {
      const name = unique('Refused ')
      for (const user of [author, contributor, subscriber]) {
        expectError(
          await api(`/${route}`, { method: 'POST', token: user.token, json: { name } }),
          403,
          'rest_forbidden',
        )
      }
      expectError(await api(`/${route}`, { method: 'POST', json: { name } }), 401, 'rest_forbidden')
      expectMissing(await api(`/${route}`, { method: 'POST', json: {} }), ['name'])
      expectMissing(await api(`/${route}`, { method: 'POST', token: subscriber.token, json: {} }), [
        'name',
      ])
      const search = await api(`/${route}?search=${encodeURIComponent(name)}&hide_empty=false`)
      expect(search.body[route]).toEqual([])
    })
  })

  describe('update', () => {
    it('is partial, through POST, PUT and PATCH', async () => {
      const term = await createTerm(route, editor.token, { description: 'Before' })
      const described = await api(`/${route}/${term.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { description: 'After' },
      })
      expect(described.status).toBe(200)
      expect(described.body).toEqual({ ...term, description: 'After' })
      expect(Object.keys(described.body)).toEqual(shape)
      expect(described.body._links).toEqual(managerLinks(route, term.id))

      const name = unique('Renamed ')
      const renamed = await api(`/${route}/${term.id}`, {
        method: 'PUT',
        token: editor.token,
        json: { name },
      })
      expect(renamed.status).toBe(200)
      expect(renamed.body).toMatchObject({
        id: term.id,
        name,
        slug: term.slug,
        description: 'After',
      })

      const reslugged = await api(`/${route}/${term.id}`, {
        method: 'POST',
        token: admin,
        form: { slug: `${term.slug}-new` },
      })
      expect(reslugged.status).toBe(200)
      expect(reslugged.body).toMatchObject({
        name,
        slug: `${term.slug}-new`,
        url: `${BASE_URL}/${permalink}/${term.slug}-new/`,
      })
      expect(renamed.body._links).toEqual(managerLinks(route, term.id))
      expect(reslugged.body._links).toEqual(managerLinks(route, term.id))

      const cleared = await api(`/${route}/${term.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { description: '' },
      })
      expect(cleared.body.description).toBe('')
    })

    it('refuses renaming to a name another term has', async () => {
      const [first, second] = [
        await createTerm(route, editor.token),
        await createTerm(route, editor.token),
      ]
      const reply = await api(`/${route}/${second.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { name: first.name },
      })
      expectError(reply, 400, 'term_exists')
      expect(reply.body.data.term_id).toBe(first.id)
      // Its own name is no clash.
      expect(
        (
          await api(`/${route}/${second.id}`, {
            method: 'PATCH',
            token: editor.token,
            json: { name: second.name },
          })
        ).status,
      ).toBe(200)
    })

    it('writes the French name with i18n_language=fr and leaves the English one', async () => {
      const term = await createTerm(route, editor.token)
      const reply = await api(`/${route}/${term.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { i18n_language: 'fr', name: `Fr ${term.name}` },
      })
      expect(reply.status).toBe(200)
      expect(reply.body.name).toBe(`Fr ${term.name}`)
      expect((await api(`/${route}/${term.id}`)).body.name).toBe(term.name)
      expect((await api(`/${route}/${term.id}?i18n_language=fr`)).body.name).toBe(`Fr ${term.name}`)
    })

    it('updates the description in French without requiring a French name first', async () => {
      const term = await createTerm(route, editor.token)
      const reply = await api(`/${route}/${term.id}?i18n_language=fr`, {
        method: 'PATCH',
        token: editor.token,
        json: { description: 'En français' },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body).toMatchObject({ name: term.name, description: 'En français' })
      expect((await api(`/${route}/${term.id}`)).body.description).toBe('')
    })

    it('answers 400 for an unknown id only to those who may write terms', async () => {
      expectError(
        await api(`/${route}/${NO_SUCH_ID}`, { method: 'PATCH', json: { description: 'x' } }),
        401,
        'rest_forbidden',
      )
      for (const user of [subscriber, author]) {
        expectError(
          await api(`/${route}/${NO_SUCH_ID}`, {
            method: 'PATCH',
            token: user.token,
            json: { description: 'x' },
          }),
          403,
          'rest_forbidden',
        )
      }
      expectInvalidParam(
        await api(`/${route}/${NO_SUCH_ID}`, {
          method: 'PATCH',
          token: editor.token,
          json: { description: 'x' },
        }),
        'id',
      )
    })

    it('lets only editors and administrators update', async () => {
      const term = await createTerm(route, editor.token)
      for (const user of [author, contributor, subscriber]) {
        for (const method of ['POST', 'PUT', 'PATCH']) {
          expectError(
            await api(`/${route}/${term.id}`, {
              method,
              token: user.token,
              json: { description: 'x' },
            }),
            403,
            'rest_forbidden',
          )
        }
      }
      expectError(
        await api(`/${route}/${term.id}`, { method: 'PATCH', json: { description: 'x' } }),
        401,
        'rest_forbidden',
      )
      expectInvalidParam(
        await api(`/${route}/${term.id}`, { method: 'PATCH', json: { name: '' } }),
        'name',
      )
      expect(
        (
          await api(`/${route}/${term.id}`, {
            method: 'PATCH',
            token: admin,
            json: { description: 'admin' },
          })
        ).body.description,
      ).toBe('admin')
      expect((await api(`/${route}/${term.id}`)).body.description).toBe('admin')
    })
  })

  describe('delete', () => {
    it('deletes for good, answering the deleted term; events lose it', async () => {
      const [doomed, kept] = [
        await createTerm(route, editor.token),
        await createTerm(route, editor.token),
      ]
      const event = await createEventAs(editor.token, { [route]: [doomed.id, kept.id] })
      expect(event[route].map((term: { id: number }) => term.id).sort()).toEqual(
        [doomed.id, kept.id].sort(),
      )
      const before = (await api(`/${route}/${doomed.id}`)).body
      expect(before.count).toBe(1)

      const reply = await api(`/${route}/${doomed.id}`, { method: 'DELETE', token: editor.token })
      expect(reply.status).toBe(200)
      const { _links: _, ...expected } = before
      expect(reply.body).toEqual(expected)

      expectInvalidParam(await api(`/${route}/${doomed.id}`), 'id')
      expectInvalidParam(
        await api(`/${route}/${doomed.id}`, { method: 'DELETE', token: editor.token }),
        'id',
      )
      expect((await readEvent(event.id))[route].map((term: { id: number }) => term.id)).toEqual([
        kept.id,
      ])
      const list = await api(`/${route}?include=${kept.id}&hide_empty=false`)
      expect(list.body[route].map((term: { id: number }) => term.id)).toEqual([kept.id])
    })

    it('ignores force: a delete is always permanent', async () => {
      const term = await createTerm(route, admin)
      expect(
        (await api(`/${route}/${term.id}?force=false`, { method: 'DELETE', token: admin })).status,
      ).toBe(200)
      expectInvalidParam(await api(`/${route}/${term.id}`), 'id')
    })

    it('lets only editors and administrators delete, after validation', async () => {
      const term = await createTerm(route, editor.token)
      for (const user of [author, contributor, subscriber]) {
        expectError(
          await api(`/${route}/${term.id}`, { method: 'DELETE', token: user.token }),
          403,
          'rest_forbidden',
        )
      }
      expectError(await api(`/${route}/${term.id}`, { method: 'DELETE' }), 401, 'rest_forbidden')
      expect((await api(`/${route}/${term.id}`)).status).toBe(200)
      expectError(await api(`/${route}/${NO_SUCH_ID}`, { method: 'DELETE' }), 401, 'rest_forbidden')
      expectError(
        await api(`/${route}/${NO_SUCH_ID}`, { method: 'DELETE', token: author.token }),
        403,
        'rest_forbidden',
      )
      expectInvalidParam(
        await api(`/${route}/${NO_SUCH_ID}`, { method: 'DELETE', token: editor.token }),
        'id',
      )
    })
  })
})

describe('category parents', () => {
  it('links an existing parent and shows it in parent and urls.up', async () => {
    const parent = await createTerm('categories', editor.token)
    const child = await createTerm('categories', editor.token, { parent: parent.id })
    expect(child.parent).toBe(parent.id)
    expect(child.urls).toEqual({
      self: `${ROOT}/categories/${child.id}`,
      collection: `${ROOT}/categories`,
      up: `${ROOT}/categories/${parent.id}`,
    })
    expect(child.url).toBe(`${BASE_URL}/events/category/${parent.slug}/${child.slug}/`)
    expect(child._links).toEqual({
      ...managerLinks('categories', child.id),
      up: [{ href: `${ROOT}/categories/${parent.id}`, embeddable: true }],
    })
    const listed = await api(`/categories?parent=${parent.id}&hide_empty=false`)
    expect(listed.body.categories.map((term: { id: number }) => term.id)).toEqual([child.id])

    const detached = await api(`/categories/${child.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { parent: 0 },
    })
    expect(detached.status).toBe(200)
    expect(detached.body.parent).toBe(0)
    expect(detached.body.urls).not.toHaveProperty('up')
    expect(detached.body._links).not.toHaveProperty('up')
    expect(detached.body.url).toBe(`${BASE_URL}/events/category/${child.slug}/`)
  })

  it('keeps the parent when it is not sent', async () => {
    const parent = await createTerm('categories', editor.token)
    const child = await createTerm('categories', editor.token, { parent: String(parent.id) })
    const reply = await api(`/categories/${child.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { description: 'x' },
    })
    expect(reply.body.parent).toBe(parent.id)
  })

  it('refuses a parent that does not exist, and a category as its own parent', async () => {
    const name = unique('Orphan ')
    expectInvalidParam(
      await api('/categories', {
        method: 'POST',
        token: editor.token,
        json: { name, parent: NO_SUCH_ID },
      }),
      'parent',
    )
    expectError(
      await api('/categories', { method: 'POST', json: { name, parent: NO_SUCH_ID } }),
      401,
      'rest_forbidden',
    )
    expectInvalidParam(
      await api('/categories', {
        method: 'POST',
        token: editor.token,
        json: { name, parent: 'music' },
      }),
      'parent',
    )
    const term = await createTerm('categories', editor.token)
    expectInvalidParam(
      await api(`/categories/${term.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { parent: term.id },
      }),
      'parent',
    )
    expectInvalidParam(
      await api(`/categories/${term.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { parent: NO_SUCH_ID },
      }),
      'parent',
    )
    const search = await api(`/categories?search=${encodeURIComponent(name)}&hide_empty=false`)
    expect(search.body.categories).toEqual([])
  })

  it('allows the same name under another parent, and refuses it under the same parent (WordPress core)', async () => {
    const [music, dance] = [
      await createTerm('categories', editor.token),
      await createTerm('categories', editor.token),
    ]
    const name = unique('Jazz ')
    const first = await createTerm('categories', editor.token, { name, parent: music.id })
    const same = await api('/categories', {
      method: 'POST',
      token: editor.token,
      json: { name, parent: music.id },
    })
    expectError(same, 400, 'term_exists')
    expect(same.body.data.term_id).toBe(first.id)
    const other = await api('/categories', {
      method: 'POST',
      token: editor.token,
      json: { name, parent: dance.id },
    })
    expect(other.status, JSON.stringify(other.body)).toBe(201)
    expect(other.body).toMatchObject({ name, parent: dance.id })
    expect(other.body.slug).not.toBe(first.slug)
  })

  it('creates a term in French and serves it in English with a string name', async () => {
    const name = unique('Fête ')
    const reply = await api('/categories', {
      method: 'POST',
      token: editor.token,
      json: { i18n_language: 'fr', name },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.name).toBe(name)
    const english = await api(`/categories/${reply.body.id}`)
    expect(english.status).toBe(200)
    expect(typeof english.body.name).toBe('string')
    expect(typeof english.body.slug).toBe('string')
  })

  it('never lets two categories be each other’s parent', async () => {
    const top = await createTerm('categories', editor.token)
    const child = await createTerm('categories', editor.token, { parent: top.id })
    const reply = await api(`/categories/${top.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { parent: child.id },
    })
    expect(reply.status).toBeLessThan(500)
    const [topNow, childNow] = [
      (await api(`/categories/${top.id}`)).body,
      (await api(`/categories/${child.id}`)).body,
    ]
    expect(
      topNow.parent === child.id && childNow.parent === top.id,
      JSON.stringify([topNow, childNow]),
    ).toBe(false)
  })

  it('gives the children of a deleted category its parent (WordPress core), never a parent that is gone', async () => {
    const grandparent = await createTerm('categories', editor.token)
    const parent = await createTerm('categories', editor.token, { parent: grandparent.id })
    const child = await createTerm('categories', editor.token, { parent: parent.id })
    expect(
      (await api(`/categories/${parent.id}`, { method: 'DELETE', token: editor.token })).status,
    ).toBe(200)
    const after = await api(`/categories/${child.id}`)
    expect(after.status).toBe(200)
    expect(after.body.parent).toBe(grandparent.id)
    expect(after.body.urls.up).toBe(`${ROOT}/categories/${grandparent.id}`)
  })

  it('moves the children of a category deleted through Payload REST, in bulk or GraphQL up to its parent too', async () => {
    const doors: Record<string, (id: number) => Promise<{ status: number; body: any }>> = {
      'Payload REST': (id) =>
        call(`/api/event-categories/${id}`, { method: 'DELETE', token: editor.token }),
      'a bulk delete': (id) =>
        call(`/api/event-categories?where[id][equals]=${id}`, {
          method: 'DELETE',
          token: editor.token,
        }),
      GraphQL: (id) => graphql(`mutation { deleteEventCategory(id: ${id}) { id } }`, editor.token),
    }
    for (const [door, remove] of Object.entries(doors)) {
      const grandparent = await createTerm('categories', editor.token)
      const parent = await createTerm('categories', editor.token, { parent: grandparent.id })
      const child = await createTerm('categories', editor.token, { parent: parent.id })
      const reply = await remove(parent.id)
      expect(reply.status, `${door}: ${JSON.stringify(reply.body)}`).toBe(200)
      expect(reply.body.errors ?? [], door).toEqual([])
      expect((await api(`/categories/${parent.id}`)).status, door).toBe(400)
      expect((await api(`/categories/${child.id}`)).body.parent, door).toBe(grandparent.id)
    }
  })

  it('moves what stays of a subtree deleted in bulk to its nearest ancestor that stays, and deletes no more than asked', async () => {
    const parentOf = async (id: number) => (await api(`/categories/${id}`)).body.parent
    for (let round = 0; round < 3; round++) {
      const top = await createTerm('categories', editor.token)
      const middle = await createTerm('categories', editor.token, { parent: top.id })
      const lower = await createTerm('categories', editor.token, { parent: middle.id })
      const [sibling, leaf] = [
        await createTerm('categories', editor.token, { parent: middle.id }),
        await createTerm('categories', editor.token, { parent: lower.id }),
      ]
      const reply = await call(`/api/event-categories?where[id][in]=${middle.id},${lower.id}`, {
        method: 'DELETE',
        token: editor.token,
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body.docs.map((doc: { id: number }) => doc.id).sort()).toEqual(
        [middle.id, lower.id].sort(),
      )
      expect([await parentOf(sibling.id), await parentOf(leaf.id)], `round ${round}`).toEqual([
        top.id,
        top.id,
      ])
      // Asked by their parent, a category's children go; their own children, moved up, stay.
      const child = await createTerm('categories', editor.token, { parent: top.id })
      const grandchild = await createTerm('categories', editor.token, { parent: child.id })
      const byParent = await call(`/api/event-categories?where[parent][equals]=${top.id}`, {
        method: 'DELETE',
        token: editor.token,
      })
      expect(byParent.status, JSON.stringify(byParent.body)).toBe(200)
      expect(byParent.body.docs.map((doc: { id: number }) => doc.id).sort()).toEqual(
        [sibling.id, leaf.id, child.id].sort(),
      )
      expect(await parentOf(grandchild.id)).toBe(top.id)
    }
  })

  it('refuses a name its siblings have through Payload REST, in bulk, GraphQL and a French create, and names a duplicate apart', async () => {
    const doors = [
      { route: 'categories', collection: 'event-categories', type: 'EventCategory' },
      { route: 'tags', collection: 'event-tags', type: 'EventTag' },
    ] as const
    for (const { route, collection, type } of doors) {
      const first = await createTerm(route, editor.token)
      const second = await createTerm(route, editor.token)
      const named = async (name: string) =>
        (
          (await api(`/${route}?search=${encodeURIComponent(name)}&hide_empty=false&per_page=100`))
            .body[route] as { name: string }[]
        ).filter((term) => term.name.toLowerCase() === name.toLowerCase()).length
      const writes = {
        'Payload REST create': () =>
          call(`/api/${collection}`, {
            method: 'POST',
            token: editor.token,
            json: { name: `\u00a0${first.name.toUpperCase()}\t` },
          }),
        'Payload REST rename': () =>
          call(`/api/${collection}/${second.id}`, {
            method: 'PATCH',
            token: editor.token,
            json: { name: first.name },
          }),
        'a bulk rename': () =>
          call(`/api/${collection}?where[id][equals]=${second.id}`, {
            method: 'PATCH',
            token: editor.token,
            json: { name: first.name },
          }),
        GraphQL: () =>
          graphql(
            `mutation { create${type}(data: { name: ${JSON.stringify(first.name)} }) { id } }`,
            editor.token,
          ),
      }
      for (const [door, write] of Object.entries(writes)) {
        const reply = await write()
        const label = `${route}, ${door}: ${JSON.stringify(reply.body)}`
        // Payload's bulk answer names the field an item failed on, not the field's message.
        expect(JSON.stringify(reply.body), label).toContain(
          door === 'a bulk rename' ? 'invalid: name' : 'already exists with this parent',
        )
        if (door !== 'GraphQL') expect(reply.status, label).toBe(400)
        expect(await named(first.name), label).toBe(1)
      }
      // Made in French, the name becomes the default language's too: it must be free there as well.
      const french = await api(`/${route}`, {
        method: 'POST',
        token: editor.token,
        json: { i18n_language: 'fr', name: first.name },
      })
      expectError(french, 400, 'term_exists')
      expect(french.body.data.term_id).toBe(first.id)
      const copy = await call(`/api/${collection}/${first.id}/duplicate`, {
        method: 'POST',
        token: editor.token,
      })
      expect(copy.status, JSON.stringify(copy.body)).toBe(200)
      expect(copy.body.doc.name).toBe(`${first.name} - Copy`)
      // A second copy is numbered past the first, as a third past both.
      for (const number of [2, 3]) {
        const again = await call(`/api/${collection}/${first.id}/duplicate`, {
          method: 'POST',
          token: editor.token,
        })
        expect(again.status, JSON.stringify(again.body)).toBe(200)
        expect(again.body.doc.name).toBe(`${first.name} - Copy ${number}`)
      }
      expect((await api(`/${route}/${second.id}`)).body.name).toBe(second.name)
    }
  })

  it('refuses a bulk edit that would give two of its terms one name among the same siblings', async () => {
    const [a, b] = [await createTerm('tags', editor.token), await createTerm('tags', editor.token)]
    const name = unique('Rock ')
    const renamed = await call(`/api/event-tags?where[id][in]=${a.id},${b.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { name },
    })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(400)
    expect([
      (await api(`/tags/${a.id}`)).body.name,
      (await api(`/tags/${b.id}`)).body.name,
    ]).toEqual([a.name, b.name])
    const [left, right] = [
      await createTerm('categories', editor.token),
      await createTerm('categories', editor.token),
    ]
    const twin = unique('Twin ')
    const first = await createTerm('categories', editor.token, { name: twin, parent: left.id })
    const second = await createTerm('categories', editor.token, { name: twin, parent: right.id })
    const moved = await call(`/api/event-categories?where[id][in]=${first.id},${second.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { parent: null },
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(400)
    expect((await api(`/categories/${first.id}`)).body.parent).toBe(left.id)
    expect((await api(`/categories/${second.id}`)).body.parent).toBe(right.id)
  })

  it('links an event to the term a name differing in case names, or that only English has', async () => {
    const tag = await createTerm('tags', editor.token)
    const category = await createTerm('categories', editor.token)
    const event = await createEventAs(editor.token, {
      tags: [tag.name.toUpperCase()],
      categories: [category.name],
      i18n_language: 'fr',
    })
    expect((await readEvent(event.id)).tags.map((term: { id: number }) => term.id)).toEqual([
      tag.id,
    ])
    expect((await readEvent(event.id)).categories.map((term: { id: number }) => term.id)).toEqual([
      category.id,
    ])
  })

  it('leaves the French name of an untranslated term to its English one when only its description changes', async () => {
    const [first, second] = [
      await createTerm('tags', editor.token),
      await createTerm('tags', editor.token),
    ]
    // The second's French name is the first's English one: French readers see the first under it too.
    expect(
      (
        await api(`/tags/${second.id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { i18n_language: 'fr', name: first.name },
        })
      ).status,
    ).toBe(200)
    const described = await api(`/tags/${first.id}?i18n_language=fr`, {
      method: 'PATCH',
      token: editor.token,
      json: { description: 'Seulement la description' },
    })
    expect(described.status, JSON.stringify(described.body)).toBe(200)
  })

  it('refuses moving a category beside one of its name, and keeps the names of children a delete moves up', async () => {
    const [top, parent] = [
      await createTerm('categories', editor.token),
      await createTerm('categories', editor.token),
    ]
    const name = unique('Twin ')
    const above = await createTerm('categories', editor.token, { name, parent: top.id })
    const below = await createTerm('categories', editor.token, { name, parent: parent.id })
    for (const move of [
      () =>
        api(`/categories/${below.id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { parent: top.id },
        }),
      () =>
        call(`/api/event-categories/${below.id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { parent: top.id },
        }),
    ]) {
      const reply = await move()
      expect(reply.status, JSON.stringify(reply.body)).toBe(400)
      expect(JSON.stringify(reply.body)).toContain('already exists with this parent')
      expect((await api(`/categories/${below.id}`)).body.parent).toBe(parent.id)
    }
    // Moved up by its parent's delete into a sibling of its name (top is parent's parent now), it keeps its name, as in WordPress.
    expect(
      (
        await call(`/api/event-categories/${parent.id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { parent: top.id },
        })
      ).status,
    ).toBe(200)
    const removed = await call(`/api/event-categories/${parent.id}`, {
      method: 'DELETE',
      token: editor.token,
    })
    expect(removed.status, JSON.stringify(removed.body)).toBe(200)
    expect((await api(`/categories/${below.id}`)).body).toMatchObject({ name, parent: top.id })
    expect((await api(`/categories/${above.id}`)).body).toMatchObject({ name, parent: top.id })
    // The pair stays editable in bulk, as the admin's list edits it: the parent it sends is theirs already.
    const both = `/api/event-categories?where[id][in]=${below.id},${above.id}`
    const edited = await call(both, {
      method: 'PATCH',
      token: editor.token,
      json: { parent: top.id, description: 'Kept together' },
    })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    expect((await api(`/categories/${below.id}`)).body.description).toBe('Kept together')
    // Renamed to one new name under that parent, they would still be two of it.
    const renamed = await call(both, {
      method: 'PATCH',
      token: editor.token,
      json: { parent: top.id, name: unique('Twin again ') },
    })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(400)
    expect((await api(`/categories/${above.id}`)).body.name).toBe(name)
  })

  it('refuses moving a category beside one that has its French name, whichever language the move is written in', async () => {
    const top = await createTerm('categories', editor.token)
    const french = unique('Jazz fr ')
    const inFrench = (id: number) =>
      api(`/categories/${id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { i18n_language: 'fr', name: french },
      })
    const beside = await createTerm('categories', editor.token, { parent: top.id })
    const moving = await createTerm('categories', editor.token)
    expect((await inFrench(beside.id)).status).toBe(200)
    expect((await inFrench(moving.id)).status).toBe(200)
    // Their English names differ; moved in English, the French one would be a second under top.
    const namespace = await api(`/categories/${moving.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { parent: top.id },
    })
    expectError(namespace, 400, 'term_exists')
    expect(namespace.body.data.term_id).toBe(beside.id)
    for (const locale of ['en', 'de']) {
      const payload = await call(`/api/event-categories/${moving.id}?locale=${locale}`, {
        method: 'PATCH',
        token: editor.token,
        json: { parent: top.id },
      })
      expect(payload.status, JSON.stringify(payload.body)).toBe(400)
      expect(JSON.stringify(payload.body)).toContain('already exists with this parent')
    }
    const bulk = await call(`/api/event-categories?where[id][equals]=${moving.id}&locale=en`, {
      method: 'PATCH',
      token: editor.token,
      json: { parent: top.id },
    })
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(400)
    const viaGraphql = await graphql(
      `mutation { updateEventCategory(id: ${moving.id}, data: { parent: ${top.id} }) { id } }`,
      editor.token,
    )
    expect(JSON.stringify(viaGraphql.body)).toContain('already exists with this parent')
    expect((await api(`/categories/${moving.id}`)).body.parent).toBe(0)
    // Renamed in French on the way, it may move.
    const renamed = await api(`/categories/${moving.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { i18n_language: 'fr', name: `${french} 2`, parent: top.id },
    })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    expect((await api(`/categories/${moving.id}`)).body.parent).toBe(top.id)
  })

  it('refuses any parent on tags with rest_invalid_param', async () => {
    const tag = await createTerm('tags', editor.token)
    for (const parent of [tag.id, 0, '0']) {
      expectInvalidParam(
        await api('/tags', {
          method: 'POST',
          token: editor.token,
          json: { name: unique('Child tag '), parent },
        }),
        'parent',
      )
      expectInvalidParam(
        await api(`/tags/${tag.id}`, { method: 'PATCH', token: editor.token, json: { parent } }),
        'parent',
      )
    }
    expect((await api(`/tags/${tag.id}`)).body).not.toHaveProperty('parent')
  })
})
