/**
 * `GET /events/{id}` and `GET /events/by-slug/{slug}` (docs/api.md §3, §5, §11; docs/api.md §3, §4.2, §9, §11):
 * the event object key for key, dates and zones, cost, embedded venue/organizer/terms, and the
 * decision sequence of a single read (not found, trashed, not accessible, password).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, call, ROOT, type TestUser, unique, userWithRole } from '../support/api'
import { expectError } from '../support/expectations'
import {
  changeSettings,
  createCategory,
  createEvent,
  createOrganizer,
  createTag,
  createVenue,
  ns,
  restoreSettings,
  richText,
  translateEvent,
} from '../support/fixtures'
import { EVENT_KEYS as WRITTEN_EVENT_KEYS } from '../support/writeFixtures'

/** A single read's keys: a written event's, then `json_ld`. */
const EVENT_KEYS = [...WRITTEN_EVENT_KEYS, 'json_ld']

const TERM_KEYS = [
  'name',
  'slug',
  'term_group',
  'term_taxonomy_id',
  'taxonomy',
  'description',
  'parent',
  'count',
  'filter',
  'id',
  'urls',
]
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
const HOST = new URL(BASE_URL).host

function details(wall: string) {
  const [, year, month, day, hour, minutes, seconds] =
    /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(wall)!
  return { year, month, day, hour, minutes, seconds }
}

const globalId = (id: number) => `${HOST}?id=${id}`

let adminId: number
let editor: TestUser
let subscriber: TestUser

beforeAll(async () => {
  const me = await call('/api/users/me', { token: await asAdmin() })
  adminId = me.body.user.id
  editor = await userWithRole('editor')
  subscriber = await userWithRole('subscriber')
})

