/**
 * The write side of `/venues` and `/organizers` (docs/api.md §2, §6.1, §6.5, §7;
 * docs/api.md §2, §3, §6.1, §11): create with de-duplication, partial update, trash, unlinking from events,
 * and the capability matrix with validation first.
 */
import { describe, expect, it } from 'vitest'
import { BASE_URL, call, unique, uploadImage, everyRole, NO_SUCH_ID } from '../support/api'
import { expectError, expectInvalidParam, expectMissing } from '../support/expectations'
import {
  api,
  createEventAs,
  createOrganizerAs,
  createVenueAs,
  formPairs,
  payloadDocs,
  readEvent,
} from '../support/writeFixtures'

const { admin, editor, author, contributor, subscriber } = await everyRole()

type Kind = 'venues' | 'organizers'
const KINDS = [
  { kind: 'venues' as Kind, singular: 'venue', nameKey: 'venue', create: createVenueAs },
  {
    kind: 'organizers' as Kind,
    singular: 'organizer',
    nameKey: 'organizer',
    create: createOrganizerAs,
  },
]

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe('POST /venues', () => {
  it('answers 201 with the venue object, keys in upstream order', async () => {
    const media = await uploadImage()
    const name = unique('Grand Hall ')
    const reply = await api('/venues', {
      method: 'POST',
      token: editor.token,
      json: {
        venue: name,
        description: '<p>A <strong>big</strong> hall</p><script>alert(1)</script>',
        excerpt: 'Big hall',
        image: media.id,
        address: '1 Main Street',
        city: 'Springfield',
        country: 'United States',
        state: 'IL',
        zip: '62701',
        phone: '+1 217 555 0100',
        website: 'https://hall.example/',
        geo_lat: 39.7817,
        geo_lng: -89.6501,
        show_map: false,
        show_map_link: 'yes',
      },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    const venue = reply.body
    const slug = name.toLowerCase().replace(' ', '-').replace(' ', '-')
    const host = new URL(BASE_URL).host
    expect(Object.keys(venue)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'venue',
      'description',
      'excerpt',
      'slug',
      'image',
      'address',
      'city',
      'country',
      'state',
      'zip',
      'phone',
      'website',
      'stateprovince',
      'geo_lat',
      'geo_lng',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ])
    expect(venue).toMatchObject({
      author: String(editor.id),
      status: 'publish',
      url: `${BASE_URL}/venue/${slug}/`,
      venue: name,
      description: '<p>A <strong>big</strong> hall</p>',
      excerpt: '<p>Big hall</p>',
      slug,
      address: '1 Main Street',
      city: 'Springfield',
      country: 'United States',
      state: 'IL',
      zip: '62701',
      phone: '+1 217 555 0100',
      website: 'https://hall.example/',
      stateprovince: 'IL',
      geo_lat: 39.7817,
      geo_lng: -89.6501,
      show_map: false,
      show_map_link: true,
      global_id: `${host}?id=${venue.id}`,
      global_id_lineage: [`${host}?id=${venue.id}`],
    })
    expect(venue.image).toMatchObject({ id: media.id, width: 4, height: 3, extension: 'png' })
    for (const key of ['date', 'date_utc', 'modified', 'modified_utc'])
      expect(venue[key]).toMatch(DATE)
    expect(venue).not.toHaveProperty('json_ld')
    expect(venue).not.toHaveProperty('rest_url')
  })

  it('omits empty fields and shows the map by default', async () => {
    const name = unique('Bare venue ')
    const venue = await createVenueAs(author.token, { venue: name, city: '', phone: '' })
    expect(Object.keys(venue)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'venue',
      'slug',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ])
    expect(venue).toMatchObject({
      venue: name,
      status: 'publish',
      author: String(author.id),
      show_map: true,
      show_map_link: true,
    })
  })

  describe('stateprovince', () => {
    it.each([
      ['the state in the US', { state: 'CA', province: 'Ignored', country: 'US' }, 'CA'],
      ['the state without a country', { state: 'TX' }, 'TX'],
      [
        'the province elsewhere',
        { state: 'Nope', province: 'Ontario', country: 'Canada' },
        'Ontario',
      ],
      ['the province alone', { province: 'Bavaria', country: 'Germany' }, 'Bavaria'],
      [
        'what was sent, when sent',
        { state: 'CA', country: 'US', stateprovince: 'California' },
        'California',
      ],
    ])('is derived as %s', async (_, fields, expected) => {
      expect((await createVenueAs(editor.token, fields)).stateprovince).toBe(expected)
    })
  })

  describe('show_map and show_map_link (upstream truthy strings)', () => {
    it.each([
      ['yes', true],
      ['Y', true],
      ['on', true],
      ['enable', true],
      ['Enabled', true],
      ['true', true],
      ['1', true],
      [true, true],
      [1, true],
      ['no', false],
      ['off', false],
      ['false', false],
      ['0', false],
      ['', false],
      [false, false],
      [0, false],
    ])('reads %j as %s', async (value, expected) => {
      const venue = await createVenueAs(editor.token, { show_map: value, show_map_link: value })
      expect({ show_map: venue.show_map, show_map_link: venue.show_map_link }).toEqual({
        show_map: expected,
        show_map_link: expected,
      })
    })
  })

  describe('geo_lat and geo_lng', () => {
    it('stores coordinates given as numbers or text', async () => {
      const reply = await api('/venues', {
        method: 'POST',
        token: editor.token,
        form: { venue: unique('Geo '), geo_lat: '48.8566', geo_lng: '-2.35' },
      })
      expect(reply.status).toBe(201)
      expect({ geo_lat: reply.body.geo_lat, geo_lng: reply.body.geo_lng }).toEqual({
        geo_lat: 48.8566,
        geo_lng: -2.35,
      })
    })

    it.each([
      ['geo_lat', 91],
      ['geo_lat', -90.5],
      ['geo_lng', 181],
      ['geo_lat', 'north'],
      ['geo_lng', '1,5'],
    ])('refuses %s=%j', async (field, value) => {
      expectInvalidParam(
        await api('/venues', {
          method: 'POST',
          token: editor.token,
          json: { venue: unique('Geo '), [field]: value },
        }),
        field,
      )
    })
  })

  it('reads form-urlencoded and multipart bodies', async () => {
    const formName = unique('Form venue ')
    const form = await api('/venues', {
      method: 'POST',
      token: editor.token,
      ...formPairs([
        ['venue', formName],
        ['city', 'Lyon'],
        ['country', 'France'],
        ['province', 'Rhône'],
      ]),
    })
    expect(form.status).toBe(201)
    expect(form.body).toMatchObject({ venue: formName, city: 'Lyon', stateprovince: 'Rhône' })
    const multipart = new FormData()
    const multiName = unique('Multipart venue ')
    multipart.append('venue', multiName)
    multipart.append('zip', '69001')
    multipart.append('show_map', 'no')
    const reply = await api('/venues', { method: 'POST', token: editor.token, body: multipart })
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({
      venue: multiName,
      zip: '69001',
      show_map: false,
      show_map_link: true,
    })
  })

  describe('de-duplication (docs/api.md §6.5)', () => {
    it('answers 201 with the existing venue for the same name and details', async () => {
      const name = unique('Dup venue ')
      const first = await createVenueAs(editor.token, { venue: name, city: 'Paris', zip: '75001' })
      const same = await api('/venues', {
        method: 'POST',
        token: editor.token,
        json: { venue: name, city: 'Paris', zip: '75001' },
      })
      expect(same.status).toBe(201)
      expect(same.body.id).toBe(first.id)
      expect(same.body).toEqual(first)
      expect(
        (await createVenueAs(editor.token, { venue: name.toUpperCase(), city: 'PARIS' })).id,
      ).toBe(first.id)
      expect((await createVenueAs(author.token, { venue: name })).id).toBe(first.id)
      expect(
        await payloadDocs('venues', `where[name][equals]=${encodeURIComponent(name)}`),
      ).toHaveLength(1)
    })

    it('creates a new venue when a detail differs', async () => {
      const name = unique('Dup venue ')
      const first = await createVenueAs(editor.token, { venue: name, city: 'Paris' })
      const other = await createVenueAs(editor.token, { venue: name, city: 'Lyon' })
      expect(other.id).not.toBe(first.id)
      expect(other.slug).toBe(`${first.slug}-2`)
      // A detail sent that the existing venues lack is a difference too.
      const phone = await createVenueAs(editor.token, { venue: name, phone: '555' })
      expect([first.id, other.id]).not.toContain(phone.id)
    })

    it('does not reuse a trashed venue', async () => {
      const name = unique('Dup venue ')
      const first = await createVenueAs(editor.token, { venue: name })
      await api(`/venues/${first.id}`, { method: 'DELETE', token: editor.token })
      const again = await createVenueAs(editor.token, { venue: name })
      expect(again.id).not.toBe(first.id)
      expect(again.status).toBe('publish')
    })
  })

  it('keeps a password but never returns it, and keeps the name visible', async () => {
    const name = unique('Locked venue ')
    const password = unique('pw')
    const venue = await createVenueAs(editor.token, {
      venue: name,
      password,
      address: '9 Secret Road',
    })
    expect(JSON.stringify(venue)).not.toContain(password)
    expect(venue.address).toBe('9 Secret Road')
    const anonymous = await api(`/venues/${venue.id}`)
    expect(anonymous.status).toBe(200)
    expect(anonymous.body.venue).toBe(name)
    expect(JSON.stringify(anonymous.body)).not.toContain('9 Secret Road')
    expect(JSON.stringify(anonymous.body)).not.toContain(password)
    const unlocked = await api(`/venues/${venue.id}?password=${password}`)
    expect(unlocked.body.address).toBe('9 Secret Road')
  })
})

