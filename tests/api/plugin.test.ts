/**
 * The calendar as a plugin in a developer's own, bare Payload app: extra fields round-trip
 * through the namespace and are validated by their Payload type, /doc documents them, the
 * developer's hook runs, only the chosen languages exist, and the namespace lives where asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../support/api'
import { startFaultyLink, type FaultyLink } from '../support/faultyLink'
import { changedWhileWaiting } from '../support/rowHolder'
import { BARE_NAMESPACE, hookSaw, startBareApp, type BareApp } from '../plugin/bareApp'

let app: BareApp
let link: FaultyLink
let token: string

async function send(
  path: string,
  init: { method?: string; json?: unknown; form?: string; auth?: boolean } = {},
) {
  const response = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.json ? { 'Content-Type': 'application/json' } : {}),
      ...(init.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      ...(init.auth ? { Authorization: `JWT ${token}` } : {}),
    },
    body: init.json ? JSON.stringify(init.json) : init.form,
  })
  return { status: response.status, headers: response.headers, body: await response.json() }
}

const root = `/api/${BARE_NAMESPACE}`

beforeAll(async () => {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through npm test')
  // The bare app reaches its database through a link the fault tests can break.
  link = await startFaultyLink(process.env.DATABASE_URL)
  app = await startBareApp(link.url(process.env.DATABASE_URL))
  await send('/api/users/first-register', {
    method: 'POST',
    json: { email: 'dev@bare.test', password: 'bare-password-1' },
  })
  token = (
    await send('/api/users/login', {
      method: 'POST',
      json: { email: 'dev@bare.test', password: 'bare-password-1' },
    })
  ).body.token
})

afterAll(async () => {
  await app?.close()
  await link?.close()
})

describe('the plugin in a bare app', () => {
  it('serves the namespace at the root the developer chose, and not at the default one', async () => {
    const index = await send(root)
    expect(index.status).toBe(200)
    expect(index.body.namespace).toBe(BARE_NAMESPACE)
    expect(Object.keys(index.body.routes)).toContain(`/${BARE_NAMESPACE}/events`)
    expect((await send('/api/cal/events/v1/events')).status).toBe(404)
  })

  it('round-trips the extra event fields under custom_fields and runs the developer’s hook', async () => {
    const created = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Plugin gala',
        start_date: '2031-03-01 19:00:00',
        end_date: '2031-03-01 22:00:00',
        capacity: 120,
        audience: 'families',
      },
    })
    expect(created.status).toBe(201)
    expect(created.body.custom_fields).toEqual({
      capacity: { label: 'Capacity', value: 120 },
      audience: { label: 'Audience', value: 'families' },
    })
    expect(created.body.url).toMatch(/\/whats-on\/plugin-gala\/$/)
    expect(hookSaw).toContain(created.body.id)

    const updated = await send(`${root}/events/${created.body.id}`, {
      method: 'PATCH',
      auth: true,
      json: { capacity: 80 },
    })
    expect(updated.body.custom_fields.capacity.value).toBe(80)
    expect(updated.body.custom_fields.audience.value).toBe('families')
    const read = await send(`${root}/events/${created.body.id}`)
    expect(read.body.custom_fields.capacity).toEqual({ label: 'Capacity', value: 80 })
  })

  it('refuses extra field values of the wrong type with a 400 naming the field, writing nothing', async () => {
    const bad = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Bad capacity',
        start_date: '2031-03-02',
        end_date: '2031-03-02',
        capacity: 'abc',
      },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('rest_invalid_param')
    expect(Object.keys(bad.body.data.params)).toContain('capacity')
    const badSelect = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Bad audience',
        start_date: '2031-03-02',
        end_date: '2031-03-02',
        audience: 'robots',
      },
    })
    expect(badSelect.status).toBe(400)
    expect(Object.keys(badSelect.body.data.params)).toContain('audience')
    const list = await send(`${root}/events?search=Bad&start_date=2031-03-01&end_date=2031-03-03`)
    expect(list.body.total).toBe(0)
  })

  it('refuses a named tab’s value that is not an object with a 400 naming the tab, through Payload’s REST, storing nothing', async () => {
    const name = `Tabbed ${Date.now()}`
    for (const access of [null, 'ramp', [{ ramp: true }]]) {
      const refused = await send('/api/venues', {
        method: 'POST',
        auth: true,
        json: { name, status: 'publish', access },
      })
      expect(refused.status, JSON.stringify(refused.body)).toBe(400)
      const paths = refused.body.errors[0].data.errors.map((error: { path: string }) => error.path)
      expect(paths, JSON.stringify(access)).toContain('access')
    }
    const query = `where[name][equals]=${encodeURIComponent(name)}`
    expect((await send(`/api/venues?${query}`, { auth: true })).body.totalDocs).toBe(0)
    const stored = await send('/api/venues', {
      method: 'POST',
      auth: true,
      json: { name, status: 'publish', access: { ramp: true } },
    })
    expect(stored.status).toBe(201)
    expect(stored.body.doc.access).toEqual({ ramp: true })
  })

  it('reads and writes a developer’s category field as a top-level key, on the category and on the events that embed it', async () => {
    const created = await send(`${root}/categories`, {
      method: 'POST',
      auth: true,
      json: { name: `Jazz ${Date.now()}`, colour: '#aa0000', taxonomy: 'mine' },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toMatchObject({ colour: '#aa0000', taxonomy: 'event_category' })
    const path = `${root}/categories/${created.body.id}`
    const byForm = await send(path, { method: 'PATCH', auth: true, form: 'colour=%2300aa00' })
    expect(byForm.status, JSON.stringify(byForm.body)).toBe(200)
    expect(byForm.body.colour).toBe('#00aa00')
    const wrong = await send(path, { method: 'PATCH', auth: true, json: { colour: { r: 1 } } })
    expect(wrong.status).toBe(400)
    expect(Object.keys(wrong.body.data.params)).toEqual(['colour'])
    expect((await send(path)).body.colour).toBe('#00aa00')
    const listed = await send(`${root}/categories?include=${created.body.id}&hide_empty=false`)
    expect(listed.body.categories.map((term: { colour: string }) => term.colour)).toEqual([
      '#00aa00',
    ])

    const event = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Coloured concert',
        status: 'publish',
        start_date: '2031-03-06 19:00:00',
        end_date: '2031-03-06 21:00:00',
        categories: [created.body.id],
      },
    })
    expect(event.status, JSON.stringify(event.body)).toBe(201)
    expect(event.body.categories[0]).toMatchObject({ id: created.body.id, colour: '#00aa00' })
    const list = await send(
      `${root}/events?categories=${created.body.id}&start_date=2031-03-06&end_date=2031-03-07`,
    )
    expect(list.status, JSON.stringify(list.body)).toBe(200)
    expect(list.body.events, JSON.stringify(list.body)).toHaveLength(1)
    expect(list.body.events[0].categories[0].colour).toBe('#00aa00')
  })

  it('reads and writes a developer’s list field (hasMany) as a list, by JSON and by form', async () => {
    const event = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Captioned talk',
        start_date: '2031-03-05 19:00:00',
        end_date: '2031-03-05 21:00:00',
        accessibility: ['captions', 'signing'],
      },
    })
    expect(event.status, JSON.stringify(event.body)).toBe(201)
    expect(event.body.custom_fields.accessibility).toEqual({
      label: 'Accessibility',
      value: ['captions', 'signing'],
    })
    const path = `${root}/events/${event.body.id}`
    const one = await send(path, { method: 'PATCH', auth: true, form: 'accessibility=step-free' })
    expect(one.status, JSON.stringify(one.body)).toBe(200)
    expect(one.body.custom_fields.accessibility.value).toEqual(['step-free'])
    const more = await send(path, {
      method: 'PATCH',
      auth: true,
      form: 'accessibility%5B%5D=captions&accessibility%5B%5D=step-free',
    })
    expect(more.body.custom_fields.accessibility.value).toEqual(['captions', 'step-free'])
    for (const accessibility of [['captions', 'robots'], 'robots', { a: 'captions' }]) {
      const wrong = await send(path, { method: 'PATCH', auth: true, json: { accessibility } })
      expect(wrong.status, JSON.stringify(accessibility)).toBe(400)
      expect(Object.keys(wrong.body.data.params)).toEqual(['accessibility'])
    }
    expect((await send(path)).body.custom_fields.accessibility.value).toEqual([
      'captions',
      'step-free',
    ])
  })

  it('serves developers’ fields in lists, single reads and write answers by their own read rules', async () => {
    const event = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Coded night',
        status: 'publish',
        start_date: '2031-03-08 19:00:00',
        end_date: '2031-03-08 21:00:00',
        capacity: 80,
        venue: { venue: 'Coded Hall', doorCode: '4711', wheelchairAccess: true },
      },
    })
    expect(event.status, JSON.stringify(event.body)).toBe(201)
    expect(event.body.venue).toMatchObject({ doorCode: '4711', wheelchairAccess: true })
    const list = `${root}/events?start_date=2031-03-08&end_date=2031-03-09`
    for (const auth of [false, true]) {
      const read = [
        (await send(list, { auth })).body.events[0],
        (await send(`${root}/events/${event.body.id}`, { auth })).body,
      ]
      for (const served of read) {
        expect(served.custom_fields, JSON.stringify(served)).toEqual({
          capacity: { label: 'Capacity', value: 80 },
        })
        expect(served.venue.wheelchairAccess).toBe(true)
        // Field access is Payload's: anonymous readers get no door code, not even a null.
        if (auth) expect(served.venue.doorCode).toBe('4711')
        else expect(served.venue).not.toHaveProperty('doorCode')
      }
    }
  })

  it('unlocks with a password, and answers writes, by the developer’s field rules too: a field no one reads stays unread', async () => {
    const event = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Locked night',
        status: 'publish',
        start_date: '2031-03-12 19:00:00',
        end_date: '2031-03-12 21:00:00',
        password: 'open-sesame',
        capacity: 40,
        internalNote: 'never served',
        venue: { venue: 'Locked Hall', doorCode: '2468', password: 'hall-sesame' },
      },
    })
    expect(event.status, JSON.stringify(event.body)).toBe(201)
    const { id } = event.body
    const venue = event.body.venue.id as number
    const unlocked = [
      (await send(`${root}/events?start_date=2031-03-12&end_date=2031-03-13&password=open-sesame`))
        .body.events[0],
      (await send(`${root}/events/${id}?password=open-sesame`)).body,
    ]
    for (const served of unlocked) {
      // The password opened the event's own content…
      expect(served.custom_fields, JSON.stringify(served)).toEqual({
        capacity: { label: 'Capacity', value: 40 },
      })
      expect(served.title).toBe('Locked night')
    }
    // …and the venue's, but not the staff's door code, which anonymous readers never get.
    const hall = (await send(`${root}/venues/${venue}?password=hall-sesame`)).body
    expect(hall.venue).toBe('Locked Hall')
    expect(hall).not.toHaveProperty('doorCode')
    // Answers read back after a write (another language's, a trashing) hold the same rules.
    const answers = [
      await send(`/fr/api/${BARE_NAMESPACE}/events/${id}`, {
        method: 'POST',
        auth: true,
        json: { title: 'Nuit fermée' },
      }),
      await send(`${root}/events/${id}`, { method: 'DELETE', auth: true }),
    ]
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      expect(answer.body.custom_fields, JSON.stringify(answer.body)).toEqual({
        capacity: { label: 'Capacity', value: 40 },
      })
    }
  })

  it('reads and writes a developer’s links to organizers as ids, by JSON and by form', async () => {
    const hosts: number[] = []
    for (const organizer of ['First Host', 'Second Host']) {
      const made = await send(`${root}/organizers`, {
        method: 'POST',
        auth: true,
        json: { organizer },
      })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      hosts.push(made.body.id)
    }
    const [first, second] = hosts as [number, number]
    const event = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      form: `title=Hosted+night&start_date=2031-03-14+19:00:00&end_date=2031-03-14+21:00:00&host=${first}&partners%5B%5D=${first}&partners%5B%5D=${second}`,
    })
    expect(event.status, JSON.stringify(event.body)).toBe(201)
    expect(event.body.custom_fields).toMatchObject({
      host: { label: 'Host', value: first },
      partners: { label: 'Partners', value: [first, second] },
    })
    const path = `${root}/events/${event.body.id}`
    const moved = await send(path, { method: 'PATCH', auth: true, json: { host: String(second) } })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(moved.body.custom_fields.host.value).toBe(second)
    for (const host of ['someone', 1.5, { id: first }]) {
      const wrong = await send(path, { method: 'PATCH', auth: true, json: { host } })
      expect(wrong.status, JSON.stringify(host)).toBe(400)
      expect(Object.keys(wrong.body.data.params)).toEqual(['host'])
    }
    const doc = await send(`${root}/doc`)
    const body = doc.body.paths['/events'].post.requestBody.content['application/json'].schema
    expect(body.properties.host).toMatchObject({ type: 'integer' })
    expect(body.properties.partners).toMatchObject({ type: 'array', items: { type: 'integer' } })
  })

  it('reads and writes a developer’s array and blocks rows, by JSON and by form, each value checked', async () => {
    const event = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Rowed concert',
        start_date: '2031-03-07 19:00:00',
        end_date: '2031-03-07 21:00:00',
        performers: [{ name: 'Ada', headliner: true }, { name: 'Bo' }],
        extras: [{ blockType: 'note', text: 'Bring a chair' }],
      },
    })
    expect(event.status, JSON.stringify(event.body)).toBe(201)
    expect(event.body.custom_fields.performers).toMatchObject({
      label: 'Performers',
      value: [{ name: 'Ada', headliner: true }, { name: 'Bo' }],
    })
    expect(event.body.custom_fields.extras.value).toMatchObject([
      { blockType: 'note', text: 'Bring a chair' },
    ])
    const path = `${root}/events/${event.body.id}`
    // A form's checkboxes inside rows are "1" and "0", as at the top level.
    const byForm = await send(path, {
      method: 'PATCH',
      auth: true,
      form: [
        'performers[0][name]=Cy',
        'performers[0][headliner]=1',
        'performers[1][name]=Di',
        'performers[1][headliner]=0',
        'extras[0][blockType]=tickets',
        'extras[0][seats]=40',
        'extras[0][soldOut]=1',
      ]
        .map((pair) => pair.replace(/\[/g, '%5B').replace(/\]/g, '%5D'))
        .join('&'),
    })
    expect(byForm.status, JSON.stringify(byForm.body)).toBe(200)
    expect(byForm.body.custom_fields.performers.value).toMatchObject([
      { name: 'Cy', headliner: true },
      { name: 'Di', headliner: false },
    ])
    expect(byForm.body.custom_fields.extras.value).toMatchObject([
      { blockType: 'tickets', seats: 40, soldOut: true },
    ])
    for (const [json, param] of [
      [{ performers: [{ name: 'Ed', headliner: 'maybe' }] }, 'performers.0.headliner'],
      [{ performers: 'Ed' }, 'performers'],
      [
        { extras: [{ blockType: 'note' }, { blockType: 'tickets', seats: 'many' }] },
        'extras.1.seats',
      ],
      [{ extras: [{ blockType: 'video' }] }, 'extras.0.blockType'],
    ] as const) {
      const wrong = await send(path, { method: 'PATCH', auth: true, json })
      expect(wrong.status, JSON.stringify(json)).toBe(400)
      expect(Object.keys(wrong.body.data.params), JSON.stringify(wrong.body)).toEqual([param])
    }
    const stored = (await send(path)).body.custom_fields
    expect(stored.performers.value).toMatchObject([{ name: 'Cy' }, { name: 'Di' }])
    expect(stored.extras.value).toMatchObject([{ blockType: 'tickets', seats: 40 }])
    const cleared = await send(path, { method: 'PATCH', auth: true, form: 'performers=' })
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200)
    expect(cleared.body.custom_fields.performers).toBeUndefined()
    expect(cleared.body.custom_fields.extras.value).toHaveLength(1)
  })

  it('reads and writes a field in a row and a named tab through the namespace, as top-level ones', async () => {
    const event = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Rowed gala',
        start_date: '2031-03-03 19:00:00',
        end_date: '2031-03-03 22:00:00',
        dressCode: 'Black tie',
      },
    })
    expect(event.status, JSON.stringify(event.body)).toBe(201)
    expect(event.body.custom_fields).toEqual({
      dressCode: { label: 'Dress code', value: 'Black tie' },
    })
    const refused = await send(`${root}/events/${event.body.id}`, {
      method: 'PATCH',
      auth: true,
      json: { dressCode: { tie: 'black' } },
    })
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.body.data.params)).toEqual(['dressCode'])

    const venue = await send(`${root}/venues`, {
      method: 'POST',
      auth: true,
      json: { venue: 'Tabbed Hall', access: { ramp: true } },
    })
    expect(venue.status, JSON.stringify(venue.body)).toBe(201)
    expect(venue.body.access).toEqual({ ramp: true })
    expect((await send(`${root}/venues/${venue.body.id}`)).body.access).toEqual({ ramp: true })
    for (const access of [null, 'ramp', [{ ramp: true }]]) {
      const wrong = await send(`${root}/venues/${venue.body.id}`, {
        method: 'PATCH',
        auth: true,
        json: { access },
      })
      expect(wrong.status, JSON.stringify(access)).toBe(400)
      expect(wrong.body.code).toBe('rest_invalid_param')
      expect(Object.keys(wrong.body.data.params)).toEqual(['access'])
    }
    expect((await send(`${root}/venues/${venue.body.id}`)).body.access).toEqual({ ramp: true })

    // A form (how WordPress's clients write) names a value inside the tab by brackets; it reads as the
    // same value in JSON would, and a wrong one is named by its path.
    const byForm = await send(`${root}/venues/${venue.body.id}`, {
      method: 'PATCH',
      auth: true,
      form: 'access%5Bramp%5D=0',
    })
    expect(byForm.status, JSON.stringify(byForm.body)).toBe(200)
    expect(byForm.body.access).toEqual({ ramp: false })
    const wrongByForm = await send(`${root}/venues/${venue.body.id}`, {
      method: 'PATCH',
      auth: true,
      form: 'access%5Bramp%5D=maybe',
    })
    expect(wrongByForm.status).toBe(400)
    expect(Object.keys(wrongByForm.body.data.params)).toEqual(['access.ramp'])
    expect((await send(`${root}/venues/${venue.body.id}`)).body.access).toEqual({ ramp: false })

    // A venue an event brings inline carries them too, checked as the venue's own route checks them.
    const inline = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Inline gala',
        start_date: '2031-03-04 19:00:00',
        end_date: '2031-03-04 22:00:00',
        venue: { venue: 'Inline Hall', wheelchairAccess: true, access: { ramp: true } },
      },
    })
    expect(inline.status, JSON.stringify(inline.body)).toBe(201)
    expect(inline.body.venue).toMatchObject({ wheelchairAccess: true, access: { ramp: true } })
    const wrongInline = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Wrong inline gala',
        start_date: '2031-03-04 19:00:00',
        end_date: '2031-03-04 22:00:00',
        venue: { venue: 'Wrong Inline Hall', access: 'ramp' },
      },
    })
    expect(wrongInline.status).toBe(400)
    expect(wrongInline.body.data.params.venue).toMatch(/access/)
    expect((await send(`${root}/venues?search=Wrong%20Inline`)).body.venues).toEqual([])
  })

  it('shows extra venue fields as top-level keys, a virtual one as made, a hidden one never', async () => {
    const venue = await send(`${root}/venues`, {
      method: 'POST',
      auth: true,
      json: { venue: 'Ramped Hall', wheelchairAccess: true, auditRef: 'A-1', badge: 'sent' },
    })
    expect(venue.status).toBe(201)
    expect(venue.body.wheelchairAccess).toBe(true)
    for (const served of [venue.body, (await send(`${root}/venues/${venue.body.id}`)).body]) {
      expect(served.badge).toBe('Venue: Ramped Hall')
      expect(served).not.toHaveProperty('auditRef')
    }
  })

  it('leaves out a developer’s field named like a key of the venue or organizer: the object’s own key wins', async () => {
    const text = async (path: string, json?: Record<string, unknown>) => {
      const response = await fetch(`${app.url}${root}${path}`, {
        method: json ? 'POST' : 'GET',
        headers: { Authorization: `JWT ${token}`, 'Content-Type': 'application/json' },
        body: json && JSON.stringify(json),
      })
      return { status: response.status, text: await response.text() }
    }
    // Each key written once: JSON.parse would keep the last of two.
    const venue = await text('/venues', { venue: 'Named Hall', url: 'the developer’s own' })
    expect(venue.status, venue.text).toBe(201)
    expect(venue.text.match(/"url":/g)).toHaveLength(1)
    const written = JSON.parse(venue.text) as { id: number; url: string }
    expect(written.url).toMatch(/\/venue\/named-hall\/$/)

    const organizer = await text('/organizers', { organizer: 'Named Host', json_ld: 'own' })
    expect(organizer.status, organizer.text).toBe(201)
    expect(organizer.text).not.toContain('"json_ld"')
    const single = await text(`/organizers/${(JSON.parse(organizer.text) as { id: number }).id}`)
    expect(single.text.match(/"json_ld":/g)).toHaveLength(1)
    expect(JSON.parse(single.text).json_ld).toMatchObject({ '@type': 'Person', name: 'Named Host' })
  })

  it('documents the extra fields in /doc', async () => {
    const doc = await send(`${root}/doc`)
    const body = doc.body.paths['/events'].post.requestBody.content['application/json'].schema
    expect(body.properties.capacity).toMatchObject({ type: 'number' })
    expect(body.properties.audience).toMatchObject({ enum: ['adults', 'families'] })
    expect(body.properties.dressCode).toMatchObject({ type: 'string' })
    expect(body.properties.accessibility).toMatchObject({
      type: 'array',
      items: { enum: ['captions', 'signing', 'step-free'] },
    })
    expect(body.properties.performers).toMatchObject({
      type: 'array',
      items: { type: 'object', properties: { headliner: { type: 'boolean' } } },
    })
    expect(body.properties.extras.items.oneOf).toMatchObject([
      { properties: { blockType: { const: 'note' }, text: { type: 'string' } } },
      { properties: { blockType: { const: 'tickets' }, seats: { type: 'number' } } },
    ])
    const venueBody = doc.body.paths['/venues'].post.requestBody.content['application/json'].schema
    const categoryBody =
      doc.body.paths['/categories'].post.requestBody.content['application/json'].schema
    expect(categoryBody.properties.colour).toMatchObject({ type: 'string' })
    expect(venueBody.properties.access).toMatchObject({
      type: 'object',
      properties: { ramp: { type: 'boolean' } },
    })
    // Neither a field Payload's APIs hide nor one whose value is made when read is a write's parameter.
    expect(Object.keys(venueBody.properties)).not.toContain('badge')
    expect(JSON.stringify(doc.body)).not.toContain('auditRef')
    expect(doc.body.servers[0].url).toMatch(new RegExp(`/api/${BARE_NAMESPACE}$`))
  })

  it('gets the calendar’s own schema with the pushed one: the change feed and term counts follow its writes', async () => {
    const since = (await send(`${root}/changes?since=now`)).body.next_cursor as string
    const category = await send(`${root}/categories`, {
      method: 'POST',
      auth: true,
      json: { name: 'Pushed' },
    })
    expect(category.status).toBe(201)
    const event = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: {
        title: 'Counted',
        start_date: '2031-05-01 19:00:00',
        end_date: '2031-05-01 21:00:00',
        categories: [category.body.id],
        status: 'publish',
      },
    })
    expect(event.status).toBe(201)
    const changes = (await send(`${root}/changes?since=${since}`)).body.changes as {
      type: string
      id: number
    }[]
    expect(changes.map(({ type, id }) => ({ type, id }))).toEqual([
      { type: 'category', id: category.body.id },
      { type: 'event', id: event.body.id },
    ])
    expect((await send(`${root}/categories/${category.body.id}`)).body.count).toBe(1)
  })

  it('signs a user in by token with every field of the users collection, the developer’s too, as Payload’s own strategies read them', async () => {
    const { id } = (await send('/api/users/me', { auth: true })).body.user as { id: number }
    const apiKey = 'bare-api-key-0123456789abcdef'
    const updated = await send(`/api/users/${id}`, {
      method: 'PATCH',
      auth: true,
      json: {
        phone: '+33 1 23 45 67 89',
        joinedOn: '2020-02-02T10:00:00.000Z',
        newsletter: true,
        enableAPIKey: true,
        apiKey,
      },
    })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    const byToken = (await send('/api/signed-in-user', { auth: true })).body
    const byKey: unknown = await (
      await fetch(`${app.url}/api/signed-in-user`, {
        headers: { Authorization: `users API-Key ${apiKey}` },
      })
    ).json()
    expect(byToken).toMatchObject({
      id,
      _strategy: 'local-jwt',
      phone: '+33 1 23 45 67 89',
      joinedOn: '2020-02-02T10:00:00.000Z',
      newsletter: true,
      hasAPIKey: true,
    })
    expect(byKey).toMatchObject({ id, _strategy: 'api-key' })
    // The same user but for what names the way in: the strategy and, for a token, its session.
    const signedInUser = (user: unknown) => {
      const { _strategy, _sid, ...fields } = user as Record<string, unknown>
      return fields
    }
    expect(signedInUser(byToken)).toEqual(signedInUser(byKey))
  })

  it('signs no one in with the token of a user moved to the trash, as Payload’s own strategy', async () => {
    const account = { email: 'trashed@bare.test', password: 'bare-password-2' }
    const created = await send('/api/users', { method: 'POST', auth: true, json: account })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const login = await send('/api/users/login', { method: 'POST', json: account })
    const asTrashed = async () =>
      (
        await fetch(`${app.url}/api/signed-in-user`, {
          headers: { Authorization: `JWT ${login.body.token as string}` },
        })
      ).json() as Promise<{ id?: number; _strategy?: string } | null>
    expect(await asTrashed()).toMatchObject({ id: created.body.doc.id, _strategy: 'local-jwt' })
    const trashed = await send(`/api/users/${created.body.doc.id as number}`, {
      method: 'PATCH',
      auth: true,
      json: { deletedAt: new Date().toISOString() },
    })
    expect(trashed.status, JSON.stringify(trashed.body)).toBe(200)
    expect(await asTrashed()).toBeNull()
  })

  it('refuses a user in the trash as an event’s author, as one that does not exist, and takes them back once restored', async () => {
    const account = { email: 'trashed-author@bare.test', password: 'bare-password-3' }
    const created = await send('/api/users', { method: 'POST', auth: true, json: account })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = created.body.doc.id as number
    const setDeletedAt = async (deletedAt: string | null) =>
      expect(
        (
          await send(`/api/users/${id}?trash=true`, {
            method: 'PATCH',
            auth: true,
            json: { deletedAt },
          })
        ).status,
      ).toBe(200)
    const event = {
      title: 'Hosted by someone gone',
      start_date: '2031-04-01 19:00:00',
      end_date: '2031-04-01 21:00:00',
      author: id,
    }
    await setDeletedAt(new Date().toISOString())
    const refused = await send(`${root}/events`, { method: 'POST', auth: true, json: event })
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    expect(refused.body.data.params.author).toBe(`No such author: ${id}.`)
    await setDeletedAt(null)
    const taken = await send(`${root}/events`, { method: 'POST', auth: true, json: event })
    expect(taken.status, JSON.stringify(taken.body)).toBe(201)
    expect(taken.body.author).toBe(String(id))
  })

  it('refuses a user in the trash as an event’s author through Payload’s REST and GraphQL too, naming `author`, and keeps a link made before the trash', async () => {
    const account = { email: 'trashed-payload-author@bare.test', password: 'bare-password-4' }
    const created = await send('/api/users', { method: 'POST', auth: true, json: account })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = created.body.doc.id as number
    const setDeletedAt = async (deletedAt: string | null) =>
      expect(
        (
          await send(`/api/users/${id}?trash=true`, {
            method: 'PATCH',
            auth: true,
            json: { deletedAt },
          })
        ).status,
      ).toBe(200)
    const tag = `Authored by the trashed ${Date.now()}`
    const event = (title: string) => ({
      title: `${tag} ${title}`,
      start: '2031-04-02T19:00:00Z',
      end: '2031-04-02T21:00:00Z',
      author: id,
    })
    const viaRest = (title: string) =>
      send('/api/events', { method: 'POST', auth: true, json: event(title) })
    const viaGraphql = (title: string) =>
      send('/api/graphql', {
        method: 'POST',
        auth: true,
        json: {
          query: `mutation { createEvent(data: { title: ${JSON.stringify(`${tag} ${title}`)}, start: "2031-04-02T19:00:00Z", end: "2031-04-02T21:00:00Z", status: draft, author: ${id} }) { id author { id } } }`,
        },
      })
    const before = await viaRest('before')
    expect(before.status, JSON.stringify(before.body)).toBe(201)

    await setDeletedAt(new Date().toISOString())
    const refused = await viaRest('refused')
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    expect(refused.body.errors[0].data.errors).toEqual([
      expect.objectContaining({ path: 'author', message: expect.stringContaining(`${id}`) }),
    ])
    const refusedGraphql = await viaGraphql('refused in GraphQL')
    expect(
      refusedGraphql.body.data?.createEvent ?? null,
      JSON.stringify(refusedGraphql.body),
    ).toBeNull()
    expect(refusedGraphql.body.errors?.[0]?.extensions?.data?.errors).toEqual([
      expect.objectContaining({ path: 'author', message: expect.stringContaining(`${id}`) }),
    ])
    // An event that had them before keeps them through an edit of anything else.
    const kept = await send(`/api/events/${before.body.doc.id as number}`, {
      method: 'PATCH',
      auth: true,
      json: { title: `${tag} kept` },
    })
    expect(kept.status, JSON.stringify(kept.body)).toBe(200)

    await setDeletedAt(null)
    const taken = await viaRest('taken')
    expect(taken.status, JSON.stringify(taken.body)).toBe(201)
    expect(taken.body.doc.author).toMatchObject({ id })
    const takenGraphql = await viaGraphql('taken in GraphQL')
    expect(takenGraphql.body.data?.createEvent?.author, JSON.stringify(takenGraphql.body)).toEqual({
      id,
    })
    const stored = await send(
      `/api/events?where[title][like]=${encodeURIComponent(tag)}&sort=title&limit=10`,
      { auth: true },
    )
    expect(stored.body.docs.map((doc: { title: string }) => doc.title)).toEqual(
      ['kept', 'taken', 'taken in GraphQL'].map((title) => `${tag} ${title}`),
    )
  })

  it('stores a UTF-16 import as UTF-8 in an app that keeps uploads in temporary files', async () => {
    const csv = 'Event Name,Event Start Date\nCafé “Noël”,2033-01-01\n'
    const form = new FormData()
    const bytes = new Uint8Array(Buffer.from(`\ufeff${csv}`, 'utf16le'))
    form.append('file', new Blob([bytes], { type: 'text/csv' }), `utf16-${Date.now()}.csv`)
    form.append('_payload', JSON.stringify({}))
    const headers = { Authorization: `JWT ${token}` }
    const created = await fetch(`${app.url}/api/imports`, { method: 'POST', headers, body: form })
    const body = await created.json()
    expect(created.status, JSON.stringify(body)).toBe(201)
    const stored = await fetch(`${app.url}/api/imports/file/${body.doc.filename}`, { headers })
    expect(stored.status).toBe(200)
    expect(await stored.text()).toBe(csv)
  })

  it("has a developer's own collection's updates take turns, whatever its slug: one that waited for the row keeps what the writer before it stored", async () => {
    const made = await send('/api/APIKeys', {
      method: 'POST',
      auth: true,
      json: { label: 'first', uses: 1 },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const { id } = made.body.doc
    const updated = await changedWhileWaiting(
      app.databaseUrl,
      { table: 'a_p_i_keys', id },
      ['update a_p_i_keys set uses = 2 where id = $1', [id]],
      () => send(`/api/APIKeys/${id}`, { method: 'PATCH', auth: true, json: { label: 'second' } }),
    )
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    expect((await send(`/api/APIKeys/${id}`, { auth: true })).body).toMatchObject({
      label: 'second',
      uses: 2,
    })
  })

  it('offers only the languages the developer chose', async () => {
    expect((await send(`${root}/events?i18n_language=fr`)).status).toBe(200)
    const german = await send(`${root}/events?i18n_language=de`)
    expect(german.status).toBe(400)
    expect(german.body.data.params).toHaveProperty('i18n_language')
  })

  it('answers a method no route serves (TRACE, PROPFIND) in JSON, as the calendar’s own server: 404 under its namespace, else 405', async () => {
    for (const method of ['TRACE', 'PROPFIND']) {
      for (const [path, status, code] of [
        [`${root}/events`, 404, 'rest_no_route'],
        [`/fr${root}/events`, 404, 'rest_no_route'],
        ['/api/users', 405, 'rest_method_not_allowed'],
      ] as const) {
        const reply = await rawRequest(method, path, {}, app.url)
        expect({ method, path, status: reply.status }).toEqual({ method, path, status })
        expect(JSON.parse(reply.text)).toMatchObject({ code, data: { status } })
      }
    }
    expect((await send(`${root}/events`)).status).toBe(200)
  })
})

describe('the namespace when its database fails', () => {
  const event = (title: string) => ({
    title,
    start_date: '2031-04-01 19:00:00',
    end_date: '2031-04-01 22:00:00',
  })

  it('does not take a signed-in caller for anonymous (401) because its user lookup lost the connection', async () => {
    // The user lookup's statement, not another reading users (a write's check of its links to
    // users in the trash): the instance's revision listener talks through the link too.
    const lookupLost = link.resetNextSend(/select json_build_object\('id', "users"\."id"/i)
    const created = await send(`${root}/events`, {
      method: 'POST',
      auth: true,
      json: event('Lookup lost'),
    })
    // The answer is the same when the lookup keeps its connection.
    expect(lookupLost.fired()).toBe(true)
    expect(created.status).toBe(201)
  })

  // The statements, whose text ends with NUL on the wire (the titles of these tests avoid the words).
  const BEGIN = /\bbegin\0/i
  const COMMIT = /\bcommit( and chain)?\0/i

  async function expectUnavailableAndNothingStored(title: string, statement: RegExp) {
    link.resetNextSend(statement)
    const lost = await send(`${root}/events`, { method: 'POST', auth: true, json: event(title) })
    // The whole answer, so that a failure shows what was served instead.
    expect({ status: lost.status, body: lost.body }).toMatchObject({
      status: 503,
      body: { code: 'rest_database_unavailable', data: { status: 503 } },
    })
    expect(lost.headers.get('Retry-After')).toBe('5')
    const found = await send(
      `${root}/events?search=${encodeURIComponent(title)}&start_date=2031-04-01&end_date=2031-04-02`,
    )
    expect(found.body.total).toBe(0)
  }

  it('answers a write whose connection dies mid-transaction with a 503, and leaves nothing of it behind', async () => {
    await expectUnavailableAndNothingStored('Lost mid-write', /insert into "events"/i)
  })

  it('answers a write whose connection dies at BEGIN with a 503, however the adapter wraps the error', async () => {
    await expectUnavailableAndNothingStored('Lost opening', BEGIN)
  })

  it('answers a write whose connection dies at COMMIT with a 503: the adapter swallows a failed COMMIT, and the write was lost', async () => {
    await expectUnavailableAndNothingStored('Lost closing', COMMIT)
  })

  it('gives the connections of failed BEGINs back to the pool: more failures than the pool has connections, then writes work', async () => {
    for (let n = 0; n < 12; n++) {
      link.resetNextSend(BEGIN)
      expect(
        (
          await send(`${root}/events`, {
            method: 'POST',
            auth: true,
            json: event(`Opening lost ${n}`),
          })
        ).status,
      ).toBe(503)
    }
    expect(
      (
        await send(`${root}/events`, {
          method: 'POST',
          auth: true,
          json: event('After lost begins'),
        })
      ).status,
    ).toBe(201)
  })

  it('answers Payload’s own REST with a 503 and Retry-After too when a write loses its connection, storing nothing', async () => {
    link.resetNextSend(BEGIN)
    const lost = await send('/api/events', {
      method: 'POST',
      auth: true,
      json: {
        title: 'Lost through Payload',
        start: '2031-04-01T19:00:00Z',
        end: '2031-04-01T22:00:00Z',
      },
    })
    expect(lost.status).toBe(503)
    expect(lost.headers.get('Retry-After')).toBe('5')
    expect(lost.body.errors[0].message).toMatch(/database is unavailable/)
    const found = await send(
      `/api/events?where[title][equals]=${encodeURIComponent('Lost through Payload')}`,
      { auth: true },
    )
    expect(found.body.totalDocs).toBe(0)
  })

  it('answers Payload’s own REST with a 503 when a write’s connection dies at COMMIT, storing nothing: its adapter swallowed the failure and answered 201', async () => {
    link.resetNextSend(COMMIT)
    const lost = await send('/api/events', {
      method: 'POST',
      auth: true,
      json: {
        title: 'Closing lost through Payload',
        start: '2031-04-01T19:00:00Z',
        end: '2031-04-01T22:00:00Z',
      },
    })
    expect({ status: lost.status, body: lost.body }).toMatchObject({
      status: 503,
      body: { errors: [{ message: expect.stringMatching(/database is unavailable/) }] },
    })
    const found = await send(
      `/api/events?where[title][equals]=${encodeURIComponent('Closing lost through Payload')}`,
      { auth: true },
    )
    expect(found.body.totalDocs).toBe(0)
  })

  it('answers 503 with the envelope while the database is down, to every caller, and recovers by itself', async () => {
    await link.down()
    try {
      const answers = [
        await send(`${root}/events`),
        await send(`${root}/events`, { method: 'POST', auth: true, json: event('While down') }),
        await send('/api/health'),
        await send('/api/events?limit=1', { auth: true }),
      ]
      expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503])
      for (const answer of answers) expect(answer.headers.get('Retry-After')).toBe('5')
      expect(
        answers.slice(0, 2).map((answer) => [answer.body.code, answer.body.data.status]),
      ).toEqual([
        ['rest_database_unavailable', 503],
        ['rest_database_unavailable', 503],
      ])
    } finally {
      await link.up()
    }
    expect((await send(`${root}/events`)).status).toBe(200)
    expect(
      (await send(`${root}/events`, { method: 'POST', auth: true, json: event('After') })).status,
    ).toBe(201)
    expect((await send('/api/health')).status).toBe(200)
  })
})