describe('the event object', () => {
  const tag = unique('single')
  const venueName = `${tag} Hall`
  const organizerName = `${tag} Society`
  let event: { id: number; slug: string }
  let venue: { id: number; slug: string }
  let organizer: { id: number; slug: string }
  let parentCategory: { id: number; slug: string; name: string }
  let childCategory: { id: number; slug: string; name: string }
  let eventTag: { id: number; slug: string; name: string }

  beforeAll(async () => {
    venue = (await createVenue({ name: venueName, city: 'Lyon' })) as never
    organizer = (await createOrganizer({
      name: organizerName,
      email: 'hello@society.example',
    })) as never
    parentCategory = (await createCategory({
      name: `${tag} beta`,
      description: 'Parent category',
    })) as never
    childCategory = (await createCategory({
      name: `${tag} alpha`,
      parent: parentCategory.id,
    })) as never
    eventTag = (await createTag({ name: `${tag} outdoor` })) as never
    event = (await createEvent({
      title: `${tag} Spring Gala`,
      start: '2031-03-04T09:05:07.000Z',
      end: '2031-03-04T11:00:00.000Z',
      publishedAt: '2030-01-02T03:04:05.000Z',
      description: richText('Hello world'),
      excerpt: 'Short text',
      cost: ['30', '0', '20'],
      currencySymbol: '$',
      currencyPosition: 'postfix',
      venue: venue.id,
      organizers: [organizer.id],
      categories: [parentCategory.id, childCategory.id],
      tags: [eventTag.id],
    })) as never
  })

  it('has upstream’s keys in upstream’s order (docs/api.md §3.1), json_ld last', async () => {
    const reply = await ns(`/events/${event.id}`)
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body)).toEqual(EVENT_KEYS)
  })

  it('has the values and loose types of upstream', async () => {
    const { body } = await ns(`/events/${event.id}`)
    const slug = `${tag}-spring-gala`
    const url = `${BASE_URL}/event/${slug}/`
    expect(body).toMatchObject({
      id: event.id,
      global_id: globalId(event.id),
      global_id_lineage: [globalId(event.id)],
      author: String(adminId),
      status: 'publish',
      date: '2030-01-02 03:04:05',
      date_utc: '2030-01-02 03:04:05',
      url,
      rest_url: `${ROOT}/events/${event.id}`,
      title: `${tag} Spring Gala`,
      description: '<p>Hello world</p>',
      excerpt: '<p>Short text</p>',
      slug,
      image: false,
      all_day: false,
      start_date: '2031-03-04 09:05:07',
      start_date_details: {
        year: '2031',
        month: '03',
        day: '04',
        hour: '09',
        minutes: '05',
        seconds: '07',
      },
      end_date: '2031-03-04 11:00:00',
      end_date_details: {
        year: '2031',
        month: '03',
        day: '04',
        hour: '11',
        minutes: '00',
        seconds: '00',
      },
      utc_start_date: '2031-03-04 09:05:07',
      utc_start_date_details: {
        year: '2031',
        month: '03',
        day: '04',
        hour: '09',
        minutes: '05',
        seconds: '07',
      },
      utc_end_date: '2031-03-04 11:00:00',
      utc_end_date_details: {
        year: '2031',
        month: '03',
        day: '04',
        hour: '11',
        minutes: '00',
        seconds: '00',
      },
      timezone: 'UTC',
      timezone_abbr: 'UTC',
      cost: 'Free – 30$',
      cost_details: {
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'postfix',
        values: ['0', '20', '30'],
      },
      website: url,
      show_map: true,
      show_map_link: true,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      custom_fields: [],
    })
    expect(body.cost).toContain('\u2013')
    expect(body.modified).toMatch(WALL_CLOCK)
    expect(body.modified_utc).toBe(body.modified)
    expect(typeof body.author).toBe('string')
  })

  it('embeds categories and tags in the raw term shape, categories by name', async () => {
    const { body } = await ns(`/events/${event.id}`)
    expect(body.categories.map((term: Record<string, unknown>) => Object.keys(term))).toEqual([
      TERM_KEYS,
      TERM_KEYS,
    ])
    const [alpha, beta] = body.categories
    expect(alpha).toEqual({
      name: `${tag} alpha`,
      slug: childCategory.slug,
      term_group: 0,
      term_taxonomy_id: expect.any(Number),
      taxonomy: 'event_category',
      description: '',
      parent: parentCategory.id,
      count: 1,
      filter: 'raw',
      id: childCategory.id,
      urls: {
        self: `${ROOT}/categories/${childCategory.id}`,
        collection: `${ROOT}/categories`,
        up: `${ROOT}/categories/${parentCategory.id}`,
      },
    })
    expect(beta).toEqual({
      name: `${tag} beta`,
      slug: parentCategory.slug,
      term_group: 0,
      term_taxonomy_id: expect.any(Number),
      taxonomy: 'event_category',
      description: 'Parent category',
      parent: 0,
      count: 1,
      filter: 'raw',
      id: parentCategory.id,
      urls: { self: `${ROOT}/categories/${parentCategory.id}`, collection: `${ROOT}/categories` },
    })
    expect(body.tags).toEqual([
      {
        name: `${tag} outdoor`,
        slug: eventTag.slug,
        term_group: 0,
        term_taxonomy_id: expect.any(Number),
        taxonomy: 'event_tag',
        description: '',
        parent: 0,
        count: 1,
        filter: 'raw',
        id: eventTag.id,
        urls: { self: `${ROOT}/tags/${eventTag.id}`, collection: `${ROOT}/tags` },
      },
    ])
  })

  it('embeds the venue as an object without its empty fields, and the organizers as a list', async () => {
    const { body } = await ns(`/events/${event.id}`)
    expect(Array.isArray(body.venue)).toBe(false)
    expect(Object.keys(body.venue)).toEqual([
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
      'city',
      'json_ld',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ])
    expect(body.venue).toMatchObject({
      id: venue.id,
      author: String(adminId),
      status: 'publish',
      url: `${BASE_URL}/venue/${venue.slug}/`,
      venue: venueName,
      slug: venue.slug,
      city: 'Lyon',
      show_map: true,
      show_map_link: true,
      global_id: globalId(venue.id),
      global_id_lineage: [globalId(venue.id)],
    })
    expect(body.venue.date).toMatch(WALL_CLOCK)
    expect(body.organizer).toHaveLength(1)
    expect(Object.keys(body.organizer[0])).toEqual([
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
      'email',
      'json_ld',
      'global_id',
      'global_id_lineage',
    ])
    expect(body.organizer[0]).toMatchObject({
      id: organizer.id,
      url: `${BASE_URL}/organizer/${organizer.slug}/`,
      organizer: organizerName,
      email: 'hello@society.example',
      global_id: globalId(organizer.id),
    })
  })

  it('carries a schema.org json_ld on single reads only', async () => {
    const { body } = await ns(`/events/${event.id}`)
    expect(body.json_ld).toMatchObject({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: `${tag} Spring Gala`,
      url: body.url,
      startDate: '2031-03-04T09:05:07+00:00',
      endDate: '2031-03-04T11:00:00+00:00',
      performer: 'Organization',
    })
    expect(body.json_ld.location).toMatchObject({
      '@type': 'Place',
      name: venueName,
      url: `${BASE_URL}/venue/${venue.slug}/`,
    })
    expect(body.json_ld.offers).toEqual({
      '@type': 'Offer',
      price: 'Free – 30',
      priceCurrency: 'USD',
      url: body.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: '2030-01-02T00:00:00+00:00',
    })

    const list = await ns(`/events?include=${event.id}`)
    const item = list.body.events[0]
    expect(Object.keys(item)).toEqual(WRITTEN_EVENT_KEYS)
    const { json_ld: _, ...withoutJsonLd } = body
    expect(item.venue).not.toHaveProperty('json_ld')
    expect({ ...item, venue: null, organizer: null }).toEqual({
      ...withoutJsonLd,
      venue: null,
      organizer: null,
    })
  })

  it('puts upstream’s attendance mode and status right after url; venues’ and organizers’ json_ld carry no @context', async () => {
    const { body } = await ns(`/events/${event.id}`)
    expect(Object.keys(body.json_ld)).toEqual([
      '@context',
      '@type',
      'name',
      'description',
      'url',
      'eventAttendanceMode',
      'eventStatus',
      'startDate',
      'endDate',
      'location',
      'organizer',
      'offers',
      'performer',
    ])
    expect(body.json_ld).toMatchObject({
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      eventStatus: 'https://schema.org/EventScheduled',
    })
    expect(body.json_ld.location).not.toHaveProperty('@context')
    expect(body.json_ld.organizer).not.toHaveProperty('@context')
    expect(body.venue.json_ld).not.toHaveProperty('@context')
    expect(body.organizer[0].json_ld).not.toHaveProperty('@context')
  })

  it('answers by slug with the same object as by id', async () => {
    const byId = await ns(`/events/${event.id}`)
    const bySlug = await ns(`/events/by-slug/${byId.body.slug}`)
    expect(bySlug.status).toBe(200)
    expect(bySlug.body).toEqual(byId.body)
  })
})