describe('POST /organizers', () => {
  it('answers 201 with the organizer object, keys in upstream order', async () => {
    const media = await uploadImage()
    const name = unique('Promoter ')
    const reply = await api('/organizers', {
      method: 'POST',
      token: editor.token,
      json: {
        organizer: name,
        description: '<p>Runs <em>things</em></p>',
        excerpt: 'Runs things',
        image: media.id,
        phone: '555-0199',
        website: 'https://promoter.example',
        email: 'not-an-email',
      },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    const organizer = reply.body
    const slug = name.toLowerCase().replace(' ', '-')
    expect(Object.keys(organizer)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'organizer',
      'description',
      'excerpt',
      'slug',
      'image',
      'phone',
      'website',
      'email',
      'global_id',
      'global_id_lineage',
    ])
    expect(organizer).toMatchObject({
      author: String(editor.id),
      status: 'publish',
      url: `${BASE_URL}/organizer/${slug}/`,
      organizer: name,
      description: '<p>Runs <em>things</em></p>',
      excerpt: '<p>Runs things</p>',
      slug,
      phone: '555-0199',
      website: 'https://promoter.example',
      email: 'not-an-email',
    })
    expect(organizer.image).toMatchObject({ id: media.id })
  })

  it('omits empty fields', async () => {
    const organizer = await createOrganizerAs(editor.token, { email: '', phone: '' })
    expect(Object.keys(organizer)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'organizer',
      'slug',
      'global_id',
      'global_id_lineage',
    ])
  })

  it('de-duplicates on name, phone, email and website', async () => {
    const name = unique('Dup org ')
    const first = await createOrganizerAs(editor.token, { organizer: name, email: 'a@example.org' })
    const same = await api('/organizers', {
      method: 'POST',
      token: editor.token,
      form: { organizer: name, email: 'A@example.org' },
    })
    expect(same.status).toBe(201)
    expect(same.body.id).toBe(first.id)
    expect((await createOrganizerAs(editor.token, { organizer: name })).id).toBe(first.id)
    const other = await createOrganizerAs(editor.token, { organizer: name, email: 'b@example.org' })
    expect(other.id).not.toBe(first.id)
  })
})

