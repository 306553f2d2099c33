/**
 * Payload's own doors refuse what a field cannot hold as the request's mistake: an id in the path
 * that cannot name an item is a 404, a `where` value or operator its column cannot take a 400, a file
 * that is not on the disk a 404, a body or a JSON parameter that is not what Payload reads a 4xx.
 * Each of these was a 500 (`src/database/unreadableValues.ts`, `src/collections/missingFile.ts`,
 * `src/server/payloadRestGuard.ts`). Nothing such a request asks is written, and no answer tells how
 * the database is built.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  BASE_URL,
  call,
  NS,
  everyRole,
  type Reply,
  unique,
  uploadImage,
  userWithRole,
} from '../support/api'
import { graphql } from '../support/doors'
import { createEvent, createVenue, richText } from '../support/fixtures'

const { admin, editor } = await everyRole()

/** Signs of a database message or a stack in an answer. */
const INTERNALS = /Failed query|syntax|postgres|drizzle|SQLSTATE|out of range|at [\w.<>]+ \(/i

/** Ids Payload reads from a path with `parseFloat` that no stored item can have. */
const NO_ITEM_IDS = ['abc', '1.5', '99999999999999', '2147483648']

/** Why an answer is not `status` in Payload's error shape (undefined: it is). */
function problem(reply: Reply, status: number | 'a 4xx'): string | undefined {
  const text = JSON.stringify(reply.body)
  const statusWrong =
    status === 'a 4xx' ? reply.status < 400 || reply.status >= 500 : reply.status !== status
  if (statusWrong) return `${reply.status} instead of ${status}: ${text.slice(0, 160)}`
  const message = (reply.body as { errors?: { message?: unknown }[] })?.errors?.[0]?.message
  if (typeof message !== 'string') return `no { errors: [{ message }] }: ${text.slice(0, 160)}`
  if (INTERNALS.test(text)) return `internals in ${text.slice(0, 160)}`
  return undefined
}

const totalOf = async (collection: string) =>
  (await call(`/api/${collection}?limit=1&depth=0`, { token: admin })).body.totalDocs as number

describe("Payload's REST: values a field cannot hold are the request's mistake", () => {
  it('answers an id that cannot name an item with 404 on every read, and a 4xx on every write, anonymous or signed in', async () => {
    const venue = await call('/api/venues', {
      method: 'POST',
      token: admin,
      json: { name: unique('values venue'), status: 'publish' },
    })
    expect(venue.status).toBe(201)
    const before = await Promise.all(['events', 'venues', 'organizers'].map(totalOf))
    const wrong: string[] = []
    for (const id of NO_ITEM_IDS) {
      const reads = [
        ...['events', 'venues', 'organizers', 'event-categories', 'event-tags', 'media'].map(
          (collection) => `/api/${collection}/${id}`,
        ),
        `/api/events/${id}?draft=true`,
        `/api/events/versions/${id}`,
        `/api/webhooks/${id}`,
        `/api/users/${id}`,
        `/api/payload-locked-documents/${id}`,
      ]
      for (const path of reads) {
        const reply = await call(path, { token: admin })
        const why = problem(reply, 404)
        if (why) wrong.push(`admin GET ${path} → ${why}`)
      }
      for (const path of reads.slice(0, 6)) {
        const reply = await call(path)
        const why = problem(reply, 404)
        if (why) wrong.push(`anonymous GET ${path} → ${why}`)
      }
      const writes: [string, string][] = [
        ['PATCH', `/api/events/${id}`],
        ['PATCH', `/api/venues/${id}`],
        ['DELETE', `/api/events/${id}`],
        ['DELETE', `/api/organizers/${id}`],
        ['POST', `/api/events/${id}/duplicate`],
        ['POST', `/api/events/versions/${id}`],
      ]
      for (const [method, path] of writes) {
        for (const token of [admin, undefined]) {
          const reply = await call(path, { method, token, json: { title: 'x' } })
          const why = problem(reply, 'a 4xx')
          if (why) wrong.push(`${token ? 'admin' : 'anonymous'} ${method} ${path} → ${why}`)
        }
      }
    }
    expect(wrong).toEqual([])
    expect(await Promise.all(['events', 'venues', 'organizers'].map(totalOf))).toEqual(before)
    // The control: a stored id is read as before.
    expect((await call(`/api/venues/${venue.body.doc.id}`, { token: admin })).status).toBe(200)
  })

  it('answers where values and operators a column cannot take with 400, in lists and counts, anonymous or signed in', async () => {
    const queries = [
      'where[id][equals]=1.5',
      'where[id][equals]=99999999999999',
      'where[id][in]=99999999999999',
      'where[id][not_in]=1.5',
      'where[id][greater_than]=1e40',
      'where[id][contains]=1',
      'where[id][near]=1,2',
      'where[id][all]=1.5',
      'where[or][0][id][near]=1,2',
      'where[id][equals][0]=1&where[id][equals][1]=2',
      'where[venue][equals]=1.5',
      'where[venue][in]=1.5,abc',
      'where[categories][in]=99999999999999',
      'where[parent][equals]=abc',
      'where[featured][equals]=maybe',
    ]
    const wrong: string[] = []
    for (const query of queries)
      for (const path of [
        `/api/events?${query}&depth=0`,
        `/api/events/count?${query}`,
        `/api/venues?${query}&limit=1.5`,
      ])
        for (const token of [admin, undefined]) {
          const reply = await call(path, { token })
          const why = problem(reply, 400)
          if (why) wrong.push(`${token ? 'admin' : 'anonymous'} ${path} → ${why}`)
        }
    expect(wrong).toEqual([])
    // The control: values the columns can take are served.
    const valid = await call('/api/events?where[id][greater_than]=0&limit=1&depth=0')
    expect(valid.status).toBe(200)
  })

  it('answers an upload no image reader can take with 400 and its reason, and stores nothing', async () => {
    // A PNG whose header claims 100,000 × 100,000 pixels, and bytes that are no image at all.
    const huge = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgABhqAAAYagCAIAAAAnMJyfAAAAC0lEQVR4nGNggAEAAAoAAX+AdF4AAAAASUVORK5CYII=',
      'base64',
    )
    const before = await totalOf('media')
    for (const [bytes, reason] of [
      [huge, /The file is 100000×100000 pixels, more than the 268402689/],
      [Buffer.from('not a png at all'), /The file is not an image that can be read \(image\/png\)/],
    ] as const) {
      const form = new FormData()
      form.append('file', new Blob([bytes], { type: 'image/png' }), `${unique('bad')}.png`)
      form.append('_payload', JSON.stringify({ alt: 'bad' }))
      const reply = await call('/api/media', { method: 'POST', token: admin, body: form })
      expect(reply.status, JSON.stringify(reply.body)).toBe(400)
      expect(JSON.stringify(reply.body)).toMatch(reason)
    }
    expect(await totalOf('media')).toBe(before)
  })

  it('answers a media file that is not on the disk with 404, and serves one that is', async () => {
    const image = await uploadImage()
    const stored = await fetch(new URL(image.url, BASE_URL))
    expect(stored.status).toBe(200)
    expect(stored.headers.get('content-type')).toBe('image/png')
    for (const name of [unique('missing') + '.png', 'abc', `thumbnail-${image.filename}x`]) {
      const reply = await call(`/api/media/file/${encodeURIComponent(name)}`)
      expect(problem(reply, 404), name).toBeUndefined()
    }
    // A name that leaves the media folder is still Payload's to refuse.
    const escaping = await call(`/api/media/file/${encodeURIComponent('../secret')}`)
    expect(problem(escaping, 'a 4xx')).toBeUndefined()
  })

  it('answers JSON parameters, bodies and routes Payload cannot read with a 4xx, and writes nothing', async () => {
    const before = await Promise.all(['events', 'venues', 'organizers'].map(totalOf))
    const wrong: string[] = []
    const expectStatus = async (
      label: string,
      reply: Promise<Reply>,
      status: number | 'a 4xx',
    ): Promise<void> => {
      const why = problem(await reply, status)
      if (why) wrong.push(`${label} → ${why}`)
    }
    for (const token of [undefined, admin]) {
      const who = token ? 'admin' : 'anonymous'
      for (const path of [
        '/api/events?where=garbage',
        '/api/venues/count?where=%5B1%5D',
        '/api/organizers?data=%7Bbad',
      ])
        await expectStatus(`${who} GET ${path}`, call(path, { token }), 400)
      await expectStatus(
        `${who} DELETE /api/events?where=garbage`,
        call('/api/events?where=garbage', { method: 'DELETE', token }),
        400,
      )
      const cutShort = '--x\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n{"name":"v"}'
      await expectStatus(
        `${who} POST /api/venues, a multipart body cut short`,
        call('/api/venues', {
          method: 'POST',
          token,
          body: cutShort,
          headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
        }),
        400,
      )
      await expectStatus(
        `${who} POST /api/users/verify/abc`,
        call('/api/users/verify/abc', { method: 'POST', token, json: {} }),
        404,
      )
      await expectStatus(
        `${who} POST /api/graphql, a body that is not JSON`,
        call('/api/graphql', {
          method: 'POST',
          token,
          body: '{ Events { docs { id } }',
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
      )
    }
    for (const body of ['"text"', 'null', '[1]', '{bad'])
      for (const path of ['/api/venues', '/api/event-tags', '/api/globals/settings'])
        await expectStatus(
          `admin POST ${path} ${body}`,
          call(path, {
            method: 'POST',
            token: admin,
            body,
            headers: { 'Content-Type': 'application/json' },
          }),
          400,
        )
    await expectStatus(
      'admin POST /api/organizers as a form',
      call('/api/organizers', { method: 'POST', token: admin, form: { name: unique('form') } }),
      415,
    )
    await expectStatus(
      'admin POST /api/globals/settings as plain text',
      call('/api/globals/settings', {
        method: 'POST',
        token: admin,
        body: 'x',
        headers: { 'Content-Type': 'text/plain' },
      }),
      415,
    )
    await expectStatus(
      'admin GET /api/event-categories/versions (no versions)',
      call('/api/event-categories/versions', { token: admin }),
      404,
    )
    // A collection without REST endpoints: Payload answers 501 Not Implemented.
    for (const [method, path] of [
      ['GET', '/api/payload-migrations'],
      ['GET', '/api/payload-migrations/1'],
      ['DELETE', '/api/payload-migrations/1'],
    ] as const)
      for (const token of [undefined, admin])
        await expectStatus(
          `${token ? 'admin' : 'anonymous'} ${method} ${path}`,
          call(path, { method, token }),
          404,
        )
    const event = await call('/api/events', {
      method: 'POST',
      token: admin,
      json: {
        title: unique('values event'),
        status: 'publish',
        start: '2031-05-01T10:00:00.000Z',
        end: '2031-05-01T12:00:00.000Z',
      },
    })
    expect(event.status).toBe(201)
    const id = event.body.doc.id as number
    for (const json of [
      { timezone: 'Mars/Base' },
      { recurrence: { frequency: 'weekly' } },
      { organizers: [-1] },
      { venue: 2147483647 },
    ])
      await expectStatus(
        `admin PATCH /api/events/${id} ${JSON.stringify(json)}`,
        call(`/api/events/${id}`, { method: 'PATCH', token: admin, json }),
        400,
      )
    expect(wrong).toEqual([])
    const stored = await call(`/api/events/${id}?depth=0`, { token: admin })
    expect(stored.body.timezone).not.toBe('Mars/Base')
    expect(stored.body.organizers ?? []).toEqual([])
    expect(await Promise.all(['events', 'venues', 'organizers'].map(totalOf))).toEqual(
      before.map((total, index) => total + (index === 0 ? 1 : 0)),
    )
    // A read sent as a POST (the admin's relationship fields do): its form body is its query.
    const readAsPost = (form: Record<string, string>) =>
      call('/api/events', {
        method: 'POST',
        token: admin,
        form,
        headers: { 'X-Payload-HTTP-Method-Override': 'GET' },
      })
    expect(problem(await readAsPost({ where: 'garbage' }), 400)).toBeUndefined()
    const overridden = await readAsPost({ 'where[id][equals]': String(id), depth: '0' })
    expect(overridden.status).toBe(200)
    expect(overridden.body.docs.map((doc: { id: number }) => doc.id)).toEqual([id])
    // The namespace reads no `where` or `data`, and answers in its own envelope whichever server
    // routes it: a path with percent-encoding goes through Next's route to Payload's REST, whose
    // guard once answered such a request in Payload's shape.
    for (const query of ['', '?where=%20', '?where=garbage&data=%7Bbad']) {
      const path = `/api/cal/events/v1/events/by-slug/${unique('no%20such')}${query}`
      const reply = await call(path)
      expect(reply.status, path).toBe(400)
      expect(reply.body, path).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { slug: expect.any(String) } },
      })
    }
    // The controls: Payload still reads a JSON `where`, and a JSON body.
    const jsonWhere = encodeURIComponent(JSON.stringify({ id: { equals: id } }))
    expect((await call(`/api/events?where=${jsonWhere}`, { token: admin })).body.totalDocs).toBe(1)
    const retitled = await call(`/api/events/${id}`, {
      method: 'PATCH',
      token: admin,
      json: { title: 'Retitled' },
    })
    expect(retitled.status).toBe(200)
  })
  it("answers a value that is not of its field's type with 400 naming the field, through REST and GraphQL, and stores nothing of it", async () => {
    const title = unique('typed event')
    const { id } = await createEvent({
      title,
      start: '2031-06-01T10:00:00.000Z',
      website: 'https://typed.example.org/',
    })
    const venue = await createVenue({ name: unique('typed venue') })
    const before = await Promise.all(['events', 'venues', 'users', 'imports'].map(totalOf))
    const wrong: string[] = []
    /** Why a reply is not a 400 ValidationError naming `field` (undefined: it is). */
    const notRefused = (reply: Reply, field: string) => {
      const why = problem(reply, 400)
      if (why) return why
      const paths = (reply.body.errors?.[0]?.data?.errors ?? []).map(
        (e: { path: string }) => e.path,
      )
      return paths.includes(field) ? undefined : `names ${JSON.stringify(paths)}, not ${field}`
    }
    // Each write, and the field its refusal names (its first key's, unless given).
    const writes: [string, string, Record<string, unknown>, string?][] = [
      ['PATCH', `/api/events/${id}`, { website: 5 }],
      ['PATCH', `/api/events/${id}`, { website: ['https://a.example/'] }],
      ['PATCH', `/api/events/${id}`, { timezone: { zone: 'Europe/Paris' } }],
      ['PATCH', `/api/events/${id}`, { title: { text: 'x' } }],
      ['PATCH', `/api/events/${id}`, { description: 'plain text' }],
      ['PATCH', `/api/events/${id}`, { description: { root: 5 } }],
      ['PATCH', `/api/events/${id}`, { description: { root: { type: 'root', children: 'x' } } }],
      ['PATCH', `/api/events/${id}`, { description: { root: { type: 'root', children: [7] } } }],
      ['PATCH', `/api/events/${id}`, { meta: null }],
      ['PATCH', `/api/events/${id}`, { meta: { title: ['x'] } }, 'meta.title'],
      ['PATCH', `/api/events/${id}`, { categories: true }],
      ['PATCH', `/api/events/${id}`, { allDay: 'sometimes' }],
      ['PATCH', `/api/venues/${venue.id}`, { website: { url: 'x' } }],
      ['PATCH', `/api/venues/${venue.id}`, { geoLat: 'north' }],
      ['PATCH', `/api/venues/${venue.id}`, { showMap: { on: true } }],
      ['POST', '/api/users', { email: 5, password: 'long-enough-1', role: 'author' }],
      ['POST', '/api/users', { email: ['a@example.org'], password: 'long-enough-1' }],
      ['POST', '/api/imports', { source: 'site', sourceUrl: 5 }, 'sourceUrl'],
      [
        'POST',
        '/api/imports',
        { source: 'site', sourceUrl: 'http://127.0.0.1:9/v1', failures: null },
        'failures',
      ],
      ['POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hook', cursor: '2020-13-45' }, 'cursor'],
    ]
    for (const [method, path, json, field] of writes)
      for (const token of [admin, editor.token]) {
        if (token === editor.token && !path.startsWith('/api/events')) continue
        const reply = await call(path, { method, token, json })
        const why = notRefused(reply, field ?? Object.keys(json)[0]!)
        if (why)
          wrong.push(
            `${token === admin ? 'admin' : 'editor'} ${method} ${path} ${JSON.stringify(json)} → ${why}`,
          )
      }
    // A null where a column takes none is the request's mistake too, not the server's.
    const stamped = await call(`/api/venues/${venue.id}`, {
      method: 'PATCH',
      token: admin,
      json: { createdAt: null },
    })
    if (problem(stamped, 400)) wrong.push(`PATCH createdAt: null → ${problem(stamped, 400)}`)
    // GraphQL's JSON scalar takes any value for rich text: the field's check refuses it there too.
    const mutation = await graphql(
      `mutation { updateEvent(id: ${id}, data: { description: "plain text" }) { id } }`,
      admin,
    )
    const graphqlError = JSON.stringify(mutation.body.errors ?? null)
    if (!/description|rich text/i.test(graphqlError) || mutation.body.data?.updateEvent)
      wrong.push(
        `GraphQL updateEvent description "plain text" → ${JSON.stringify(mutation.body).slice(0, 200)}`,
      )
    // Routes a global or an upload collection does not serve.
    for (const [path, status] of [
      ['/api/globals/settings/versions', 404],
      ['/api/globals/settings/versions/abc', 404],
      [`/api/imports/file/${unique('missing')}.csv`, 404],
    ] as const) {
      const why = problem(await call(path, { token: admin }), status)
      if (why) wrong.push(`GET ${path} → ${why}`)
    }
    expect(wrong).toEqual([])
    const stored = await call(`/api/events/${id}?depth=0`, { token: admin })
    expect(stored.body).toMatchObject({ title, website: 'https://typed.example.org/' })
    expect(stored.body.description ?? null).toBeNull()
    expect(stored.body.meta ?? {}).not.toBeNull()
    expect(await Promise.all(['events', 'venues', 'users', 'imports'].map(totalOf))).toEqual(before)
    // The controls: values of their fields' types are written, rich text as the admin saves it.
    const written = await call(`/api/events/${id}?depth=0`, {
      method: 'PATCH',
      token: editor.token,
      json: {
        website: 'https://other.example.org/',
        description: richText('Typed.'),
        meta: { title: 'Meta' },
      },
    })
    expect(written.status, JSON.stringify(written.body)).toBe(200)
    expect(written.body.doc.descriptionHtml).toContain('Typed.')
  })

  it("answers a setting's count that is not a whole number 400 naming it, through REST and GraphQL, and keeps the lists and feeds answering", async () => {
    const before = (await call('/api/globals/settings', { token: admin })).body
    const counts = {
      postsPerPage: 2.5,
      recurrenceHorizonMonths: 1.5,
      maxOccurrences: 1.5,
      changesRetentionDays: 1.5,
      icalMaxEvents: 2.5,
      icalRefreshMinutes: 5.5,
    }
    for (const [field, value] of Object.entries(counts)) {
      const rest = await call('/api/globals/settings', {
        method: 'POST',
        token: admin,
        json: { [field]: value },
      })
      expect({ field, status: rest.status }).toEqual({ field, status: 400 })
      expect(JSON.stringify(rest.body)).toContain(field)
      const viaGraphql = await graphql(
        `mutation { updateSetting(data: { ${field}: ${value} }) { ${field} } }`,
        admin,
      )
      expect({ field, errors: JSON.stringify(viaGraphql.body.errors ?? null) }).toMatchObject({
        field,
        errors: expect.stringContaining(field),
      })
    }
    const after = (await call('/api/globals/settings', { token: admin })).body
    expect(Object.fromEntries(Object.keys(counts).map((key) => [key, after[key]]))).toEqual(
      Object.fromEntries(Object.keys(counts).map((key) => [key, before[key]])),
    )
    expect((await call(`${NS}/events`)).status).toBe(200)
    expect((await call(`${NS}/events.ics`)).status).toBe(200)
    // The control: a whole number is written.
    const whole = await call('/api/globals/settings', {
      method: 'POST',
      token: admin,
      json: { icalRefreshMinutes: before.icalRefreshMinutes },
    })
    expect(whole.status).toBe(200)
  })

  it('answers a password that is not text with 400 naming it, on create, update and reset, and keeps the one stored', async () => {
    const account = await userWithRole('author')
    const before = await totalOf('users')
    const wrong: string[] = []
    for (const password of [12345678901, true, ['long-enough-1'], { text: 'long-enough-1' }]) {
      const writes: [string, string, string | undefined, Record<string, unknown>][] = [
        [
          'POST',
          '/api/users',
          admin,
          { email: `${unique('typed')}@calendar.test`, password, role: 'author' },
        ],
        ['PATCH', `/api/users/${account.id}`, admin, { password }],
        ['PATCH', `/api/users/${account.id}`, account.token, { password }],
      ]
      for (const [method, path, token, json] of writes) {
        const reply = await call(path, { method, token, json })
        const why = problem(reply, 400)
        const paths = (reply.body.errors?.[0]?.data?.errors ?? []).map(
          (e: { path: string }) => e.path,
        )
        if (why || !paths.includes('password'))
          wrong.push(`${method} ${path} ${JSON.stringify(json)} → ${why ?? JSON.stringify(paths)}`)
      }
    }
    expect(wrong).toEqual([])
    expect(await totalOf('users')).toBe(before)
    // Payload's reset reads a password that is not text as none; a token no account holds is refused first.
    const reset = await call('/api/users/reset-password', {
      method: 'POST',
      json: { token: unique('token'), password: 12345678901 },
    })
    expect(reset.status).toBe(403)
    expect(reset.body.errors[0].message).toBe('Token is either invalid or has expired.')
    const login = await call('/api/users/login', {
      method: 'POST',
      json: { email: account.email, password: account.password },
    })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
  })

  it("answers the admin's server functions 404 for a name Payload has none of, or an anonymous caller they refuse, not 500", async () => {
    // The action the admin's pages call, as their script names it: the layout's server function.
    const manifest = JSON.parse(
      await readFile(
        new URL('../../.next/server/server-reference-manifest.json', import.meta.url),
        'utf8',
      ),
    ) as { node: Record<string, { filename: string }> }
    const action = Object.entries(manifest.node).find(
      ([, entry]) => entry.filename === 'src/app/(payload)/layout.tsx',
    )?.[0]
    expect(action).toBeDefined()
    const callFunction = (call: unknown, token?: string) =>
      fetch(`${BASE_URL}/admin`, {
        method: 'POST',
        headers: {
          'Next-Action': action!,
          'Content-Type': 'text/plain;charset=UTF-8',
          Accept: 'text/x-component',
          ...(token ? { Cookie: `payload-token=${token}` } : {}),
        },
        body: JSON.stringify([call]),
      })
    const calls: [unknown, string | undefined][] = [
      [{ name: 'no-such-function', args: {} }, undefined],
      [{ name: 'no-such-function', args: {} }, admin],
      [{ args: {} }, admin],
      ['text', admin],
      [{ name: 'render-list', args: { collectionSlug: 'events' } }, undefined],
      [{ name: 'render-document', args: { collectionSlug: 'events' } }, undefined],
      [{ name: 'slugify', args: {} }, undefined],
    ]
    const wrong: string[] = []
    for (const [call, token] of calls) {
      const reply = await callFunction(call, token)
      if (reply.status !== 404)
        wrong.push(`${token ? 'admin' : 'anonymous'} ${JSON.stringify(call)} → ${reply.status}`)
    }
    expect(wrong).toEqual([])
    // The form state the sign-in form asks for, anonymously, is still answered.
    const formState = await callFunction({
      name: 'form-state',
      args: { collectionSlug: 'events' },
    })
    expect(formState.status).toBe(200)
  })

  it('answers a GraphQL operation of more than 20 root fields (aliases, fragments) 400, and one of 20 as usual', async () => {
    const aliases = (count: number) =>
      Array.from({ length: count }, (_, index) => `a${index}: Events(limit: 1) { totalDocs }`).join(
        ' ',
      )
    for (const query of [
      `{ ${aliases(490)} }`,
      `{ ${aliases(21)} }`,
      `query { ...F ... on Query { ${aliases(6)} } } fragment F on Query { ${aliases(15)} }`,
    ]) {
      const reply = await graphql(query)
      expect(problem(reply, 400), query.slice(0, 60)).toBeUndefined()
      expect(reply.body.errors[0].message).toMatch(/at most 20 root fields/)
    }
    // However the body's type is spelt: GraphQL's handler drops the header's spaces.
    const spelt = await call('/api/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application /json' },
      body: JSON.stringify({ query: `{ ${aliases(21)} }` }),
    })
    expect(problem(spelt, 400), JSON.stringify(spelt.body).slice(0, 200)).toBeUndefined()
    const twenty = await graphql(`{ ${aliases(20)} }`)
    expect(twenty.status, JSON.stringify(twenty.body).slice(0, 200)).toBe(200)
    expect(Object.keys(twenty.body.data)).toHaveLength(20)
  })

  it('answers GraphQL documents its complexity rule could not read 400, anonymous: fragment cycles, undefined variables, subscriptions', async () => {
    for (const query of [
      'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }',
      'query { Events { docs { ...E } } } fragment E on Event { id ...E }',
      '{ Events @include(if: $nope) { totalDocs } }',
      'subscription { Events { totalDocs } }',
    ]) {
      const reply = await graphql(query)
      expect(problem(reply, 400), query).toBeUndefined()
    }
    // A variable that is defined still steers a directive.
    const steered = await call('/api/graphql', {
      method: 'POST',
      json: {
        query: 'query ($on: Boolean!) { Events(limit: 1) @include(if: $on) { totalDocs } }',
        variables: { on: true },
      },
    })
    expect(steered.body.data.Events.totalDocs).toBeGreaterThan(0)
  })

  it('answers JSON nested past 512 levels 400 on every write and in GraphQL variables, and a deep rich text as usual', async () => {
    const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
    const own = (await call('/api/users/me', { token: editor.token })).body.user.id
    for (const [method, path] of [
      ['POST', '/api/events'],
      ['PATCH', `/api/users/${own}`],
      ['POST', '/api/globals/settings'],
      ['POST', '/api/payload-preferences/deep'],
    ] as const) {
      const reply = await call(path, {
        method,
        token: path.includes('users') ? editor.token : admin,
        headers: { 'Content-Type': 'application/json' },
        body: `{"title":"deep","x":${deep(10_000)}}`,
      })
      expect(problem(reply, 400), `${method} ${path}`).toBeUndefined()
      expect(reply.body.errors[0].message).toMatch(/nested more than 512 levels/)
    }
    // The same value in a form's `_payload`, which the guard does not read: refused by every
    // collection's first hook, before Payload's copy.
    for (const [path, token] of [
      ['/api/events', admin],
      [`/api/users/${own}`, editor.token],
    ] as const) {
      const form = new FormData()
      form.append('_payload', `{"title":"deep","x":${deep(10_000)}}`)
      const reply = await call(path, {
        method: path.includes('users') ? 'PATCH' : 'POST',
        token,
        body: form,
      })
      expect(problem(reply, 400), `multipart ${path}`).toBeUndefined()
      expect(reply.body.errors[0].message).toMatch(/nested more than 512 levels/)
    }
    // Written into the query itself, anonymously: 1,000 levels ran Payload's resolver out of stack,
    // 2,000 GraphQL's parser.
    for (const levels of [1000, 2000]) {
      const literal = `${'{AND: ['.repeat(levels)}{id: {equals: 1}}${']}'.repeat(levels)}`
      const reply = await graphql(`query { Events(where: ${literal}) { totalDocs } }`)
      expect(problem(reply, 400), `literal of ${levels}`).toBeUndefined()
      expect(reply.body.errors[0].message).toMatch(/nested more than 512 levels/)
    }
    // 3,000 `AND`s, written as text: the test's own JSON.stringify recurses as Payload's copy does.
    const where = `${'{"AND":['.repeat(3000)}{"title":{"equals":"x"}}${']}'.repeat(3000)}`
    const variables = await call('/api/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `{"query":"query ($w: Event_where) { Events(where: $w) { totalDocs } }","variables":{"w":${where}}}`,
    })
    expect(problem(variables, 400)).toBeUndefined()
    // A rich text 60 levels deep (a list in a list...) is some 120 levels of JSON: written as ever.
    let node: Record<string, unknown> = { type: 'text', text: 'deep', version: 1 }
    for (let level = 0; level < 60; level++)
      node = { type: 'paragraph', version: 1, children: [node] }
    const written = await call('/api/events', {
      method: 'POST',
      token: admin,
      json: {
        title: unique('deep text'),
        start: new Date(Date.now() + 86_400_000).toISOString(),
        end: new Date(Date.now() + 90_000_000).toISOString(),
        description: { root: { type: 'root', version: 1, children: [node] } },
      },
    })
    expect(written.status, JSON.stringify(written.body).slice(0, 200)).toBe(201)
  })

  it('answers a preference no one has 404, GraphQL Access to anyone, and the jobs endpoints in Payload’s shape', async () => {
    const key = unique('preference')
    const gone = await call(`/api/payload-preferences/${key}`, {
      method: 'DELETE',
      token: editor.token,
    })
    expect(problem(gone, 404), JSON.stringify(gone.body)).toBeUndefined()
    const kept = await call(`/api/payload-preferences/${key}`, {
      method: 'POST',
      token: editor.token,
      json: { value: { columns: [] } },
    })
    expect(kept.status).toBe(200)
    expect(
      (await call(`/api/payload-preferences/${key}`, { method: 'DELETE', token: editor.token }))
        .status,
    ).toBe(200)

    for (const [token, expected] of [
      [undefined, false],
      [editor.token, true],
    ] as const) {
      const access = await graphql('{ Access { canAccessAdmin } }', token)
      expect(access.body, JSON.stringify(access.body)).toEqual({
        data: { Access: { canAccessAdmin: expected } },
      })
    }

    const jobs: [string, string | undefined, number][] = [
      ['/api/payload-jobs/run?queue=calendar', undefined, 401],
      ['/api/payload-jobs/run?queue=calendar', editor.token, 403],
      ['/api/payload-jobs/handle-schedules', editor.token, 403],
      ['/api/payload-jobs/run?queue=calendar&limit=1.5', admin, 400],
      ['/api/payload-jobs/run?disableScheduling=true&queue=%00', admin, 400],
    ]
    const wrong: string[] = []
    for (const [path, token, status] of jobs) {
      const why = problem(await call(path, { token }), status)
      if (why)
        wrong.push(`${path} ${token === admin ? 'admin' : token ? 'editor' : 'anonymous'} → ${why}`)
    }
    expect(wrong).toEqual([])
    expect(
      (await call('/api/payload-jobs/run?queue=calendar&limit=5', { token: admin })).status,
    ).toBe(200)
  })
})