describe('json_ld', () => {
  it('gives the organizer its website as url, on the event and on the organizer, and none without one', async () => {
    const tag = unique('ldorg')
    const withSite = await createOrganizer({
      name: `${tag} Hosts`,
      website: 'https://hosts.example/',
    })
    const created = await createEvent({
      title: `${tag} Party`,
      start: '2031-04-02T10:00:00.000Z',
      organizers: [withSite.id],
    })
    const { body } = await ns(`/events/${created.id}`)
    expect(body.json_ld.organizer).toEqual({
      '@type': 'Person',
      name: `${tag} Hosts`,
      description: '',
      url: 'https://hosts.example/',
      sameAs: 'https://hosts.example/',
    })
    expect(body.organizer[0].json_ld).toMatchObject({
      '@type': 'Person',
      url: 'https://hosts.example/',
    })
    const withoutSite = await createOrganizer({ name: `${tag} Quiet` })
    expect((await ns(`/organizers/${withoutSite.id}`)).body.json_ld).not.toHaveProperty('url')
  })

  it('dates offers from midnight of the publication day in the site zone', async () => {
    const previous = await changeSettings({ timezone: 'Asia/Tokyo' })
    try {
      // 20:30 UTC on 1 March is already 2 March in Tokyo.
      const created = await createEvent({
        title: unique('ldvalid'),
        start: '2031-04-03T10:00:00.000Z',
        publishedAt: '2030-03-01T20:30:00.000Z',
        cost: ['12'],
      })
      const { body } = await ns(`/events/${created.id}`)
      expect(body.json_ld.offers).toMatchObject({
        price: '12',
        validFrom: '2030-03-02T00:00:00+09:00',
      })
    } finally {
      await restoreSettings(previous)
    }
  })
})