describe.each(KINDS)('$kind: create rules', ({ kind, singular, nameKey, create }) => {
  it('requires the name', async () => {
    expectMissing(
      await api(`/${kind}`, { method: 'POST', token: editor.token, json: { phone: '555' } }),
      [nameKey],
    )
    expectMissing(await api(`/${kind}`, { method: 'POST', token: editor.token }), [nameKey])
    expectInvalidParam(
      await api(`/${kind}`, { method: 'POST', token: editor.token, json: { [nameKey]: '' } }),
      nameKey,
    )
  })

  it('validates the website', async () => {
    expect((await create(editor.token, { website: 'https://ok.example/path' })).website).toBe(
      'https://ok.example/path',
    )
    expect(await create(editor.token, { website: '' })).not.toHaveProperty('website')
    for (const website of ['foo', 'javascript:alert(1)', 'www.example.org']) {
      expectInvalidParam(
        await api(`/${kind}`, {
          method: 'POST',
          token: editor.token,
          json: { [nameKey]: unique(), website },
        }),
        'website',
      )
    }
  })

  it('removes a password when it is sent empty', async () => {
    const created = await create(editor.token, { password: 'to-remove', phone: '555-0123' })
    expect(JSON.stringify((await api(`/${kind}/${created.id}`)).body)).not.toContain('555-0123')
    expect(
      (
        await api(`/${kind}/${created.id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { password: '' },
        })
      ).status,
    ).toBe(200)
    expect((await api(`/${kind}/${created.id}`)).body.phone).toBe('555-0123')
  })

  it.each([
    ['contributor', 'publish', 'pending'],
    ['contributor', undefined, 'draft'],
    ['contributor', 'draft', 'draft'],
    ['author', undefined, 'publish'],
    ['author', 'draft', 'draft'],
    ['editor', undefined, 'publish'],
  ])('scales the status: %s asking for %s gets %s', async (role, status, expected) => {
    const user = { contributor, author, editor }[role as 'contributor' | 'author' | 'editor']
    expect((await create(user.token, status ? { status } : {})).status).toBe(expected)
  })

  it('lets editors choose the author, and ignores others who try', async () => {
    expect((await create(editor.token, { author: author.id })).author).toBe(String(author.id))
    expect((await create(author.token, { author: editor.id })).author).toBe(String(author.id))
    expectInvalidParam(
      await api(`/${kind}`, {
        method: 'POST',
        token: editor.token,
        json: { [nameKey]: unique(), author: NO_SUCH_ID },
      }),
      'author',
    )
  })

  it('validates before checking permission: 400, then 401 anonymous and 403 subscriber', async () => {
    expectInvalidParam(
      await api(`/${kind}`, { method: 'POST', json: { [nameKey]: unique(), website: 'foo' } }),
      'website',
    )
    expectMissing(await api(`/${kind}`, { method: 'POST', token: subscriber.token, json: {} }), [
      nameKey,
    ])
    const name = unique(`Refused ${singular} `)
    expectError(
      await api(`/${kind}`, { method: 'POST', json: { [nameKey]: name } }),
      401,
      'rest_forbidden',
    )
    expectError(
      await api(`/${kind}`, { method: 'POST', token: subscriber.token, json: { [nameKey]: name } }),
      403,
      'rest_forbidden',
    )
    expect(await payloadDocs(kind, `where[name][equals]=${encodeURIComponent(name)}`)).toEqual([])
  })

  it('refuses malformed JSON', async () => {
    expectError(
      await api(`/${kind}`, {
        method: 'POST',
        token: editor.token,
        body: '{"x":',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'rest_invalid_json',
    )
  })

  it('keeps a slug sent on create', async () => {
    const slug = unique(`${singular}-slug-`)
    const reply = await api(`/${kind}`, {
      method: 'POST',
      token: editor.token,
      json: { [nameKey]: unique(), slug },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.slug).toBe(slug)
  })
})

describe.each(KINDS)('$kind: update', ({ kind, singular, nameKey, create }) => {
  it('is partial: omitted fields keep their values, an empty value clears a field', async () => {
    const created = await create(editor.token, {
      status: 'draft',
      phone: '555-0001',
      website: 'https://keep.example',
      description: '<p>Keep</p>',
      excerpt: 'Keep',
    })
    const renamed = unique(`Renamed ${singular} `)
    const reply = await api(`/${kind}/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { [nameKey]: renamed },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    const { modified: _m, modified_utc: _mu, [nameKey]: name, ...rest } = reply.body
    const { modified: _m2, modified_utc: _mu2, [nameKey]: _n, ...before } = created
    expect(name).toBe(renamed)
    expect(rest).toEqual(before)
    expect(rest.status).toBe('draft')

    const cleared = await api(`/${kind}/${created.id}`, {
      method: 'PUT',
      token: editor.token,
      json: { phone: '', website: '', description: '', excerpt: null },
    })
    expect(cleared.status).toBe(200)
    for (const key of ['phone', 'website', 'description', 'excerpt'])
      expect(cleared.body).not.toHaveProperty(key)
    expect(cleared.body[nameKey]).toBe(renamed)
  })

  it.each(['POST', 'PUT', 'PATCH'])('%s updates by id and by slug', async (method) => {
    const created = await create(editor.token)
    const byId = await api(`/${kind}/${created.id}`, {
      method,
      token: editor.token,
      json: { phone: `id ${method}` },
    })
    expect(byId.status).toBe(200)
    expect(byId.body.phone).toBe(`id ${method}`)
    const bySlug = await api(`/${kind}/by-slug/${created.slug}`, {
      method,
      token: editor.token,
      form: { phone: `slug ${method}` },
    })
    expect(bySlug.status).toBe(200)
    expect(bySlug.body).toMatchObject({ id: created.id, phone: `slug ${method}` })
  })

  it('validates updated fields', async () => {
    const created = await create(editor.token)
    expectInvalidParam(
      await api(`/${kind}/${created.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { [nameKey]: '' },
      }),
      nameKey,
    )
    expectInvalidParam(
      await api(`/${kind}/${created.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { website: 'foo' },
      }),
      'website',
    )
    expectInvalidParam(
      await api(`/${kind}/${created.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { status: 'gone' },
      }),
      'status',
    )
  })

  it('answers 400 for an unknown id or slug to those who may write, after the permission check', async () => {
    for (const token of [contributor.token, editor.token, admin]) {
      expectInvalidParam(
        await api(`/${kind}/${NO_SUCH_ID}`, { method: 'PATCH', token, json: { phone: '1' } }),
        'id',
      )
      expectInvalidParam(
        await api(`/${kind}/by-slug/${unique('no-')}`, {
          method: 'PUT',
          token,
          json: { phone: '1' },
        }),
        'slug',
      )
    }
    for (const [token, status] of [
      [undefined, 401],
      [subscriber.token, 403],
    ] as const) {
      expectError(
        await api(`/${kind}/${NO_SUCH_ID}`, { method: 'PATCH', token, json: { phone: '1' } }),
        status,
        'rest_forbidden',
      )
      expectError(
        await api(`/${kind}/by-slug/${unique('no-')}`, {
          method: 'PUT',
          token,
          json: { phone: '1' },
        }),
        status,
        'rest_forbidden',
      )
    }
  })

  it('writes the French name with i18n_language=fr and leaves the English one', async () => {
    const created = await create(editor.token)
    const reply = await api(`/${kind}/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { i18n_language: 'fr', [nameKey]: `Salle ${created[nameKey]}` },
    })
    expect(reply.status).toBe(200)
    expect(reply.body[nameKey]).toBe(`Salle ${created[nameKey]}`)
    expect((await api(`/${kind}/${created.id}`)).body[nameKey]).toBe(created[nameKey])
    expect((await api(`/${kind}/${created.id}?i18n_language=fr`)).body[nameKey]).toBe(
      `Salle ${created[nameKey]}`,
    )
  })

  it('updates other fields in French without requiring a French name first', async () => {
    const created = await create(editor.token)
    const reply = await api(`/${kind}/${created.id}?i18n_language=fr`, {
      method: 'PATCH',
      token: editor.token,
      json: { phone: '555-0142' },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body).toMatchObject({ phone: '555-0142', [nameKey]: created[nameKey] })
  })

  describe('who may update', () => {
    it('lets contributors edit their own drafts only', async () => {
      const own = await create(contributor.token)
      expect(own.status).toBe('draft')
      expect(
        (
          await api(`/${kind}/${own.id}`, {
            method: 'PATCH',
            token: contributor.token,
            json: { phone: '1' },
          })
        ).status,
      ).toBe(200)
      expect(
        (
          await api(`/${kind}/${own.id}`, {
            method: 'PATCH',
            token: editor.token,
            json: { status: 'publish' },
          })
        ).body.status,
      ).toBe('publish')
      expectError(
        await api(`/${kind}/${own.id}`, {
          method: 'PATCH',
          token: contributor.token,
          json: { phone: '2' },
        }),
        403,
        'rest_forbidden',
      )
      const others = await create(editor.token, { status: 'draft' })
      expectError(
        await api(`/${kind}/${others.id}`, {
          method: 'PATCH',
          token: contributor.token,
          json: { phone: '3' },
        }),
        403,
        'rest_forbidden',
      )
    })

    it('lets authors edit their own, published or not, and nobody else’s', async () => {
      const own = await create(author.token)
      expect(own.status).toBe('publish')
      expect(
        (
          await api(`/${kind}/${own.id}`, {
            method: 'PUT',
            token: author.token,
            json: { phone: '1' },
          })
        ).status,
      ).toBe(200)
      const others = await create(editor.token)
      expectError(
        await api(`/${kind}/${others.id}`, {
          method: 'PUT',
          token: author.token,
          json: { phone: '2' },
        }),
        403,
        'rest_forbidden',
      )
      expectError(
        await api(`/${kind}/by-slug/${others.slug}`, {
          method: 'PUT',
          token: author.token,
          json: { phone: '2' },
        }),
        403,
        'rest_forbidden',
      )
      expect((await api(`/${kind}/${others.id}`, { token: admin })).body).not.toHaveProperty(
        'phone',
      )
    })

    it('lets editors edit anyone’s; refuses anonymous clients (401) and subscribers (403), after validation', async () => {
      const authors = await create(author.token)
      expect(
        (
          await api(`/${kind}/${authors.id}`, {
            method: 'PATCH',
            token: editor.token,
            json: { phone: 'ed' },
          })
        ).body.phone,
      ).toBe('ed')
      expectError(
        await api(`/${kind}/${authors.id}`, { method: 'PATCH', json: { phone: 'x' } }),
        401,
        'rest_forbidden',
      )
      expectError(
        await api(`/${kind}/${authors.id}`, {
          method: 'PATCH',
          token: subscriber.token,
          json: { phone: 'x' },
        }),
        403,
        'rest_forbidden',
      )
      expectInvalidParam(
        await api(`/${kind}/${authors.id}`, { method: 'PATCH', json: { website: 'foo' } }),
        'website',
      )
    })
  })
})

describe.each([
  ...KINDS,
  { kind: 'events', singular: 'event', nameKey: 'title', create: createEventAs },
])('$kind: renaming the slug', ({ kind, singular, create }) => {
  it.each(['POST', 'PUT', 'PATCH'])(
    '%s on by-slug/{slug} sets the body’s slug: the path names the item',
    async (method) => {
      const item = await create(editor.token)
      const slug = unique(`${singular}-renamed-`)
      const reply = await api(`/${kind}/by-slug/${item.slug}`, {
        method,
        token: editor.token,
        form: { slug, excerpt: `renamed by ${method}` },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body).toMatchObject({
        id: item.id,
        slug,
        url: `${BASE_URL}/${singular}/${slug}/`,
      })
      expect((await api(`/${kind}/by-slug/${slug}`)).body.id).toBe(item.id)
      expectInvalidParam(await api(`/${kind}/by-slug/${item.slug}`), 'slug')
    },
  )

  it('keeps the slug when the body has none, and accepts the item’s own slug', async () => {
    const item = await create(editor.token)
    expect(
      (
        await api(`/${kind}/by-slug/${item.slug}`, {
          method: 'PATCH',
          token: editor.token,
          json: { excerpt: 'same slug' },
        })
      ).body.slug,
    ).toBe(item.slug)
    expect(
      (
        await api(`/${kind}/by-slug/${item.slug}`, {
          method: 'PATCH',
          token: editor.token,
          json: { slug: item.slug },
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await api(`/${kind}/${item.id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { slug: item.slug },
        })
      ).body.slug,
    ).toBe(item.slug)
  })

  it('refuses a slug another item has in the language with 400 naming slug, by slug and by id alike, changing nothing', async () => {
    const [item, other] = [await create(editor.token), await create(editor.token)]
    for (const path of [`/${kind}/by-slug/${item.slug}`, `/${kind}/${item.id}`]) {
      const reply = await api(path, {
        method: 'PATCH',
        token: editor.token,
        json: { slug: other.slug, excerpt: 'not written' },
      })
      expectInvalidParam(reply, 'slug')
      // Permission before the checks against stored data: the taken slug is news only to writers.
      expectError(
        await api(path, { method: 'PATCH', json: { slug: other.slug } }),
        401,
        'rest_forbidden',
      )
    }
    const stored = await api(`/${kind}/${item.id}`)
    expect(stored.body.slug).toBe(item.slug)
    expect(stored.body.excerpt ?? '').toBe('')
    expect((await api(`/${kind}/${other.id}`)).body.slug).toBe(other.slug)
    expectInvalidParam(
      await api(`/${kind}/by-slug/${item.slug}`, {
        method: 'PATCH',
        token: editor.token,
        json: { slug: '' },
      }),
      'slug',
    )
  })

  it('renames in the request language only, where the slug may repeat another language’s', async () => {
    const [item, other] = [await create(editor.token), await create(editor.token)]
    const french = unique(`${singular}-fr-`)
    const reply = await call(`/fr/api/cal/events/v1/${kind}/by-slug/${item.slug}`, {
      method: 'PATCH',
      token: editor.token,
      json: { slug: french },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.slug).toBe(french)
    expect((await api(`/${kind}/${item.id}`)).body.slug).toBe(item.slug)
    const taken = await api(`/${kind}/by-slug/${other.slug}?i18n_language=fr`, {
      method: 'PATCH',
      token: editor.token,
      json: { slug: item.slug },
    })
    expect(taken.status, JSON.stringify(taken.body)).toBe(200)
    expect(taken.body.slug).toBe(item.slug)
    expect((await api(`/${kind}/${other.id}`)).body.slug).toBe(other.slug)
  })
})

describe('venues: update specifics', () => {
  it('keeps show_map, coordinates and status when they are not sent', async () => {
    const created = await createVenueAs(editor.token, {
      status: 'draft',
      show_map: false,
      show_map_link: false,
      geo_lat: 10.5,
      geo_lng: 20.25,
    })
    const reply = await api(`/venues/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { city: 'Madrid' },
    })
    expect(reply.body).toMatchObject({
      status: 'draft',
      show_map: false,
      show_map_link: false,
      geo_lat: 10.5,
      geo_lng: 20.25,
      city: 'Madrid',
    })
    const cleared = await api(`/venues/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { geo_lat: '', geo_lng: '', show_map: 'yes' },
    })
    expect(cleared.body).not.toHaveProperty('geo_lat')
    expect(cleared.body).not.toHaveProperty('geo_lng')
    expect(cleared.body.show_map).toBe(true)
  })
})

describe.each(KINDS)('$kind: trash', ({ kind, singular, create }) => {
  it(`moves the ${singular} to the trash, then answers 410 ${singular}-is-in-trash`, async () => {
    const created = await create(editor.token)
    const reply = await api(`/${kind}/${created.id}`, { method: 'DELETE', token: editor.token })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ id: created.id, status: 'trash', slug: created.slug })
    const again = await api(`/${kind}/${created.id}`, { method: 'DELETE', token: editor.token })
    expect(again.body).toEqual({
      code: `${singular}-is-in-trash`,
      message: `The ${singular} is already trashed`,
      data: { status: 410 },
    })
    expectError(
      await api(`/${kind}/${created.id}?force=true`, { method: 'DELETE', token: admin }),
      410,
      `${singular}-is-in-trash`,
    )
    const stored = await call(`/api/${kind}/${created.id}?depth=0`, { token: admin })
    expect(stored.body.status).toBe('trash')
    expectError(await api(`/${kind}/${created.id}`), 403, `${singular}-not-accessible`)
  })

  it('trashes by slug, and ignores force', async () => {
    const created = await create(editor.token)
    const reply = await api(`/${kind}/by-slug/${created.slug}?force=true`, {
      method: 'DELETE',
      token: editor.token,
    })
    expect(reply.status).toBe(200)
    expect(reply.body.status).toBe('trash')
    expect((await call(`/api/${kind}/${created.id}?depth=0`, { token: admin })).status).toBe(200)
  })

  it('answers 400 for an unknown id to those who may write, after the permission check', async () => {
    expectInvalidParam(
      await api(`/${kind}/${NO_SUCH_ID}`, { method: 'DELETE', token: editor.token }),
      'id',
    )
    expectInvalidParam(
      await api(`/${kind}/by-slug/${unique('no-')}`, { method: 'DELETE', token: editor.token }),
      'slug',
    )
    expectError(
      await api(`/${kind}/${NO_SUCH_ID}`, { method: 'DELETE', token: subscriber.token }),
      403,
      'rest_forbidden',
    )
    expectError(await api(`/${kind}/${NO_SUCH_ID}`, { method: 'DELETE' }), 401, 'rest_forbidden')
    expectError(
      await api(`/${kind}/by-slug/${unique('no-')}`, { method: 'DELETE' }),
      401,
      'rest_forbidden',
    )
  })

  it('follows the capability matrix', async () => {
    const editors = await create(editor.token, { status: 'draft' })
    expectError(await api(`/${kind}/${editors.id}`, { method: 'DELETE' }), 401, 'rest_forbidden')
    expectError(
      await api(`/${kind}/${editors.id}`, { method: 'DELETE', token: subscriber.token }),
      403,
      'rest_forbidden',
    )
    expectError(
      await api(`/${kind}/${editors.id}`, { method: 'DELETE', token: contributor.token }),
      403,
      'rest_forbidden',
    )
    expectError(
      await api(`/${kind}/${editors.id}`, { method: 'DELETE', token: author.token }),
      403,
      'rest_forbidden',
    )
    expect((await api(`/${kind}/${editors.id}`, { token: admin })).body.status).toBe('draft')

    const contributors = await create(contributor.token)
    expect(
      (await api(`/${kind}/${contributors.id}`, { method: 'DELETE', token: contributor.token }))
        .body.status,
    ).toBe('trash')
    const authors = await create(author.token)
    expect(
      (await api(`/${kind}/${authors.id}`, { method: 'DELETE', token: author.token })).body.status,
    ).toBe('trash')
    const authors2 = await create(author.token)
    expect(
      (await api(`/${kind}/${authors2.id}`, { method: 'DELETE', token: editor.token })).body.status,
    ).toBe('trash')
  })
})

describe('trashing unlinks from events', () => {
  it('a trashed venue leaves its events with venue []', async () => {
    const venue = await createVenueAs(editor.token)
    const first = await createEventAs(editor.token, { venue: venue.id })
    const second = await createEventAs(author.token, { venue: venue.id })
    expect(first.venue.id).toBe(venue.id)
    expect(
      (await api(`/venues/${venue.id}`, { method: 'DELETE', token: editor.token })).status,
    ).toBe(200)
    expect((await readEvent(first.id)).venue).toEqual([])
    expect((await readEvent(second.id)).venue).toEqual([])
    expect(
      (await call(`/api/events/${first.id}?depth=0`, { token: admin })).body.venue ?? null,
    ).toBeNull()
    expect((await api(`/venues?event=${first.id}`, { token: admin })).body.venues).toEqual([])
  })

  it('a trashed organizer leaves the events’ organizer lists, the others staying in order', async () => {
    const [a, b, c] = [
      await createOrganizerAs(editor.token),
      await createOrganizerAs(editor.token),
      await createOrganizerAs(editor.token),
    ]
    const event = await createEventAs(editor.token, { organizer: [a.id, b.id, c.id] })
    const other = await createEventAs(editor.token, { organizer: [b.id] })
    expect(
      (await api(`/organizers/${b.id}`, { method: 'DELETE', token: editor.token })).status,
    ).toBe(200)
    expect(
      (await readEvent(event.id)).organizer.map((organizer: { id: number }) => organizer.id),
    ).toEqual([a.id, c.id])
    expect((await readEvent(other.id)).organizer).toEqual([])
  })
})

describe('trashing with a language set', () => {
  it.each(KINDS)(
    'trashes $kind and unlinks them from English-only events',
    async ({ kind, create }) => {
      const item = await create(editor.token)
      const event = await createEventAs(
        editor.token,
        kind === 'venues' ? { venue: item.id } : { organizer: [item.id] },
      )
      const reply = await api(`/${kind}/${item.id}?i18n_language=fr`, {
        method: 'DELETE',
        token: editor.token,
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body.status).toBe('trash')
      const after = await readEvent(event.id)
      expect(kind === 'venues' ? after.venue : after.organizer).toEqual([])
    },
  )
})

describe('inline venues and organizers through events', () => {
  it('are created with the event’s status and the writer as author', async () => {
    const name = unique('Inline ')
    const event = await createEventAs(author.token, {
      status: 'draft',
      venue: { venue: `${name} venue` },
      organizer: [{ organizer: `${name} org` }],
    })
    expect(event.venue).toMatchObject({
      venue: `${name} venue`,
      status: 'draft',
      author: String(author.id),
    })
    expect(event.organizer[0]).toMatchObject({
      organizer: `${name} org`,
      status: 'draft',
      author: String(author.id),
    })
    const listed = await api(`/organizers?search=${encodeURIComponent(name)}`, { token: admin })
    expect(listed.body.organizers.map((organizer: { id: number }) => organizer.id)).toEqual([
      event.organizer[0].id,
    ])
  })

  it('are not created for clients who may not create them', async () => {
    const name = unique('Inline refused ')
    expectError(
      await api('/events', {
        method: 'POST',
        token: subscriber.token,
        json: {
          title: name,
          start_date: '2030-01-01',
          end_date: '2030-01-02',
          organizer: [{ organizer: name }],
        },
      }),
      403,
      'rest_forbidden',
    )
    expect(
      await payloadDocs('organizers', `where[name][equals]=${encodeURIComponent(name)}`),
    ).toEqual([])
  })
})