describe('an event with nothing linked', () => {
  it('has an empty venue list, organizer list and terms, image false, no cost, and the permalink as website', async () => {
    const tag = unique('bare')
    const created = await createEvent({ title: `${tag} Bare`, start: '2031-04-01T10:00:00.000Z' })
    const { status, body } = await ns(`/events/${created.id}`)
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(EVENT_KEYS)
    expect(body).toMatchObject({
      description: '',
      excerpt: '',
      image: false,
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
      website: `${BASE_URL}/event/${tag}-bare/`,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      custom_fields: [],
    })
    expect(body.json_ld).not.toHaveProperty('offers')
    expect(body.json_ld).not.toHaveProperty('location')
  })

  it('shows a stored website as given', async () => {
    const created = await createEvent({
      title: unique('site'),
      start: '2031-04-01T10:00:00.000Z',
      website: 'https://example.org/gala',
    })
    expect((await ns(`/events/${created.id}`)).body.website).toBe('https://example.org/gala')
  })
})

describe('time zones', () => {
  it('keeps wall clock and UTC apart across a DST change (Europe/Paris, last Sunday of October)', async () => {
    // 2031-10-26 is the last Sunday of October: CEST (UTC+2) before, CET (UTC+1) after.
    const created = await createEvent({
      title: unique('dst'),
      start: '2031-10-25T08:00:00.000Z',
      end: '2031-10-27T09:00:00.000Z',
      timezone: 'Europe/Paris',
    })
    const { body } = await ns(`/events/${created.id}`)
    expect(body).toMatchObject({
      start_date: '2031-10-25 10:00:00',
      start_date_details: details('2031-10-25 10:00:00'),
      end_date: '2031-10-27 10:00:00',
      end_date_details: details('2031-10-27 10:00:00'),
      utc_start_date: '2031-10-25 08:00:00',
      utc_start_date_details: details('2031-10-25 08:00:00'),
      utc_end_date: '2031-10-27 09:00:00',
      utc_end_date_details: details('2031-10-27 09:00:00'),
      timezone: 'Europe/Paris',
      timezone_abbr: 'CEST',
    })
    expect(body.json_ld).toMatchObject({
      startDate: '2031-10-25T10:00:00+02:00',
      endDate: '2031-10-27T10:00:00+01:00',
    })
  })

  it('takes the abbreviation at the start: an event starting in winter time is CET', async () => {
    const created = await createEvent({
      title: unique('cet'),
      start: '2031-11-03T09:00:00.000Z',
      timezone: 'Europe/Paris',
    })
    const { body } = await ns(`/events/${created.id}`)
    expect(body).toMatchObject({
      start_date: '2031-11-03 10:00:00',
      utc_start_date: '2031-11-03 09:00:00',
      timezone_abbr: 'CET',
    })
  })

  it('serves a UTC+5 offset event in its own wall clock', async () => {
    const created = await createEvent({
      title: unique('offset'),
      start: '2031-03-01T07:00:00.000Z',
      end: '2031-03-01T20:30:00.000Z',
      timezone: 'UTC+5',
    })
    const { body } = await ns(`/events/${created.id}`)
    expect(body).toMatchObject({
      start_date: '2031-03-01 12:00:00',
      start_date_details: details('2031-03-01 12:00:00'),
      end_date: '2031-03-02 01:30:00',
      end_date_details: details('2031-03-02 01:30:00'),
      utc_start_date: '2031-03-01 07:00:00',
      utc_end_date: '2031-03-01 20:30:00',
      timezone: 'UTC+5',
      timezone_abbr: 'UTC+5',
    })
  })

  it('snaps an all-day event to 00:00:00–23:59:59 in its zone', async () => {
    const created = await createEvent({
      title: unique('allday'),
      start: '2031-06-10T13:00:00.000Z',
      end: '2031-06-11T13:00:00.000Z',
      timezone: 'Europe/Paris',
      allDay: true,
    })
    const { body } = await ns(`/events/${created.id}`)
    expect(body).toMatchObject({
      all_day: true,
      start_date: '2031-06-10 00:00:00',
      end_date: '2031-06-11 23:59:59',
      utc_start_date: '2031-06-09 22:00:00',
      utc_end_date: '2031-06-11 21:59:59',
      timezone_abbr: 'CEST',
    })
  })
})

describe('single-read decisions', () => {
  it('answers 404 rest-event-not-found for an unknown id', async () => {
    const reply = await ns('/events/2000000000')
    expectError(reply, 404, 'rest-event-not-found')
    expect(reply.body).toEqual({
      code: 'rest-event-not-found',
      message: 'Event with ID 2000000000 does not exist.',
      data: { status: 404 },
    })
  })

  it('answers 404 rest-event-not-found for id 0 too (docs/api.md §5: the path matches \\d+)', async () => {
    const reply = await ns('/events/0')
    expectError(reply, 404, 'rest-event-not-found')
    expect(reply.body.message).toBe('Event with ID 0 does not exist.')
  })

  it('answers 403 event-no-longer-available for a trashed event, even to an administrator', async () => {
    const trashed = await createEvent({ title: unique('trashed'), status: 'trash' })
    const reply = await ns(`/events/${trashed.id}`)
    expectError(reply, 403, 'event-no-longer-available')
    expect(reply.body).toEqual({
      code: 'event-no-longer-available',
      message: 'This event is no longer available',
      data: { status: 403 },
    })
    expectError(
      await ns(`/events/${trashed.id}`, await asAdmin()),
      403,
      'event-no-longer-available',
    )
  })

  it('answers 403 event-not-accessible for a draft, pending or private event to anonymous readers and subscribers', async () => {
    for (const status of ['draft', 'pending', 'private']) {
      const hidden = await createEvent({ title: unique(status), status })
      const reply = await ns(`/events/${hidden.id}`)
      expectError(reply, 403, 'event-not-accessible')
      expect(reply.body.message).toBe('The requested event is not accessible')
      expectError(await ns(`/events/${hidden.id}`, subscriber.token), 403, 'event-not-accessible')
      const byEditor = await ns(`/events/${hidden.id}`, editor.token)
      expect(byEditor.status).toBe(200)
      expect(byEditor.body.status).toBe(status)
    }
  })

  it('reads a draft by slug for an editor and refuses it to anonymous readers', async () => {
    const draft = await createEvent({ title: unique('draftslug'), status: 'draft' })
    const slug = (await ns(`/events/${draft.id}`, editor.token)).body.slug
    const byEditor = await ns(`/events/by-slug/${slug}`, editor.token)
    expect(byEditor.status).toBe(200)
    expect(byEditor.body.id).toBe(draft.id)
    expect([400, 403]).toContain((await ns(`/events/by-slug/${slug}`)).status)
  })

  it('answers 400 rest_invalid_param for an unknown slug', async () => {
    const reply = await ns(`/events/by-slug/${unique('no-such-event')}`)
    expectError(reply, 400, 'rest_invalid_param')
  })
})

describe('password-protected single events', () => {
  let id: number
  let slug: string
  beforeAll(async () => {
    const created = await createEvent({
      title: unique('pw'),
      start: '2031-07-01T10:00:00.000Z',
      password: 'swordfish',
      cost: ['12'],
      description: richText('Members only'),
    })
    id = created.id
    slug = created.slug as string
  })

  it('answers 403 event-password-protected without the password', async () => {
    const reply = await ns(`/events/${id}`)
    expectError(reply, 403, 'event-password-protected')
    expect(reply.body).toEqual({
      code: 'event-password-protected',
      message: 'The requested event is not accessible without a password',
      data: { status: 403 },
    })
    expectError(await ns(`/events/${id}?password=wrong`), 403, 'event-password-protected')
    expectError(await ns(`/events/by-slug/${slug}`), 403, 'event-password-protected')
  })

  it('answers 200 with the whole event given the right password', async () => {
    const reply = await ns(`/events/${id}?password=swordfish`)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ id, cost: '$12', description: '<p>Members only</p>' })
    // Upstream builds no schema.org data for a protected post, unlocked or not.
    expect(Object.keys(reply.body)).toEqual(WRITTEN_EVENT_KEYS)
    expect(JSON.stringify(reply.body)).not.toContain('swordfish')
    const bySlug = await ns(`/events/by-slug/${slug}?password=swordfish`)
    expect(bySlug.status).toBe(200)
    expect(bySlug.body).toEqual(reply.body)
  })

  it('answers 200 to an editor with context=edit, 403 to an administrator without password or context', async () => {
    const byEditor = await ns(`/events/${id}?context=edit`, editor.token)
    expect(byEditor.status).toBe(200)
    expect(byEditor.body.cost).toBe('$12')
    expect(byEditor.body).not.toHaveProperty('json_ld')
    expectError(await ns(`/events/${id}`, editor.token), 403, 'event-password-protected')
    expectError(await ns(`/events/${id}`, await asAdmin()), 403, 'event-password-protected')
    expect((await ns(`/events/${id}?context=edit`, await asAdmin())).status).toBe(200)
    expectError(
      await ns(`/events/${id}?context=edit`, subscriber.token),
      403,
      'event-password-protected',
    )
  })
})

describe('by slug in another language', () => {
  it('finds the event by its French slug in French, and by its English slug as the fallback', async () => {
    const tag = unique('slugfr')
    const created = await createEvent({
      title: `${tag} Summer Ball`,
      start: '2031-08-01T18:00:00.000Z',
    })
    const frSlug = `${tag}-bal-d-ete`
    await translateEvent(created.id, 'fr', { title: `${tag} Bal d’été`, slug: frSlug })

    const fr = await ns(`/events/by-slug/${frSlug}?i18n_language=fr`)
    expect(fr.status).toBe(200)
    expect(fr.body).toMatchObject({
      id: created.id,
      title: `${tag} Bal d’été`,
      slug: frSlug,
      url: `${BASE_URL}/fr/event/${frSlug}/`,
    })

    const root = await call(`/fr/api/cal/events/v1/events/by-slug/${frSlug}`)
    expect(root.status).toBe(200)
    expect(root.body.id).toBe(created.id)
    expect(root.body.title).toBe(`${tag} Bal d’été`)
    expect(root.body.rest_url).toBe(`${BASE_URL}/fr/api/cal/events/v1/events/${created.id}`)

    const fallback = await ns(`/events/by-slug/${tag}-summer-ball?i18n_language=fr`)
    expect(fallback.status).toBe(200)
    expect(fallback.body.id).toBe(created.id)

    const english = await ns(`/events/by-slug/${tag}-summer-ball`)
    expect(english.body).toMatchObject({
      id: created.id,
      title: `${tag} Summer Ball`,
      slug: `${tag}-summer-ball`,
    })
  })
})

describe('error envelope', () => {
  it('always has code, message and data.status equal to the HTTP status', async () => {
    const replies = await Promise.all([
      ns('/events/2000000000'),
      ns('/events/foo'),
      ns('/events?page=0'),
      ns('/events?i18n_language=xx'),
      ns(`/events/by-slug/${unique('none')}`),
      call('/api/cal/events/v1/doesnotexist', { method: 'DELETE' }),
    ])
    for (const reply of replies) {
      expect(reply.headers.get('Content-Type')).toMatch(/^application\/json/)
      expect(Object.keys(reply.body).slice(0, 3)).toEqual(['code', 'message', 'data'])
      expect(typeof reply.body.code).toBe('string')
      expect(typeof reply.body.message).toBe('string')
      expect(reply.body.data.status).toBe(reply.status)
    }
  })
})
