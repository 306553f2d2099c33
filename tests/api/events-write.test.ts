/**
 * The write side of `/events` (docs/api.md §2, §6, §6.7, §11; docs/api.md §2, §6.1, §11): create, update
 * (POST, PUT, PATCH; by id and by slug), trash, the capability matrix, parameters before permission,
 * one transaction per request, and what a client writes it reads back.
 */
import { DateTime } from 'luxon'
import { describe, expect, it } from 'vitest'
import {
  BASE_URL,
  call,
  ROOT,
  unique,
  uploadImage,
  everyRole,
  NO_SUCH_ID,
  type Reply,
} from '../support/api'
import { graphql } from '../support/doors'
import { expectError, expectInvalidParam, expectMissing } from '../support/expectations'
import {
  api,
  createEventAs,
  createOrganizerAs,
  createVenueAs,
  details,
  EVENT_KEYS,
  eventBody,
  formPairs,
  payloadDocs,
  readEvent,
  siteTimezone,
} from '../support/writeFixtures'

const WALL = 'yyyy-MM-dd HH:mm:ss'
const { admin, editor, author, contributor, subscriber } = await everyRole()

const ids = (list: { id: number }[]) => list.map((item) => item.id)

/** `GET /venues?search=` as the administrator: what the namespace itself says exists. */
async function venuesMatching(search: string) {
  const reply = await api(`/venues?search=${encodeURIComponent(search)}`, { token: admin })
  expect(reply.status).toBe(200)
  return reply.body
}

describe('POST /events: the created event', () => {
  it('answers 201 with the full event object, every written field in place', async () => {
    const title = unique('Concert ')
    const slug = title.toLowerCase().replace(' ', '-')
    const category = unique('Cat ')
    const tag = unique('Tag ')
    const venueName = unique('Hall ')
    const organizerName = unique('Org ')
    const reply = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: {
        title,
        description:
          '<p>Hello <strong>world</strong></p><script>alert(1)</script><p>Second &amp; para</p>',
        excerpt: 'Short summary',
        timezone: 'Europe/Paris',
        start_date: '2030-07-01 10:00:00',
        end_date: '2030-07-01 12:30:00',
        date_utc: '2024-06-01 08:00:00',
        cost: '20$',
        website: 'https://example.org/concert',
        show_map: false,
        show_map_link: false,
        hide_from_listings: true,
        sticky: true,
        featured: true,
        categories: [category],
        tags: [tag],
        venue: {
          venue: venueName,
          address: '1 Rue de Rivoli',
          city: 'Paris',
          country: 'France',
          province: 'Île-de-France',
          zip: '75001',
          phone: '+33 1 00 00 00 00',
        },
        organizer: [{ organizer: organizerName, email: 'org@example.org', phone: '555-0100' }],
      },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    const event = reply.body
    expect(Object.keys(event)).toEqual(EVENT_KEYS)
    const siteZone = await siteTimezone()
    const host = new URL(BASE_URL).host
    expect(event).toMatchObject({
      global_id: `${host}?id=${event.id}`,
      global_id_lineage: [`${host}?id=${event.id}`],
      author: String(editor.id),
      status: 'publish',
      date: DateTime.fromISO('2024-06-01T08:00:00Z').setZone(siteZone).toFormat(WALL),
      date_utc: '2024-06-01 08:00:00',
      url: `${BASE_URL}/event/${slug}/`,
      rest_url: `${ROOT}/events/${event.id}`,
      title,
      description: '<p>Hello <strong>world</strong></p>\n<p>Second &amp; para</p>',
      excerpt: '<p>Short summary</p>',
      slug,
      image: false,
      all_day: false,
      start_date: '2030-07-01 10:00:00',
      start_date_details: details('2030-07-01 10:00:00'),
      end_date: '2030-07-01 12:30:00',
      end_date_details: details('2030-07-01 12:30:00'),
      utc_start_date: '2030-07-01 08:00:00',
      utc_start_date_details: details('2030-07-01 08:00:00'),
      utc_end_date: '2030-07-01 10:30:00',
      utc_end_date_details: details('2030-07-01 10:30:00'),
      timezone: 'Europe/Paris',
      timezone_abbr: 'CEST',
      cost: '20$',
      cost_details: {
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'postfix',
        values: ['20'],
      },
      website: 'https://example.org/concert',
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      custom_fields: [],
    })
    expect(event.description).not.toContain('script')
    expect(event.modified_utc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect(event.start_date_details).toEqual({
      year: '2030',
      month: '07',
      day: '01',
      hour: '10',
      minutes: '00',
      seconds: '00',
    })

    expect(event.categories).toHaveLength(1)
    expect(Object.keys(event.categories[0])).toEqual([
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
    ])
    expect(event.categories[0]).toMatchObject({
      name: category,
      taxonomy: 'event_category',
      parent: 0,
      count: 1,
      filter: 'raw',
      description: '',
    })
    expect(event.categories[0].urls).toEqual({
      self: `${ROOT}/categories/${event.categories[0].id}`,
      collection: `${ROOT}/categories`,
    })
    expect(event.tags).toHaveLength(1)
    expect(event.tags[0]).toMatchObject({ name: tag, taxonomy: 'event_tag', parent: 0, count: 1 })

    expect(event.venue).toMatchObject({
      venue: venueName,
      status: 'publish',
      address: '1 Rue de Rivoli',
      city: 'Paris',
      country: 'France',
      province: 'Île-de-France',
      zip: '75001',
      phone: '+33 1 00 00 00 00',
      stateprovince: 'Île-de-France',
      show_map: true,
      show_map_link: true,
    })
    expect(event.organizer).toHaveLength(1)
    expect(event.organizer[0]).toMatchObject({
      organizer: organizerName,
      status: 'publish',
      email: 'org@example.org',
      phone: '555-0100',
    })
    expect(event).not.toHaveProperty('json_ld')
  })

  it('gives a bare event upstream’s defaults: publish, website = permalink, maps off, no terms, no venue', async () => {
    const event = await createEventAs(author.token)
    expect(event).toMatchObject({
      author: String(author.id),
      status: 'publish',
      description: '',
      excerpt: '',
      image: false,
      all_day: false,
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
      website: event.url,
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      custom_fields: [],
      timezone: await siteTimezone(),
    })
    expect(event.url).toBe(`${BASE_URL}/event/${event.slug}/`)
    expect(event.slug).toBe(event.title.toLowerCase())
  })

  it('drops images inside a description and keeps the rest of it', async () => {
    const event = await createEventAs(editor.token, {
      description:
        '<p>Hello <img src="https://example.org/a.png" alt="a"> world</p><img src="x.png">',
    })
    expect(event.description).toBe('<p>Hello world</p>')
  })

  it('refuses a description nested past what rich text holds, and the next write keeps its own', async () => {
    const event = await createEventAs(editor.token, { description: '<p>Kept</p>' })
    const deep = (tag: string, levels: number) =>
      `<p>before</p>${`<${tag}>`.repeat(levels)}text${`</${tag}>`.repeat(levels)}`
    // 5,000 levels ran JSDOM's parser out of stack, 300 took it 60 ms; lists in lists nest rich text's nodes.
    for (const description of [deep('div', 5000), deep('div', 300), deep('ul><li', 60)]) {
      const reply = await api(`/events/${event.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { description },
      })
      expectInvalidParam(reply, 'description')
      expect(reply.body.data.params.description).toMatch(/nested more than \d+ deep/)
      expect((await readEvent(event.id)).description).toBe('<p>Kept</p>')
      // Another caller's write right after: its description is its own, not emptied.
      const next = await createEventAs(author.token, { description: '<p>Next one</p>' })
      expect(next.description).toBe('<p>Next one</p>')
    }
    // 128 elements inside one another are the most there may be.
    const nested = await createEventAs(editor.token, { description: deep('div', 128) })
    expect(nested.description).toContain('text')
    expectInvalidParam(
      await api(`/events/${event.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { description: deep('div', 129) },
      }),
      'description',
    )
  })

  it('keeps the text of MathML and SVG in a description, without their markup, styles, scripts or sources', async () => {
    const event = await createEventAs(editor.token, {
      description:
        '<p>before</p><p>a<math><mi>m</mi><annotation encoding="application/x-tex">tex</annotation></math>b</p>' +
        '<svg><style>.a{fill:red}</style><script>alert(1)</script><desc>about</desc><text>drawn</text></svg><p>after</p>',
    })
    for (const text of ['before', 'amb', 'drawn', 'after'])
      expect(event.description).toContain(text)
    expect(event.description).not.toMatch(/<math|<svg|<mi|fill|alert|tex|about/)
  })

  it('serves a description as the HTML written: the author’s tags, no editor classes or empty attributes, a line per block', async () => {
    const written =
      '<h2>Programme</h2><p>Doors at <u>seven</u>, <s>no</s> late <em>entry</em>. <a href="https://example.org/tickets">Tickets</a></p>' +
      '<ul><li>Jazz</li><li>Soul<ul><li>Northern</li></ul></li></ul><ol start="3"><li>Third</li></ol><blockquote>Quoted</blockquote>'
    const served = [
      '<h2>Programme</h2>',
      '<p>Doors at <u>seven</u>, <s>no</s> late <em>entry</em>. <a href="https://example.org/tickets">Tickets</a></p>',
      '<ul>',
      '<li>Jazz</li>',
      '<li>Soul<ul>',
      '<li>Northern</li>',
      '</ul></li>',
      '</ul>',
      '<ol start="3">',
      '<li>Third</li>',
      '</ol>',
      '<blockquote>Quoted</blockquote>',
    ].join('\n')
    const event = await createEventAs(editor.token, { description: written })
    expect(event.description).toBe(served)
    expect((await readEvent(event.id)).description).toBe(served)
    const listed = await api(`/events?include=${event.id}`)
    expect(listed.body.events[0].description).toBe(served)
    // What is served can be written back unchanged.
    const again = await api(`/events/${event.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { description: served },
    })
    expect(again.body.description).toBe(served)
  })

  it('generates distinct slugs for equal titles', async () => {
    const title = unique('Same ')
    const first = await createEventAs(editor.token, { title })
    const second = await createEventAs(editor.token, { title })
    expect(first.slug).toBe(title.toLowerCase().replace(' ', '-'))
    expect(second.slug).toBe(`${first.slug}-2`)
  })

  it('keeps a slug sent on create', async () => {
    const slug = unique('given-slug-')
    const reply = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: eventBody({ slug }),
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.slug).toBe(slug)
    expect(reply.body.url).toBe(`${BASE_URL}/event/${slug}/`)
  })

  it('creates a new event when the slug sent is already another event’s, without touching that one', async () => {
    const other = await createEventAs(editor.token)
    // An author may not edit the editor's event, but creating one of their own is not editing it.
    const reply = await api('/events', {
      method: 'POST',
      token: author.token,
      json: eventBody({ slug: other.slug }),
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.id).not.toBe(other.id)
    expect(reply.body.slug).toBe(`${other.slug}-2`)
    expect((await readEvent(other.id)).title).toBe(other.title)
  })

  describe('status scaling (docs/api.md §2)', () => {
    it.each([
      ['contributor', 'publish', 'pending'],
      ['contributor', 'future', 'pending'],
      ['contributor', 'draft', 'draft'],
      ['contributor', undefined, 'draft'],
      ['author', undefined, 'publish'],
      ['author', 'draft', 'draft'],
      ['author', 'pending', 'pending'],
      ['editor', undefined, 'publish'],
      ['editor', 'private', 'private'],
    ])('%s asking for %s gets %s', async (role, requested, expected) => {
      const user = { contributor, author, editor }[role as 'contributor' | 'author' | 'editor']
      const event = await createEventAs(user.token, requested ? { status: requested } : {})
      expect(event.status).toBe(expected)
    })

    it('refuses an unknown status', async () => {
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ status: 'published' }),
        }),
        'status',
      )
    })
  })

  describe('author', () => {
    it('lets an editor name another author', async () => {
      expect((await createEventAs(editor.token, { author: author.id })).author).toBe(
        String(author.id),
      )
      expect((await createEventAs(admin, { author: String(contributor.id) })).author).toBe(
        String(contributor.id),
      )
    })

    it('ignores an author’s or contributor’s attempt to write as someone else', async () => {
      expect((await createEventAs(author.token, { author: editor.id })).author).toBe(
        String(author.id),
      )
      expect((await createEventAs(contributor.token, { author: editor.id })).author).toBe(
        String(contributor.id),
      )
    })

    it('refuses a user id that does not exist', async () => {
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ author: NO_SUCH_ID }),
        }),
        'author',
      )
    })
  })

  describe('publication date', () => {
    it('reads `date` in the event zone and `date_utc` in UTC', async () => {
      const siteZone = await siteTimezone()
      const local = await createEventAs(editor.token, {
        timezone: 'Europe/Paris',
        date: '2024-06-01 10:00:00',
      })
      expect(local.date_utc).toBe('2024-06-01 08:00:00')
      expect(local.date).toBe(
        DateTime.fromISO('2024-06-01T08:00:00Z').setZone(siteZone).toFormat(WALL),
      )
      const utc = await createEventAs(editor.token, {
        timezone: 'Europe/Paris',
        date_utc: '2024-06-01 10:00:00',
      })
      expect(utc.date_utc).toBe('2024-06-01 10:00:00')
    })

    it('refuses a date it cannot read', async () => {
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ date: 'whenever' }),
        }),
        'date',
      )
    })

    it.each<[string, Record<string, unknown>]>([
      ['start_date', { start_date: '9999-12-31 10:00:00', end_date: '9999-12-31 12:00:00' }],
      ['start_date', { start_date: -9e12 }],
      ['end_date', { end_date: '+300 years 9999-01-01' }],
      ['date_utc', { date_utc: '0000-06-01 10:00:00' }],
    ])('refuses a %s outside the years 0001–9999, creating nothing', async (param, dates) => {
      const title = unique('far')
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ title, ...dates }),
        }),
        param,
      )
      expect(await payloadDocs('events', `where[title][equals]=${title}`)).toHaveLength(0)
    })

    it('holds Payload’s REST and GraphQL to the same years, creating nothing', async () => {
      const title = unique('far')
      const rest = await call('/api/events', {
        method: 'POST',
        token: editor.token,
        json: { title, start: '9999-12-31T10:00:00.000Z', end: '9999-12-31T12:00:00.000Z' },
      })
      expect(rest.status, JSON.stringify(rest.body)).toBe(400)
      expect(JSON.stringify(rest.body)).toContain('0001-01-03 and 9999-12-29')
      const mutation = await graphql(
        `mutation { createEvent(data: { title: "${title}", start: "2030-01-01T10:00:00.000Z", end: "2030-01-01T11:00:00.000Z", publishedAt: "0000-06-01T00:00:00.000Z", status: draft }) { id } }`,
        editor.token,
      )
      expect(mutation.body.data?.createEvent ?? null, JSON.stringify(mutation.body)).toBeNull()
      expect(JSON.stringify(mutation.body.errors)).toContain('0001-01-03 and 9999-12-29')
      expect(await payloadDocs('events', `where[title][equals]=${title}`)).toHaveLength(0)
    })
  })

  describe('time zones', () => {
    it.each([
      ['Europe/Paris', '2030-01-01 09:00:00', 'CET'],
      ['America/New_York', '2030-01-01 15:00:00', 'EST'],
      ['Australia/Sydney', '2029-12-31 23:00:00', 'AEDT'],
      ['UTC+5', '2030-01-01 05:00:00', 'UTC+5'],
      ['UTC-3:30', '2030-01-01 13:30:00', 'UTC-3:30'],
    ])('%s: 10:00 local is %s UTC, abbreviated %s', async (timezone, utc, abbr) => {
      const event = await createEventAs(editor.token, {
        timezone,
        start_date: '2030-01-01 10:00:00',
        end_date: '2030-01-01 11:00:00',
      })
      expect({
        start_date: event.start_date,
        utc_start_date: event.utc_start_date,
        timezone: event.timezone,
        timezone_abbr: event.timezone_abbr,
      }).toEqual({
        start_date: '2030-01-01 10:00:00',
        utc_start_date: utc,
        timezone,
        timezone_abbr: abbr,
      })
    })

    it('uses the site zone when the zone is empty', async () => {
      const siteZone = await siteTimezone()
      const event = await createEventAs(editor.token, { timezone: '' })
      expect(event.timezone).toBe(siteZone)
      expect(event.utc_start_date).toBe(
        DateTime.fromFormat('2030-01-01 10:00:00', WALL, { zone: siteZone }).toUTC().toFormat(WALL),
      )
    })

    it('stores a zone typed in another case as the tz database spells it, through every door, and iCalendar names it', async () => {
      const event = await createEventAs(editor.token, { timezone: 'america/new_york' })
      expect([event.timezone, event.timezone_abbr]).toEqual(['America/New_York', 'EST'])
      const file = await api<string>(`/events/${event.id}.ics`, { token: editor.token })
      expect(file.status).toBe(200)
      expect(file.body).toContain('DTSTART;TZID=America/New_York:20300101T100000')

      const rest = await call('/api/events?locale=en', {
        method: 'POST',
        token: editor.token,
        json: {
          title: unique('zone rest '),
          start: '2030-01-01T10:00:00.000Z',
          end: '2030-01-01T11:00:00.000Z',
          timezone: 'EUROPE/PARIS',
          status: 'draft',
        },
      })
      expect(rest.status, JSON.stringify(rest.body)).toBe(201)
      expect(rest.body.doc.timezone).toBe('Europe/Paris')
      const updated = await call(`/api/events/${rest.body.doc.id}?locale=en`, {
        method: 'PATCH',
        token: editor.token,
        json: { timezone: 'utc+02:00' },
      })
      expect(updated.body.doc?.timezone, JSON.stringify(updated.body)).toBe('UTC+2')

      const mutation = await graphql(
        `mutation { createEvent(data: { title: "${unique('zone graphql ')}", start: "2030-01-01T10:00:00.000Z", end: "2030-01-01T11:00:00.000Z", timezone: "asia/tokyo", status: draft }) { id timezone } }`,
        editor.token,
      )
      expect(mutation.body.data?.createEvent?.timezone, JSON.stringify(mutation.body)).toBe(
        'Asia/Tokyo',
      )
    })

    it.each(['Mars/Olympus', 'UTC+15', 'CEST', 'Europe/Paris; DROP TABLE events'])(
      'refuses %s',
      async (timezone) => {
        expectInvalidParam(
          await api('/events', {
            method: 'POST',
            token: editor.token,
            json: eventBody({ timezone }),
          }),
          'timezone',
        )
      },
    )
  })

  describe('start and end', () => {
    const zone = 'Europe/Paris'
    const now = () => DateTime.now().setZone(zone)
    const nextWeekday = (weekday: number) =>
      now()
        .startOf('day')
        .plus({ days: (weekday - now().weekday + 7) % 7 || 7 })

    it.each<[string, string | number, () => string]>([
      ['wall clock', '2030-01-01 10:00:00', () => '2030-01-01 10:00:00'],
      ['a date alone', '2030-01-01', () => '2030-01-01 00:00:00'],
      ['ISO 8601 without offset', '2030-01-01T10:00:00', () => '2030-01-01 10:00:00'],
      [
        'ISO 8601 with an offset (the instant is kept)',
        '2030-01-01T10:00:00+02:00',
        () => '2030-01-01 09:00:00',
      ],
      ['ISO 8601 in UTC', '2030-01-01T10:00:00Z', () => '2030-01-01 11:00:00'],
      ['a Unix timestamp (number)', Date.UTC(2030, 0, 1, 10) / 1000, () => '2030-01-01 11:00:00'],
      [
        'a Unix timestamp (string)',
        String(Date.UTC(2030, 0, 1, 10) / 1000),
        () => '2030-01-01 11:00:00',
      ],
      ['"2018-01-01 4pm"', '2018-01-01 4pm', () => '2018-01-01 16:00:00'],
      [
        '"tomorrow 9am"',
        'tomorrow 9am',
        () => now().startOf('day').plus({ days: 1 }).set({ hour: 9 }).toFormat(WALL),
      ],
      [
        '"next wednesday 4pm"',
        'next wednesday 4pm',
        () => nextWeekday(3).set({ hour: 16 }).toFormat(WALL),
      ],
      [
        '"+5 days 11am"',
        '+5 days 11am',
        () => now().plus({ days: 5 }).set({ hour: 11, minute: 0, second: 0 }).toFormat(WALL),
      ],
      [
        '"tomorrow 00:00:00"',
        'tomorrow 00:00:00',
        () => now().startOf('day').plus({ days: 1 }).toFormat(WALL),
      ],
    ])('reads %s in the event zone', async (_, start_date, expected) => {
      const event = await createEventAs(editor.token, {
        timezone: zone,
        start_date,
        end_date: '2035-01-01 00:00:00',
      })
      expect(event.start_date).toBe(expected())
      expect(event.utc_start_date).toBe(
        DateTime.fromFormat(expected(), WALL, { zone }).toUTC().toFormat(WALL),
      )
    })

    it('reads relative phrases sent as a form too', async () => {
      const reply = await api('/events', {
        method: 'POST',
        token: editor.token,
        form: {
          title: unique('rel'),
          timezone: zone,
          start_date: 'tomorrow 9am',
          end_date: 'next wednesday 4pm',
        },
      })
      expect(reply.status).toBe(201)
      const tomorrow9 = now().startOf('day').plus({ days: 1 }).set({ hour: 9 })
      const wednesday4 = nextWeekday(3).set({ hour: 16 })
      // "next wednesday" may be tomorrow, in which case 4pm is still after 9am.
      expect(reply.body.start_date).toBe(tomorrow9.toFormat(WALL))
      expect(reply.body.end_date).toBe(wednesday4.toFormat(WALL))
    })

    it.each(['someday', 'tomorrow at nine', '2030-13-01 10:00:00', '2030-02-30', '25:00', ''])(
      'refuses the start %j',
      async (start_date) => {
        expectInvalidParam(
          await api('/events', {
            method: 'POST',
            token: editor.token,
            json: eventBody({ start_date }),
          }),
          'start_date',
        )
      },
    )

    it('refuses an end before the start, naming end_date', async () => {
      const reply = await api('/events', {
        method: 'POST',
        token: editor.token,
        json: eventBody({ start_date: '2030-01-02 10:00:00', end_date: '2030-01-01 10:00:00' }),
      })
      expectInvalidParam(reply, 'end_date')
      expect(Object.keys(reply.body.data.params)).toEqual(['end_date'])
    })

    it('accepts an end equal to the start', async () => {
      const event = await createEventAs(editor.token, {
        start_date: '2030-01-01 10:00:00',
        end_date: '2030-01-01 10:00:00',
      })
      expect(event.end_date).toBe('2030-01-01 10:00:00')
    })

    it('snaps all-day events to 00:00:00–23:59:59 in the event zone', async () => {
      const event = await createEventAs(editor.token, {
        timezone: 'America/New_York',
        all_day: true,
        start_date: '2030-01-01 10:00:00',
        end_date: '2030-01-02 15:00:00',
      })
      expect({
        all_day: event.all_day,
        start_date: event.start_date,
        end_date: event.end_date,
        utc_start_date: event.utc_start_date,
        utc_end_date: event.utc_end_date,
        end_date_details: event.end_date_details,
      }).toEqual({
        all_day: true,
        start_date: '2030-01-01 00:00:00',
        end_date: '2030-01-02 23:59:59',
        utc_start_date: '2030-01-01 05:00:00',
        utc_end_date: '2030-01-03 04:59:59',
        end_date_details: {
          year: '2030',
          month: '01',
          day: '02',
          hour: '23',
          minutes: '59',
          seconds: '59',
        },
      })
    })
  })

  describe('cost', () => {
    it.each<[string, unknown, string, object]>([
      [
        'a string with a postfix symbol',
        '20$',
        '20$',
        { currency_symbol: '$', currency_position: 'postfix', values: ['20'] },
      ],
      [
        'a string with a prefix symbol',
        '$23',
        '$23',
        { currency_symbol: '$', currency_position: 'prefix', values: ['23'] },
      ],
      [
        'a list',
        ['0$', '20$', '30$'],
        'Free – 30$',
        { currency_symbol: '$', currency_position: 'postfix', values: ['0', '20', '30'] },
      ],
      [
        'an unordered list',
        ['30€', '10€'],
        '10€ – 30€',
        { currency_symbol: '€', currency_position: 'postfix', values: ['10', '30'] },
      ],
      [
        'a lone zero as no cost',
        '0',
        '',
        { currency_symbol: '', currency_position: '', values: [] },
      ],
      [
        'a zero in a list as free',
        ['0'],
        'Free',
        { currency_symbol: '', currency_position: '', values: ['0'] },
      ],
      [
        'a word, shown as written and listed as its slug',
        'Free',
        'Free',
        { currency_symbol: '', currency_position: '', values: ['free'] },
      ],
      [
        'words beside amounts, counted as 0',
        ['Donation', '15$'],
        '15$',
        { currency_symbol: '$', currency_position: 'postfix', values: ['donation', '15'] },
      ],
      // No symbol is read from a range: the settings' default symbol and position render it.
      [
        'a range with symbols',
        '$10 - $20',
        '$10 – $20',
        { currency_symbol: '', currency_position: '', values: ['10', '20'] },
      ],
      [
        'a range with a trailing symbol',
        '10 - 20 €',
        '$10 – $20',
        { currency_symbol: '', currency_position: '', values: ['10', '20'] },
      ],
    ])('reads %s', async (_, cost, rendered, costDetails) => {
      const event = await createEventAs(editor.token, { cost })
      expect(event.cost).toBe(rendered)
      expect(event.cost_details).toEqual({ currency_code: '', ...costDetails })
    })

    it('reads repeated form keys cost[]=0$&cost[]=20$&cost[]=30$ as "Free – 30$"', async () => {
      const reply = await api('/events', {
        method: 'POST',
        token: editor.token,
        ...formPairs([
          ['title', unique('cost')],
          ['start_date', '2030-01-01 10:00:00'],
          ['end_date', '2030-01-01 12:00:00'],
          ['cost[]', '0$'],
          ['cost[]', '20$'],
          ['cost[]', '30$'],
        ]),
      })
      expect(reply.status).toBe(201)
      expect(reply.body.cost).toBe('Free – 30$')
      expect(reply.body.cost_details).toEqual({
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'postfix',
        values: ['0', '20', '30'],
      })
    })
  })

  describe('website', () => {
    it('keeps a URL, shows the permalink for an empty one on create, and refuses "foo"', async () => {
      expect(
        (await createEventAs(editor.token, { website: 'https://example.org/a?b=c' })).website,
      ).toBe('https://example.org/a?b=c')
      const empty = await createEventAs(editor.token, { website: '' })
      expect(empty.website).toBe(empty.url)
      expect((await readEvent(empty.id)).website).toBe(empty.url)
      for (const website of ['foo', 'javascript:alert(1)', 'ftp://example.org/x']) {
        expectInvalidParam(
          await api('/events', {
            method: 'POST',
            token: editor.token,
            json: eventBody({ website }),
          }),
          'website',
        )
      }
    })
  })

  describe('presentation flags', () => {
    const FLAGS = [
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'all_day',
    ] as const

    it.each([
      [true, true],
      ['true', true],
      ['TRUE', true],
      ['1', true],
      [1, true],
      [false, false],
      ['false', false],
      ['0', false],
      [0, false],
    ])('reads %j as %s (JSON)', async (value, expected) => {
      const event = await createEventAs(
        editor.token,
        Object.fromEntries(FLAGS.map((flag) => [flag, value])),
      )
      for (const flag of FLAGS) expect({ [flag]: event[flag] }).toEqual({ [flag]: expected })
    })

    it('reads form values 1 and 0', async () => {
      const reply = await api('/events', {
        method: 'POST',
        token: editor.token,
        form: {
          title: unique('flags'),
          start_date: '2030-01-01 10:00:00',
          end_date: '2030-01-01 12:00:00',
          featured: '1',
          sticky: '1',
          show_map: '0',
          show_map_link: 'false',
        },
      })
      expect(reply.status).toBe(201)
      expect({
        featured: reply.body.featured,
        sticky: reply.body.sticky,
        show_map: reply.body.show_map,
        show_map_link: reply.body.show_map_link,
      }).toEqual({
        featured: true,
        sticky: true,
        show_map: false,
        show_map_link: false,
      })
    })

    it.each(
      FLAGS.flatMap((flag) => ['yes', 'on', '', 2, 'foo'].map((value) => [flag, value] as const)),
    )('refuses %s=%j', async (flag, value) => {
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ [flag]: value }),
        }),
        flag,
      )
    })

    it('stores `ticketed`, which the event object does not show', async () => {
      const event = await createEventAs(editor.token, { ticketed: true })
      expect(event).not.toHaveProperty('ticketed')
      const stored = await call(`/api/events/${event.id}?depth=0`, { token: admin })
      expect(stored.body.ticketed).toBe(true)
    })
  })

  describe('categories and tags', () => {
    it('takes ids, names and slugs, as a list or comma-separated, and creates unknown names for editors', async () => {
      const existing = (
        await api('/categories', {
          method: 'POST',
          token: editor.token,
          json: { name: unique('Existing ') },
        })
      ).body
      const other = (
        await api('/categories', {
          method: 'POST',
          token: editor.token,
          json: { name: unique('Other '), slug: unique('other-slug-') },
        })
      ).body
      const fresh = unique('Fresh ')
      const event = await createEventAs(editor.token, {
        categories: [existing.id, other.slug, fresh],
      })
      expect(event.categories.map((term: { name: string }) => term.name).sort()).toEqual(
        [existing.name, other.name, fresh].sort(),
      )
      const created = event.categories.find((term: { name: string }) => term.name === fresh)
      const listed = await api(`/categories?search=${encodeURIComponent(fresh)}&hide_empty=false`)
      expect(listed.body.categories.map((term: { id: number }) => term.id)).toEqual([created.id])

      const csv = await createEventAs(editor.token, {
        categories: `${existing.id},${existing.name}, ${fresh}`,
      })
      expect(ids(csv.categories).sort((a, b) => a - b)).toEqual(
        [existing.id, created.id].sort((a, b) => a - b),
      )

      const tag = unique('Tagname ')
      const tagged = await createEventAs(admin, { tags: `${tag}` })
      expect(
        tagged.tags.map((term: { name: string; taxonomy: string }) => [term.name, term.taxonomy]),
      ).toEqual([[tag, 'event_tag']])
      const again = await createEventAs(author.token, { tags: [tagged.tags[0].id, tag] })
      expect(ids(again.tags)).toEqual([tagged.tags[0].id])
    })

    it('lists an event’s terms by name', async () => {
      const prefix = unique('order')
      const event = await createEventAs(editor.token, {
        categories: [`${prefix} c`, `${prefix} a`, `${prefix} b`],
      })
      expect(event.categories.map((term: { name: string }) => term.name)).toEqual([
        `${prefix} a`,
        `${prefix} b`,
        `${prefix} c`,
      ])
    })

    it('lets authors use existing terms but not create new ones', async () => {
      const known = (
        await api('/tags', {
          method: 'POST',
          token: editor.token,
          json: { name: unique('Known ') },
        })
      ).body
      expect(
        (await createEventAs(author.token, { tags: [known.name] })).tags.map(
          (term: { id: number }) => term.id,
        ),
      ).toEqual([known.id])
      const unknown = unique('Unknown ')
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: author.token,
          json: eventBody({ categories: [unknown] }),
        }),
        'categories',
      )
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: contributor.token,
          json: eventBody({ tags: unknown }),
        }),
        'tags',
      )
      const search = await api(`/categories?search=${encodeURIComponent(unknown)}&hide_empty=false`)
      expect(search.body.categories).toEqual([])
    })

    it('refuses term ids that do not exist (docs/api.md §3)', async () => {
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ categories: [NO_SUCH_ID] }),
        }),
        'categories',
      )
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ tags: String(NO_SUCH_ID) }),
        }),
        'tags',
      )
    })
  })

  describe('venue', () => {
    it('links a venue by id, by "id" text, and by { id }', async () => {
      const venue = await createVenueAs(editor.token)
      for (const value of [
        venue.id,
        String(venue.id),
        { id: venue.id },
        { id: String(venue.id) },
      ]) {
        const event = await createEventAs(editor.token, { venue: value })
        expect(event.venue.id).toBe(venue.id)
        expect(event.venue.venue).toBe(venue.venue)
      }
    })

    it('creates an inline venue once and reuses it for the same inline venue', async () => {
      const name = unique('Inline venue ')
      const inline = {
        venue: name,
        address: '2 Main St',
        city: 'Springfield',
        state: 'IL',
        country: 'US',
        zip: '62701',
      }
      const first = await createEventAs(editor.token, { venue: inline })
      expect(first.venue).toMatchObject({
        venue: name,
        address: '2 Main St',
        city: 'Springfield',
        state: 'IL',
        country: 'US',
        zip: '62701',
        stateprovince: 'IL',
      })
      const second = await createEventAs(editor.token, { venue: { ...inline } })
      expect(second.venue.id).toBe(first.venue.id)
      const found = await venuesMatching(name)
      expect(found.venues.map((venue: { id: number }) => venue.id)).toEqual([first.venue.id])
      expect(found.total).toBe(1)
    })

    it('gives an inline venue the event’s status', async () => {
      const event = await createEventAs(contributor.token, {
        venue: { venue: unique('Contrib venue ') },
      })
      expect(event.status).toBe('draft')
      expect(event.venue.status).toBe('draft')
    })

    it('makes no inline venue or organizer in the trash, naming the parameter, and writes nothing', async () => {
      const [venue, organizer] = [unique('Trashed hall '), unique('Trashed host ')]
      for (const body of [
        { venue: { venue, status: 'trash' } },
        { organizer: [{ organizer, status: 'trash' }] },
      ]) {
        const reply = await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody(body),
        })
        expectInvalidParam(reply, Object.keys(body)[0]!)
      }
      expect(
        await payloadDocs('venues', `where[name][equals]=${encodeURIComponent(venue)}`),
      ).toEqual([])
    })

    it('refuses a venue and organizers in the trash in one Payload write, naming each field', async () => {
      const venue = await createVenueAs(editor.token)
      const organizers = [
        await createOrganizerAs(editor.token),
        await createOrganizerAs(editor.token),
      ]
      for (const path of [
        `/venues/${venue.id}`,
        ...organizers.map(({ id }) => `/organizers/${id}`),
      ])
        expect((await api(path, { method: 'DELETE', token: editor.token })).status).toBe(200)
      const ids = organizers.map(({ id }) => id).sort((a, b) => a - b)
      const title = unique('Linked to the trash ')
      const reply = await call('/api/events', {
        method: 'POST',
        token: editor.token,
        json: {
          title,
          status: 'publish',
          start: '2031-03-04T10:00:00.000Z',
          end: '2031-03-04T11:00:00.000Z',
          venue: venue.id,
          organizers: ids,
        },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(400)
      const errors = reply.body.errors[0].data.errors as { path: string; message: string }[]
      expect(
        errors
          .map(({ path, message }) => ({ path, message }))
          .sort((a, b) => a.path.localeCompare(b.path)),
      ).toEqual([
        {
          path: 'organizers',
          message: `Organizers ${ids.join(', ')} are in the trash: restore them first, or choose others.`,
        },
        {
          path: 'venue',
          message: `Venue ${venue.id} is in the trash: restore it first, or choose another.`,
        },
      ])
      expect(
        await payloadDocs('events', `where[title][equals]=${encodeURIComponent(title)}`),
      ).toEqual([])
    })

    it('scales the status a contributor asks for inside an inline venue', async () => {
      const event = await createEventAs(contributor.token, {
        venue: { venue: unique('Contrib venue '), status: 'publish' },
        organizer: [{ organizer: unique('Contrib org '), status: 'publish', author: editor.id }],
      })
      expect(event.venue.status).toBe('pending')
      expect(event.organizer[0]).toMatchObject({
        status: 'pending',
        author: String(contributor.id),
      })
    })

    it('keeps only the first of several venues', async () => {
      const [a, b] = [await createVenueAs(editor.token), await createVenueAs(editor.token)]
      const event = await createEventAs(editor.token, { venue: [a.id, b.id] })
      expect(event.venue.id).toBe(a.id)
      // Inline ones past the first are dropped before any is made: no venue left linked to nothing.
      const [first, second] = [unique('First hall '), unique('Second hall ')]
      const inline = await createEventAs(editor.token, {
        venue: [{ venue: first }, { venue: second }],
      })
      expect(inline.venue.venue).toBe(first)
      expect(
        await payloadDocs('venues', `where[name][equals]=${encodeURIComponent(second)}`),
      ).toEqual([])
    })

    it.each([
      ['an unknown id', NO_SUCH_ID],
      ['an unknown { id }', { id: NO_SUCH_ID }],
      ['an inline venue without a name', { city: 'Nowhere' }],
      ['an inline venue with an empty name', { venue: '' }],
      ['an inline venue with a bad website', { venue: 'X', website: 'foo' }],
      ['a negative id', -3],
      ['text', 'the town hall'],
    ])('refuses %s, naming venue', async (_, venue) => {
      expectInvalidParam(
        await api('/events', { method: 'POST', token: editor.token, json: eventBody({ venue }) }),
        'venue',
      )
    })
  })

  describe('organizers', () => {
    it('links and creates organizers in the order given', async () => {
      const first = await createOrganizerAs(editor.token)
      const third = await createOrganizerAs(editor.token)
      const inlineName = unique('Inline org ')
      const event = await createEventAs(editor.token, {
        organizer: [
          first.id,
          { organizer: inlineName, website: 'https://org.example' },
          { id: third.id },
        ],
      })
      expect(
        event.organizer.map((organizer: { organizer: string }) => organizer.organizer),
      ).toEqual([first.organizer, inlineName, third.organizer])
      expect(event.organizer[0].id).toBe(first.id)
      expect(event.organizer[2].id).toBe(third.id)
      expect(event.organizer[1].website).toBe('https://org.example')

      const single = await createEventAs(editor.token, { organizer: first.id })
      expect(ids(single.organizer)).toEqual([first.id])
      const reused = await createEventAs(editor.token, {
        organizer: { organizer: inlineName, website: 'https://org.example' },
      })
      expect(ids(reused.organizer)).toEqual([event.organizer[1].id])
    })

    it('takes organizer ids as a comma-separated list (docs/api.md §6.1: lists accept arrays or CSV)', async () => {
      const [a, b] = [await createOrganizerAs(editor.token), await createOrganizerAs(editor.token)]
      const json = await api('/events', {
        method: 'POST',
        token: editor.token,
        json: eventBody({ organizer: `${b.id},${a.id}` }),
      })
      expect(json.status, JSON.stringify(json.body)).toBe(201)
      expect(ids(json.body.organizer)).toEqual([b.id, a.id])
      const form = await api('/events', {
        method: 'POST',
        token: editor.token,
        form: {
          title: unique('csv'),
          start_date: '2030-01-01',
          end_date: '2030-01-02',
          organizer: `${a.id}, ${b.id}`,
        },
      })
      expect(form.status, JSON.stringify(form.body)).toBe(201)
      expect(ids(form.body.organizer)).toEqual([a.id, b.id])
      const repeated = await api('/events', {
        method: 'POST',
        token: editor.token,
        ...formPairs([
          ['title', unique('rep')],
          ['start_date', '2030-01-01'],
          ['end_date', '2030-01-02'],
          ['organizer[]', String(a.id)],
          ['organizer[]', String(b.id)],
        ]),
      })
      expect(repeated.status).toBe(201)
      expect(ids(repeated.body.organizer)).toEqual([a.id, b.id])
    })

    it('refuses unknown organizer ids, naming organizer', async () => {
      const known = await createOrganizerAs(editor.token)
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ organizer: [known.id, NO_SUCH_ID] }),
        }),
        'organizer',
      )
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ organizer: [{ id: NO_SUCH_ID }] }),
        }),
        'organizer',
      )
    })
  })

  describe('image', () => {
    it('takes a media id, or the URL of a stored media item, and refuses other ids', async () => {
      const media = await uploadImage()
      const byId = await createEventAs(editor.token, { image: media.id })
      expect(byId.image).toMatchObject({ id: media.id, extension: 'png', width: 4, height: 3 })
      expect(byId.image.url).toMatch(/^https?:\/\//)
      const byUrl = await createEventAs(editor.token, { image: byId.image.url })
      expect(byUrl.image.id).toBe(media.id)
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ image: NO_SUCH_ID }),
        }),
        'image',
      )
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ image: 'not a url' }),
        }),
        'image',
      )
    })

    it('refuses image URLs from contributors and from loopback addresses', async () => {
      const media = await uploadImage()
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: contributor.token,
          json: eventBody({ image: `${BASE_URL}/api/media/file/${media.filename}` }),
        }),
        'image',
      )
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ image: 'http://127.0.0.1:1/elsewhere.png' }),
        }),
        'image',
      )
    })
  })

  describe('password', () => {
    it('is never returned, and locks the event for single reads without it', async () => {
      const password = unique('sekret')
      const reply = await api('/events', {
        method: 'POST',
        token: editor.token,
        json: eventBody({ password, description: '<p>hidden</p>' }),
      })
      expect(reply.status).toBe(201)
      expect(JSON.stringify(reply.body)).not.toContain(password)
      expect(reply.body).not.toHaveProperty('password')
      expect(reply.body.description).toBe('<p>hidden</p>')
      const id = reply.body.id

      expectError(await api(`/events/${id}`), 403, 'event-password-protected')
      expectError(await api(`/events/${id}`, { token: admin }), 403, 'event-password-protected')
      expectError(await api(`/events/${id}?password=wrong`), 403, 'event-password-protected')
      const unlocked = await api(`/events/${id}?password=${password}`)
      expect(unlocked.status).toBe(200)
      expect(unlocked.body.description).toBe('<p>hidden</p>')
      expect(JSON.stringify(unlocked.body)).not.toContain(password)
      const edit = await api(`/events/${id}?context=edit`, { token: editor.token })
      expect(edit.status).toBe(200)
      expect(JSON.stringify(edit.body)).not.toContain(password)
    })
  })

  describe('parent', () => {
    it('stores the parent event, and refuses an unknown one', async () => {
      const parent = await createEventAs(editor.token)
      const child = await createEventAs(editor.token, { parent: parent.id })
      const stored = await call(`/api/events/${child.id}?depth=0`, { token: admin })
      expect(stored.body.parent).toBe(parent.id)
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ parent: NO_SUCH_ID }),
        }),
        'parent',
      )
    })
  })

  it('ignores computed fields sent in the body', async () => {
    const event = await createEventAs(editor.token, {
      timezone: 'Europe/Paris',
      url: 'https://evil.example/event/x/',
      rest_url: 'https://evil.example/api',
      global_id: 'evil?id=1',
      utc_start_date: '1999-01-01 00:00:00',
      utc_end_date: '1999-01-01 01:00:00',
      start_date_details: { year: '1999' },
      utc_start_date_details: { year: '1999' },
      cost_details: {
        currency_symbol: '€',
        currency_code: 'EUR',
        currency_position: 'prefix',
        values: ['99'],
      },
      timezone_abbr: 'XYZ',
      json_ld: { name: 'evil' },
      custom_fields: { evil: { label: 'x', value: 'y' } },
    })
    expect(event).toMatchObject({
      url: `${BASE_URL}/event/${event.slug}/`,
      rest_url: `${ROOT}/events/${event.id}`,
      utc_start_date: '2030-01-01 09:00:00',
      utc_end_date: '2030-01-01 11:00:00',
      start_date_details: details('2030-01-01 10:00:00'),
      utc_start_date_details: details('2030-01-01 09:00:00'),
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
      timezone_abbr: 'CET',
      custom_fields: [],
    })
    expect(event.global_id).toBe(`${new URL(BASE_URL).host}?id=${event.id}`)
    expect(event).not.toHaveProperty('json_ld')
  })

  describe('required parameters', () => {
    it('lists every missing one', async () => {
      expectMissing(await api('/events', { method: 'POST', token: editor.token, json: {} }), [
        'title',
        'start_date',
        'end_date',
      ])
      expectMissing(
        await api('/events', { method: 'POST', token: editor.token, json: { title: 'x' } }),
        ['start_date', 'end_date'],
      )
      expectMissing(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          form: { start_date: '2030-01-01', end_date: '2030-01-02' },
        }),
        ['title'],
      )
      expectMissing(await api('/events', { method: 'POST', token: editor.token }), [
        'title',
        'start_date',
        'end_date',
      ])
    })

    it('refuses an empty title as an invalid one', async () => {
      expectInvalidParam(
        await api('/events', {
          method: 'POST',
          token: editor.token,
          json: eventBody({ title: '' }),
        }),
        'title',
      )
    })
  })

  describe('bodies', () => {
    it('reads form-urlencoded bodies with PHP brackets', async () => {
      const known = await createOrganizerAs(editor.token)
      const venueName = unique('Form venue ')
      const orgName = unique('Form org ')
      const reply = await api('/events', {
        method: 'POST',
        token: editor.token,
        form: {
          title: unique('Form '),
          start_date: '2030-03-01 18:00:00',
          end_date: '2030-03-01 20:00:00',
          timezone: 'Europe/Paris',
          'venue[venue]': venueName,
          'venue[city]': 'Lyon',
          'organizer[0][organizer]': orgName,
          'organizer[1][id]': String(known.id),
          'categories[0]': unique('Formcat '),
          featured: 'true',
        },
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      expect(reply.body).toMatchObject({
        start_date: '2030-03-01 18:00:00',
        utc_start_date: '2030-03-01 17:00:00',
        featured: true,
      })
      expect(reply.body.venue).toMatchObject({ venue: venueName, city: 'Lyon' })
      expect(
        reply.body.organizer.map((organizer: { organizer: string }) => organizer.organizer),
      ).toEqual([orgName, known.organizer])
      expect(reply.body.categories).toHaveLength(1)
    })

    it('reads multipart bodies', async () => {
      const venue = await createVenueAs(editor.token)
      const form = new FormData()
      const title = unique('Multipart ')
      form.append('title', title)
      form.append('start_date', '2030-04-01 10:00:00')
      form.append('end_date', '2030-04-01 11:00:00')
      form.append('description', '<p>From a form</p>')
      form.append('venue', String(venue.id))
      form.append('organizer[0][organizer]', unique('Multi org '))
      form.append('cost[]', '5€')
      form.append('cost[]', '15€')
      form.append('sticky', '1')
      const reply = await api('/events', { method: 'POST', token: editor.token, body: form })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      expect(reply.body).toMatchObject({
        title,
        description: '<p>From a form</p>',
        start_date: '2030-04-01 10:00:00',
        cost: '5€ – 15€',
        sticky: true,
      })
      expect(reply.body.venue.id).toBe(venue.id)
      expect(reply.body.organizer).toHaveLength(1)
    })

    it.each(['{"title":', '[1,2]', 'null', '"text"', '{"title": "x",}'])(
      'refuses the malformed JSON %s with rest_invalid_json',
      async (text) => {
        expectError(
          await api('/events', {
            method: 'POST',
            token: editor.token,
            body: text,
            headers: { 'Content-Type': 'application/json' },
          }),
          400,
          'rest_invalid_json',
        )
      },
    )

    it('refuses malformed JSON before checking who asks', async () => {
      expectError(
        await api('/events', {
          method: 'POST',
          body: '{',
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
        'rest_invalid_json',
      )
    })
  })
})

describe('malformed input', () => {
  it.each<[string, unknown]>([
    ['title', 123],
    ['title', ['a']],
    ['start_date', { date: '2030-01-01' }],
    ['end_date', true],
    ['description', 5],
    ['excerpt', { text: 'x' }],
    ['timezone', 5],
    ['website', 5],
    ['cost', { amount: 5 }],
    ['categories', { id: 1 }],
    ['tags', [[1]]],
    ['venue', [[1]]],
    ['venue', { id: 'abc' }],
    ['organizer', [[1]]],
    ['organizer', { id: -1 }],
    ['author', 'abc'],
    ['author', 0],
    ['parent', -1],
    ['image', { id: 1 }],
    ['status', 5],
    ['featured', null],
    ['date', []],
    ['slug', 5],
    ['password', 5],
  ])('refuses %s=%j with a 400 naming it', async (param, value) => {
    expectInvalidParam(
      await api('/events', {
        method: 'POST',
        token: editor.token,
        json: eventBody({ [param]: value }),
      }),
      param,
    )
  })

  it('never answers 5xx to odd ids, keys and bodies', async () => {
    for (const path of [
      '/events/99999999999999999999',
      '/events/0',
      '/venues/99999999999999999999',
      '/organizers/0',
      '/categories/99999999999999999999',
      '/tags/0',
    ]) {
      for (const method of ['PATCH', 'DELETE']) {
        const reply = await api(path, { method, token: editor.token, json: { title: 'x' } })
        expect(reply.status, `${method} ${path}`).toBeGreaterThanOrEqual(400)
      }
    }
    const odd = await api('/events', {
      method: 'POST',
      token: editor.token,
      body: '__proto__[x]=1&constructor[prototype][y]=2&title[][]=a&organizer[0][organizer][x]=1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(odd.status).toBe(400)
    const nested = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: eventBody({ organizer: [{ organizer: { name: 'x' } }] }),
    })
    expectInvalidParam(nested, 'organizer')
    const broken = await api('/events', {
      method: 'POST',
      token: editor.token,
      body: '--x\r\nbroken',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    })
    expect(broken.status).toBe(400)
  })

  it('reads JSON and form bodies whose Content-Type names a charset', async () => {
    const json = await api('/events', {
      method: 'POST',
      token: editor.token,
      body: JSON.stringify(eventBody({ title: 'Café ☕' })),
      headers: { 'Content-Type': 'application/json; charset=UTF-8' },
    })
    expect(json.status).toBe(201)
    expect(json.body.title).toBe('Café ☕')
    const form = await api('/events', {
      method: 'POST',
      token: editor.token,
      body: new URLSearchParams({
        title: 'Crème brûlée',
        start_date: '2030-01-01 10:00:00',
        end_date: '2030-01-01 11:00:00',
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    })
    expect(form.status).toBe(201)
    expect(form.body.title).toBe('Crème brûlée')
  })
})

describe('POST /events: parameters before permission, stored data after', () => {
  it('answers 400 to an anonymous client with a bad parameter, 401 with a valid body or one naming an unknown record', async () => {
    expectInvalidParam(
      await api('/events', { method: 'POST', json: eventBody({ featured: 'yes' }) }),
      'featured',
    )
    expectMissing(await api('/events', { method: 'POST', json: { title: 'x' } }), [
      'start_date',
      'end_date',
    ])
    expectError(
      await api('/events', { method: 'POST', json: eventBody({ venue: NO_SUCH_ID }) }),
      401,
      'rest_forbidden',
    )
    expectInvalidParam(
      await api('/events', {
        method: 'POST',
        token: editor.token,
        json: eventBody({ venue: NO_SUCH_ID }),
      }),
      'venue',
    )
    const title = unique('anon')
    expectError(
      await api('/events', { method: 'POST', json: eventBody({ title }) }),
      401,
      'rest_forbidden',
    )
    expect(await payloadDocs('events', `where[title][equals]=${title}`)).toEqual([])
  })

  it('answers 403 to a subscriber with a valid body, 400 with a bad one', async () => {
    const title = unique('sub')
    expectError(
      await api('/events', { method: 'POST', token: subscriber.token, json: eventBody({ title }) }),
      403,
      'rest_forbidden',
    )
    expectInvalidParam(
      await api('/events', {
        method: 'POST',
        token: subscriber.token,
        json: eventBody({ website: 'foo' }),
      }),
      'website',
    )
    expect(await payloadDocs('events', `where[title][equals]=${title}`)).toEqual([])
  })

  it('creates nothing inline for clients who may not create events', async () => {
    const name = unique('Anon venue ')
    expectError(
      await api('/events', { method: 'POST', json: eventBody({ venue: { venue: name } }) }),
      401,
      'rest_forbidden',
    )
    expectError(
      await api('/events', {
        method: 'POST',
        token: subscriber.token,
        json: eventBody({ venue: { venue: name }, categories: [name] }),
      }),
      403,
      'rest_forbidden',
    )
    expect(await payloadDocs('venues', `where[name][equals]=${encodeURIComponent(name)}`)).toEqual(
      [],
    )
    expect(
      await payloadDocs('event-categories', `where[name][equals]=${encodeURIComponent(name)}`),
    ).toEqual([])
  })
})

describe('updating events', () => {
  it('is a true partial update: omitted fields keep their values', async () => {
    const media = await uploadImage()
    const organizer = await createOrganizerAs(editor.token)
    const created = await createEventAs(editor.token, {
      status: 'draft',
      all_day: true,
      timezone: 'Asia/Tokyo',
      start_date: '2030-05-01 10:00:00',
      end_date: '2030-05-02 10:00:00',
      website: 'https://example.org/kept',
      image: media.id,
      organizer: [organizer.id, { organizer: unique('Kept org ') }],
      venue: { venue: unique('Kept venue ') },
      categories: [unique('Kept cat ')],
      tags: [unique('Kept tag ')],
      cost: ['10$', '20$'],
      description: '<p>Kept</p>',
      excerpt: 'Kept excerpt',
      show_map: false,
      featured: true,
      sticky: true,
      hide_from_listings: true,
      password: 'kept-password',
    })
    const title = unique('Renamed ')
    const reply = await api(`/events/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { title },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    const { modified: _m, modified_utc: _mu, title: newTitle, ...rest } = reply.body
    const { modified: _m2, modified_utc: _mu2, title: oldTitle, ...before } = created
    expect(newTitle).toBe(title)
    expect(oldTitle).not.toBe(title)
    expect(rest).toEqual(before)
    expect(rest).toMatchObject({
      status: 'draft',
      all_day: true,
      start_date: '2030-05-01 00:00:00',
      end_date: '2030-05-02 23:59:59',
      website: 'https://example.org/kept',
    })
    expect(rest.image.id).toBe(media.id)
    expect(rest.organizer).toHaveLength(2)
    // The password stays too: anonymous single reads are still locked.
    const stored = await call(`/api/events/${created.id}?depth=0`, { token: admin })
    expect(stored.body.password).toBe('kept-password')
  })

  it('keeps the status when none is sent, whoever updates', async () => {
    const draft = await createEventAs(author.token, { status: 'draft' })
    expect(
      (
        await api(`/events/${draft.id}`, {
          method: 'PUT',
          token: author.token,
          json: { title: unique('d') },
        })
      ).body.status,
    ).toBe('draft')
    const pending = await createEventAs(contributor.token, { status: 'pending' })
    expect(
      (
        await api(`/events/${pending.id}`, {
          method: 'POST',
          token: contributor.token,
          json: { excerpt: 'x' },
        })
      ).body.status,
    ).toBe('pending')
  })

  it('scales a contributor’s publish back to pending on update', async () => {
    const own = await createEventAs(contributor.token)
    const reply = await api(`/events/${own.id}`, {
      method: 'PATCH',
      token: contributor.token,
      json: { status: 'publish' },
    })
    expect(reply.status).toBe(200)
    expect(reply.body.status).toBe('pending')
  })

  it('changes what is sent and clears what is sent empty', async () => {
    const organizer = await createOrganizerAs(editor.token)
    const created = await createEventAs(editor.token, {
      website: 'https://example.org/w',
      organizer: [organizer.id],
      venue: { venue: unique('Clear venue ') },
      categories: [unique('Clear cat ')],
      tags: [unique('Clear tag ')],
      cost: '5$',
      excerpt: 'To clear',
      description: '<p>To clear</p>',
      featured: true,
    })
    const reply = await api(`/events/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: {
        website: '',
        organizer: [],
        venue: 0,
        categories: '',
        tags: [],
        cost: '',
        excerpt: '',
        description: '',
        featured: false,
        end_date: '2030-01-01 18:00:00',
      },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body).toMatchObject({
      website: '',
      organizer: [],
      venue: [],
      categories: [],
      tags: [],
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
      excerpt: '',
      description: '',
      featured: false,
      start_date: '2030-01-01 10:00:00',
      end_date: '2030-01-01 18:00:00',
    })
  })

  it('answers an empty update with the event unchanged', async () => {
    const created = await createEventAs(editor.token, {
      featured: true,
      website: 'https://example.org/same',
    })
    for (const options of [{ json: {} }, {}, { form: {} }]) {
      const reply = await api(`/events/${created.id}`, {
        method: 'PATCH',
        token: editor.token,
        ...options,
      })
      expect(reply.status).toBe(200)
      const { modified: _m, modified_utc: _mu, ...after } = reply.body
      const { modified: _m2, modified_utc: _mu2, ...before } = created
      expect(after).toEqual(before)
    }
  })

  it('snaps to whole days when all_day is switched on, and keeps the zone’s wall clock', async () => {
    const created = await createEventAs(editor.token, {
      timezone: 'Europe/Paris',
      start_date: '2030-02-01 10:00:00',
      end_date: '2030-02-03 12:00:00',
    })
    const reply = await api(`/events/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { all_day: true },
    })
    expect(reply.body).toMatchObject({
      all_day: true,
      start_date: '2030-02-01 00:00:00',
      end_date: '2030-02-03 23:59:59',
      utc_start_date: '2030-01-31 23:00:00',
      utc_end_date: '2030-02-03 22:59:59',
    })
  })

  it('refuses moving the start past the stored end', async () => {
    const created = await createEventAs(editor.token)
    expectInvalidParam(
      await api(`/events/${created.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { start_date: '2030-01-05 10:00:00' },
      }),
      'end_date',
    )
  })

  it('refuses an end before the stored start', async () => {
    const created = await createEventAs(editor.token)
    expectInvalidParam(
      await api(`/events/${created.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { end_date: '2029-12-31 10:00:00' },
      }),
      'end_date',
    )
    expect((await readEvent(created.id)).end_date).toBe('2030-01-01 12:00:00')
  })

  it('validates updated fields as on create', async () => {
    const created = await createEventAs(editor.token)
    for (const [field, value] of [
      ['featured', 'yes'],
      ['website', 'foo'],
      ['timezone', 'Mars/Olympus'],
      ['start_date', 'someday'],
      ['title', ''],
      ['venue', NO_SUCH_ID],
      ['status', 'gone'],
    ] as const) {
      expectInvalidParam(
        await api(`/events/${created.id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { [field]: value },
        }),
        field,
      )
    }
    expect(await readEvent(created.id)).toMatchObject({
      title: created.title,
      website: created.website,
      featured: false,
    })
  })

  it.each(['POST', 'PUT', 'PATCH'])('%s updates by id and by slug', async (method) => {
    const created = await createEventAs(editor.token)
    const byId = await api(`/events/${created.id}`, {
      method,
      token: editor.token,
      json: { excerpt: `by id ${method}` },
    })
    expect(byId.status).toBe(200)
    expect(byId.body.excerpt).toBe(`<p>by id ${method}</p>`)
    const bySlug = await api(`/events/by-slug/${created.slug}`, {
      method,
      token: editor.token,
      form: { excerpt: `by slug ${method}` },
    })
    expect(bySlug.status).toBe(200)
    expect(bySlug.body.id).toBe(created.id)
    expect(bySlug.body.excerpt).toBe(`<p>by slug ${method}</p>`)
  })

  it('keeps the slug when only the title changes', async () => {
    const created = await createEventAs(editor.token)
    const reply = await api(`/events/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { title: unique('New title ') },
    })
    expect(reply.body.slug).toBe(created.slug)
    expect((await api(`/events/by-slug/${created.slug}`)).status).toBe(200)
  })

  it('writes the French values with i18n_language=fr and leaves the English ones', async () => {
    const created = await createEventAs(editor.token, {
      description: '<p>English</p>',
      excerpt: 'English excerpt',
    })
    const reply = await api(`/events/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: {
        i18n_language: 'fr',
        title: 'Fête de la musique',
        description: '<p>Français</p>',
        excerpt: 'Résumé',
      },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body).toMatchObject({
      title: 'Fête de la musique',
      description: '<p>Français</p>',
      excerpt: '<p>Résumé</p>',
    })
    expect(await readEvent(created.id)).toMatchObject({
      title: created.title,
      slug: created.slug,
      description: '<p>English</p>',
      excerpt: '<p>English excerpt</p>',
    })
    expect(await readEvent(created.id, '?i18n_language=fr')).toMatchObject({
      title: 'Fête de la musique',
      description: '<p>Français</p>',
      excerpt: '<p>Résumé</p>',
    })

    // In the query string as well as in the body.
    await api(`/events/${created.id}?i18n_language=fr`, {
      method: 'PATCH',
      token: editor.token,
      json: { title: 'Fête 2' },
    })
    expect((await readEvent(created.id, '?i18n_language=fr')).title).toBe('Fête 2')
    expect((await readEvent(created.id)).title).toBe(created.title)
  })

  it('creates an event in French, keeping the event object whole in English', async () => {
    const title = unique('Fête ')
    const reply = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: eventBody({ i18n_language: 'fr', title }),
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.title).toBe(title)
    expect((await readEvent(reply.body.id, '?i18n_language=fr')).title).toBe(title)
    const english = await readEvent(reply.body.id)
    expect(Object.keys(english)).toEqual([...EVENT_KEYS, 'json_ld'])
    expect(typeof english.title).toBe('string')
    expect(typeof english.slug).toBe('string')
  })

  it('creates an event in French in one save: one version, in both languages, and so for its inline venue', async () => {
    const title = unique('Marché ')
    const venue = unique('Salle ')
    const reply = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: eventBody({ i18n_language: 'fr', title, venue: { venue } }),
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    const versions = async (collection: string, id: number, language: string) =>
      (
        await call(
          `/api/${collection}/versions?where[parent][equals]=${id}&depth=0&locale=${language}&fallback-locale=none`,
          { token: admin },
        )
      ).body.docs
    for (const language of ['en', 'fr']) {
      expect(
        (await versions('events', reply.body.id, language)).map(
          (entry: any) => entry.version.title,
        ),
      ).toEqual([title])
      expect(
        (await versions('venues', reply.body.venue.id, language)).map(
          (entry: any) => entry.version.name,
        ),
      ).toEqual([venue])
    }
    expect(await readEvent(reply.body.id)).toMatchObject({ title, slug: reply.body.slug })
  })

  it('updates the item the path names, whatever id the body carries', async () => {
    const [target, bystander] = [
      await createEventAs(editor.token),
      await createEventAs(editor.token),
    ]
    const byId = await api(`/events/${target.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { id: bystander.id, title: unique('Path wins ') },
    })
    expect(byId.body.id).toBe(target.id)
    const bySlug = await api(`/events/by-slug/${target.slug}`, {
      method: 'PATCH',
      token: editor.token,
      json: { id: bystander.id, excerpt: 'path' },
    })
    expect(bySlug.body.id).toBe(target.id)
    // A body slug is the item's new slug; the bystander's is taken.
    expectInvalidParam(
      await api(`/events/by-slug/${target.slug}`, {
        method: 'PATCH',
        token: editor.token,
        json: { slug: bystander.slug },
      }),
      'slug',
    )
    expect(await readEvent(bystander.id)).toMatchObject({
      title: bystander.title,
      excerpt: '',
      slug: bystander.slug,
    })
  })

  it("keeps an event's parent an event without one, through every door", async () => {
    const head = await createEventAs(editor.token)
    const child = await createEventAs(editor.token, { parent: head.id })
    expect(child.post_parent).toBe(head.id)
    const parentOf = async (id: number) =>
      (await call(`/api/events/${id}?depth=0`, { token: admin })).body.parent ?? null
    const refusedParent = (reply: Reply, message: RegExp) => {
      expectInvalidParam(reply, 'parent')
      expect(reply.body.data.params.parent).toMatch(message)
    }

    // Its own parent, a cycle (head under its own child), a chain (under an event with a parent).
    refusedParent(
      await api(`/events/${head.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { parent: head.id },
      }),
      /its own parent/,
    )
    refusedParent(
      await api(`/events/${head.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { parent: child.id },
      }),
      /a parent of its own/,
    )
    const chained = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: {
        title: unique('Chained '),
        start_date: '2031-01-01 10:00',
        end_date: '2031-01-01 11:00',
        parent: child.id,
      },
    })
    refusedParent(chained, /a parent of its own/)
    // A series' first event has none.
    refusedParent(
      await api('/events', {
        method: 'POST',
        token: editor.token,
        json: {
          title: unique('Headed '),
          start_date: '2031-01-01 10:00',
          end_date: '2031-01-01 11:00',
          parent: head.id,
          recurrence: 'RRULE:FREQ=DAILY;COUNT=3',
        },
      }),
      /first event cannot have a parent/,
    )
    // A parent of others takes none, through Payload's REST and GraphQL as through the namespace.
    const loner = await createEventAs(editor.token)
    const rest = await call(`/api/events/${head.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { parent: loner.id },
    })
    expect(rest.status, JSON.stringify(rest.body)).toBe(400)
    expect(JSON.stringify(rest.body)).toContain('An event that is a parent cannot have a parent.')
    const mutation = await graphql(
      `mutation { updateEvent(id: ${head.id}, data: { parent: ${child.id} }) { id } }`,
      editor.token,
    )
    expect(mutation.body.data?.updateEvent ?? null, JSON.stringify(mutation.body)).toBeNull()
    expect(JSON.stringify(mutation.body.errors)).toContain('a parent of its own')
    expect(await parentOf(head.id)).toBeNull()
    expect(await parentOf(child.id)).toBe(head.id)
    // A single event may still be given a parent, and lose it.
    const joined = await api(`/events/${loner.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { parent: head.id },
    })
    expect(joined.status).toBe(200)
    expect(joined.body.post_parent).toBe(head.id)
    expect(
      (
        await api(`/events/${loner.id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { parent: 0 },
        })
      ).body.post_parent,
    ).toBe(0)
  })

  it('removes a password when it is sent empty', async () => {
    const created = await createEventAs(editor.token, { password: 'to-remove' })
    expectError(await api(`/events/${created.id}`), 403, 'event-password-protected')
    expect(
      (
        await api(`/events/${created.id}`, {
          method: 'PATCH',
          token: editor.token,
          json: { password: '' },
        })
      ).status,
    ).toBe(200)
    expect((await api(`/events/${created.id}`)).status).toBe(200)
  })

  it('updates untranslated fields in French without requiring a French title first', async () => {
    const created = await createEventAs(editor.token, { excerpt: 'English only' })
    const flags = await api(`/events/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { i18n_language: 'fr', featured: true },
    })
    expect(flags.status, JSON.stringify(flags.body)).toBe(200)
    expect(flags.body).toMatchObject({ featured: true, title: created.title })
    const excerpt = await api(`/events/${created.id}?i18n_language=fr`, {
      method: 'PATCH',
      token: editor.token,
      json: { excerpt: 'Résumé seulement' },
    })
    expect(excerpt.status, JSON.stringify(excerpt.body)).toBe(200)
    expect(await readEvent(created.id, '?i18n_language=fr')).toMatchObject({
      title: created.title,
      excerpt: '<p>Résumé seulement</p>',
      featured: true,
    })
    expect((await readEvent(created.id)).excerpt).toBe('<p>English only</p>')
  })

  it('keeps embedded terms whole in English when a category is created by name in French', async () => {
    const created = await createEventAs(editor.token)
    const name = unique('Nouvelle catégorie ')
    const reply = await api(`/events/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { i18n_language: 'fr', title: 'Titre', categories: [name] },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.categories.map((term: { name: string }) => term.name)).toEqual([name])
    const english = await readEvent(created.id)
    expect(english.categories).toHaveLength(1)
    expect(typeof english.categories[0].name).toBe('string')
  })

  it('refuses an unknown language', async () => {
    const created = await createEventAs(editor.token)
    expectInvalidParam(
      await api(`/events/${created.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { i18n_language: 'xx', title: 'x' },
      }),
      'i18n_language',
    )
  })

  describe('unknown events', () => {
    it('answers 401 to anonymous clients and 404 rest-event-not-found to those who may write events', async () => {
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const anonymous = await api(`/events/${NO_SUCH_ID}`, { method, json: { title: 'x' } })
        expectError(anonymous, 401, 'rest_forbidden')
        expect(anonymous.body.message).toBe('Sorry, you are not allowed to do that.')
        const missing = await api(`/events/${NO_SUCH_ID}`, {
          method,
          token: editor.token,
          json: { title: 'x' },
        })
        expectError(missing, 404, 'rest-event-not-found')
        expect(missing.body.message).toBe(`Event with ID ${NO_SUCH_ID} does not exist.`)
        expect(missing.body.data).toEqual({ status: 404 })
      }
      expectError(
        await api(`/events/${NO_SUCH_ID}`, {
          method: 'PATCH',
          token: contributor.token,
          json: { title: 'x' },
        }),
        404,
        'rest-event-not-found',
      )
      expectError(
        await api(`/events/${NO_SUCH_ID}`, {
          method: 'PATCH',
          token: subscriber.token,
          json: { title: 'x' },
        }),
        403,
        'rest_forbidden',
      )
    })

    it('answers 400 for an unknown slug to those who may write events, 401 to anonymous clients', async () => {
      const slug = unique('no-such-slug-')
      expectInvalidParam(
        await api(`/events/by-slug/${slug}`, {
          method: 'PATCH',
          token: editor.token,
          json: { title: 'x' },
        }),
        'slug',
      )
      expectError(
        await api(`/events/by-slug/${slug}`, { method: 'PUT', json: { title: 'x' } }),
        401,
        'rest_forbidden',
      )
    })

    it('answers rest_no_route for a non-numeric id', async () => {
      expectError(
        await api('/events/abc', { method: 'PATCH', token: editor.token, json: { title: 'x' } }),
        404,
        'rest_no_route',
      )
    })
  })

  describe('who may update', () => {
    it('lets contributors edit their own drafts only', async () => {
      const own = await createEventAs(contributor.token)
      expect(
        (
          await api(`/events/${own.id}`, {
            method: 'PATCH',
            token: contributor.token,
            json: { title: unique('c') },
          })
        ).status,
      ).toBe(200)
      expect(
        (
          await api(`/events/by-slug/${own.slug}`, {
            method: 'PATCH',
            token: contributor.token,
            json: { excerpt: 'x' },
          })
        ).status,
      ).toBe(200)

      const published = await createEventAs(contributor.token)
      expect(
        (
          await api(`/events/${published.id}`, {
            method: 'PATCH',
            token: editor.token,
            json: { status: 'publish' },
          })
        ).body.status,
      ).toBe('publish')
      expectError(
        await api(`/events/${published.id}`, {
          method: 'PATCH',
          token: contributor.token,
          json: { title: 'x' },
        }),
        403,
        'rest_forbidden',
      )

      const others = await createEventAs(editor.token, { status: 'draft' })
      expectError(
        await api(`/events/${others.id}`, {
          method: 'PATCH',
          token: contributor.token,
          json: { title: 'x' },
        }),
        403,
        'rest_forbidden',
      )
      expectError(
        await api(`/events/by-slug/${others.slug}`, {
          method: 'PATCH',
          token: contributor.token,
          json: { title: 'x' },
        }),
        403,
        'rest_forbidden',
      )
      expect((await readEvent(others.id)).title).toBe(others.title)
    })

    it('lets authors edit their own events, published or not, and nobody else’s', async () => {
      const own = await createEventAs(author.token)
      expect(own.status).toBe('publish')
      expect(
        (
          await api(`/events/${own.id}`, {
            method: 'PUT',
            token: author.token,
            json: { title: unique('a') },
          })
        ).status,
      ).toBe(200)
      const others = await createEventAs(editor.token)
      expectError(
        await api(`/events/${others.id}`, {
          method: 'PUT',
          token: author.token,
          json: { title: 'x' },
        }),
        403,
        'rest_forbidden',
      )
      expectError(
        await api(`/events/by-slug/${others.slug}`, {
          method: 'PUT',
          token: author.token,
          json: { title: 'x' },
        }),
        403,
        'rest_forbidden',
      )
      expect((await readEvent(others.id)).title).toBe(others.title)
    })

    it('lets editors and administrators edit anyone’s event, and reassign it', async () => {
      const authors = await createEventAs(author.token, { status: 'draft' })
      const byEditor = await api(`/events/${authors.id}`, {
        method: 'PATCH',
        token: editor.token,
        json: { title: unique('e'), author: contributor.id },
      })
      expect(byEditor.status).toBe(200)
      expect(byEditor.body.author).toBe(String(contributor.id))
      expect(
        (
          await api(`/events/${authors.id}`, {
            method: 'PATCH',
            token: admin,
            json: { status: 'publish' },
          })
        ).body.status,
      ).toBe('publish')
    })

    it('ignores an author’s attempt to hand an event to someone else', async () => {
      const own = await createEventAs(author.token)
      const reply = await api(`/events/${own.id}`, {
        method: 'PATCH',
        token: author.token,
        json: { author: editor.id },
      })
      expect(reply.status).toBe(200)
      expect(reply.body.author).toBe(String(author.id))
    })

    it('answers 401 to anonymous clients and 403 to subscribers', async () => {
      const event = await createEventAs(editor.token)
      for (const method of ['POST', 'PUT', 'PATCH']) {
        expectError(
          await api(`/events/${event.id}`, { method, json: { title: 'x' } }),
          401,
          'rest_forbidden',
        )
        expectError(
          await api(`/events/${event.id}`, {
            method,
            token: subscriber.token,
            json: { title: 'x' },
          }),
          403,
          'rest_forbidden',
        )
        expectError(
          await api(`/events/by-slug/${event.slug}`, { method, json: { title: 'x' } }),
          401,
          'rest_forbidden',
        )
      }
      // Validation still comes first.
      expectInvalidParam(
        await api(`/events/${event.id}`, { method: 'PATCH', json: { featured: 'yes' } }),
        'featured',
      )
      expectInvalidParam(
        await api(`/events/${event.id}`, {
          method: 'PATCH',
          token: subscriber.token,
          json: { website: 'foo' },
        }),
        'website',
      )
      expect((await readEvent(event.id)).title).toBe(event.title)
    })
  })
})

describe('trashing events', () => {
  it('moves the event to the trash: 200 with status "trash", then 410 event-is-in-trash', async () => {
    const event = await createEventAs(editor.token)
    const reply = await api(`/events/${event.id}`, { method: 'DELETE', token: editor.token })
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body)).toEqual(EVENT_KEYS)
    expect(reply.body).toMatchObject({ id: event.id, title: event.title, status: 'trash' })
    const again = await api(`/events/${event.id}`, { method: 'DELETE', token: editor.token })
    expectError(again, 410, 'event-is-in-trash')
    expect(again.body).toEqual({
      code: 'event-is-in-trash',
      message: 'The event is already trashed',
      data: { status: 410 },
    })
    expectError(await api(`/events/${event.id}`), 403, 'event-no-longer-available')
    const stored = await call(`/api/events/${event.id}?depth=0`, { token: admin })
    expect(stored.body.status).toBe('trash')
  })

  it('trashes with a language set, the event having no values in that language', async () => {
    const event = await createEventAs(editor.token)
    const reply = await api(`/events/${event.id}?i18n_language=fr`, {
      method: 'DELETE',
      token: editor.token,
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body).toMatchObject({ id: event.id, status: 'trash', title: event.title })
    const prefixed = await createEventAs(editor.token)
    const viaRoot = await call(`/de/api/cal/events/v1/events/${prefixed.id}`, {
      method: 'DELETE',
      token: editor.token,
    })
    expect(viaRoot.status, JSON.stringify(viaRoot.body)).toBe(200)
  })

  it('ignores force=true (the event is still only trashed)', async () => {
    const event = await createEventAs(editor.token)
    const reply = await api(`/events/${event.id}?force=true`, { method: 'DELETE', token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body.status).toBe('trash')
    const stored = await call(`/api/events/${event.id}?depth=0`, { token: admin })
    expect(stored.status).toBe(200)
    expect(stored.body.status).toBe('trash')
    const bodyForce = await createEventAs(editor.token)
    expect(
      (
        await api(`/events/${bodyForce.id}`, {
          method: 'DELETE',
          token: admin,
          json: { force: true },
        })
      ).body.status,
    ).toBe('trash')
  })

  it('trashes by slug too', async () => {
    const event = await createEventAs(editor.token)
    const reply = await api(`/events/by-slug/${event.slug}`, {
      method: 'DELETE',
      token: editor.token,
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ id: event.id, status: 'trash' })
    expectError(
      await api(`/events/by-slug/${event.slug}`, { method: 'DELETE', token: editor.token }),
      410,
      'event-is-in-trash',
    )
    expectInvalidParam(
      await api(`/events/by-slug/${unique('nope-')}`, { method: 'DELETE', token: editor.token }),
      'slug',
    )
  })

  it('answers 404 to editors and 401 to anonymous clients for an unknown id', async () => {
    expectError(
      await api(`/events/${NO_SUCH_ID}`, { method: 'DELETE', token: editor.token }),
      404,
      'rest-event-not-found',
    )
    expectError(await api(`/events/${NO_SUCH_ID}`, { method: 'DELETE' }), 401, 'rest_forbidden')
  })

  it('follows the capability matrix', async () => {
    const editors = await createEventAs(editor.token, { status: 'draft' })
    expectError(
      await api(`/events/${editors.id}`, { method: 'DELETE', token: contributor.token }),
      403,
      'rest_forbidden',
    )
    expectError(
      await api(`/events/${editors.id}`, { method: 'DELETE', token: author.token }),
      403,
      'rest_forbidden',
    )
    expectError(
      await api(`/events/by-slug/${editors.slug}`, { method: 'DELETE', token: author.token }),
      403,
      'rest_forbidden',
    )
    expectError(
      await api(`/events/${editors.id}`, { method: 'DELETE', token: subscriber.token }),
      403,
      'rest_forbidden',
    )
    expectError(await api(`/events/${editors.id}`, { method: 'DELETE' }), 401, 'rest_forbidden')
    expect((await readEvent(editors.id)).status).toBe('draft')

    const contributorsDraft = await createEventAs(contributor.token)
    expect(
      (await api(`/events/${contributorsDraft.id}`, { method: 'DELETE', token: contributor.token }))
        .body.status,
    ).toBe('trash')
    const contributorsPublished = await createEventAs(contributor.token)
    await api(`/events/${contributorsPublished.id}`, {
      method: 'PATCH',
      token: admin,
      json: { status: 'publish' },
    })
    expectError(
      await api(`/events/${contributorsPublished.id}`, {
        method: 'DELETE',
        token: contributor.token,
      }),
      403,
      'rest_forbidden',
    )

    const authors = await createEventAs(author.token)
    expect(
      (await api(`/events/${authors.id}`, { method: 'DELETE', token: author.token })).body.status,
    ).toBe('trash')
    const authors2 = await createEventAs(author.token)
    expect(
      (await api(`/events/${authors2.id}`, { method: 'DELETE', token: editor.token })).body.status,
    ).toBe('trash')
  })
})

describe('one transaction per request', () => {
  it('leaves nothing behind when the second inline organizer has no name', async () => {
    const tag = unique('atomic')
    const reply = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: eventBody({
        title: `${tag} event`,
        venue: { venue: `${tag} venue`, city: 'Atomville' },
        organizer: [{ organizer: `${tag} first organizer` }, { email: `${tag}@example.org` }],
      }),
    })
    expectInvalidParam(reply, 'organizer')
    const search = await venuesMatching(tag)
    expect({ venues: search.venues, total: search.total }).toEqual({ venues: [], total: 0 })
    expect(await payloadDocs('venues', `where[name][like]=${tag}`)).toEqual([])
    expect(await payloadDocs('organizers', `where[name][like]=${tag}`)).toEqual([])
    expect(await payloadDocs('events', `where[title][like]=${tag}`)).toEqual([])
  })

  it('leaves nothing behind when an inline organizer fails while the event is being written', async () => {
    const tag = unique('atomic')
    const reply = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: eventBody({
        title: `${tag} event`,
        categories: [`${tag} category`],
        venue: { venue: `${tag} venue` },
        organizer: [
          { organizer: `${tag} first organizer` },
          { organizer: `${tag} second organizer`, image: NO_SUCH_ID },
        ],
      }),
    })
    expectError(reply, 400, 'rest_invalid_param')
    expect((await venuesMatching(tag)).venues).toEqual([])
    expect(await payloadDocs('venues', `where[name][like]=${tag}`)).toEqual([])
    expect(await payloadDocs('organizers', `where[name][like]=${tag}`)).toEqual([])
    expect(await payloadDocs('event-categories', `where[name][like]=${tag}`)).toEqual([])
    expect(await payloadDocs('events', `where[title][like]=${tag}`)).toEqual([])
  })

  it('names `organizer` when an inline organizer’s image is unknown (not the event’s own `image`)', async () => {
    const reply = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: eventBody({ organizer: [{ organizer: unique('Org '), image: NO_SUCH_ID }] }),
    })
    expectInvalidParam(reply, 'organizer')
    expect(reply.body.data.params).not.toHaveProperty('image')
  })

  it('leaves an update undone when part of it fails', async () => {
    const tag = unique('atomic')
    const created = await createEventAs(editor.token, { title: `${tag} event` })
    const reply = await api(`/events/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: {
        title: `${tag} renamed`,
        venue: { venue: `${tag} venue` },
        organizer: [{ organizer: `${tag} organizer`, image: NO_SUCH_ID }],
      },
    })
    expect(reply.status).toBe(400)
    expect((await readEvent(created.id)).title).toBe(`${tag} event`)
    expect(await payloadDocs('venues', `where[name][like]=${tag}`)).toEqual([])
    expect(await payloadDocs('organizers', `where[name][like]=${tag}`)).toEqual([])
  })
})

describe('round trip', () => {
  it('reads back through GET /events/{id} exactly what was written', async () => {
    const organizer = await createOrganizerAs(editor.token)
    const written = {
      title: unique('Round trip '),
      description: '<p>A <em>round</em> trip</p>',
      excerpt: 'There and back',
      timezone: 'America/New_York',
      start_date: '2030-09-10 19:30:00',
      end_date: '2030-09-10 22:00:00',
      cost: ['15$', '25$'],
      website: 'https://example.org/round-trip',
      show_map: false,
      show_map_link: true,
      sticky: false,
      featured: true,
      categories: [unique('RT cat ')],
      tags: [unique('RT tag ')],
      venue: {
        venue: unique('RT venue '),
        address: '5 Broadway',
        city: 'New York',
        state: 'NY',
        country: 'United States',
        zip: '10004',
        website: 'https://venue.example',
      },
      organizer: [{ organizer: unique('RT org '), phone: '212-555-0100' }, organizer.id],
    }
    const created = await api('/events', { method: 'POST', token: editor.token, json: written })
    expect(created.status).toBe(201)
    const read = await readEvent(created.body.id)
    const { json_ld: jsonLd, ...withoutJsonLd } = read
    // Single reads add json_ld to the event and to its embedded venue and organizers (docs/api.md §3.1).
    const { json_ld: venueJsonLd, ...venue } = withoutJsonLd.venue
    const organizers = withoutJsonLd.organizer.map(
      ({ json_ld: _, ...rest }: { json_ld: unknown }) => rest,
    )
    expect(venueJsonLd).toMatchObject({ '@type': 'Place', name: written.venue.venue })
    expect({ ...withoutJsonLd, venue, organizer: organizers }).toEqual(created.body)
    expect(jsonLd).toMatchObject({
      '@type': 'Event',
      name: written.title,
      startDate: '2030-09-10T19:30:00-04:00',
    })
    expect(read).toMatchObject({
      title: written.title,
      description: written.description,
      excerpt: '<p>There and back</p>',
      timezone: 'America/New_York',
      timezone_abbr: 'EDT',
      start_date: written.start_date,
      end_date: written.end_date,
      utc_start_date: '2030-09-10 23:30:00',
      utc_end_date: '2030-09-11 02:00:00',
      cost: '15$ – 25$',
      website: written.website,
      show_map: false,
      show_map_link: true,
      sticky: false,
      featured: true,
    })
    expect(read.categories.map((term: { name: string }) => term.name)).toEqual(written.categories)
    expect(read.tags.map((term: { name: string }) => term.name)).toEqual(written.tags)
    expect(read.venue).toMatchObject({ ...written.venue, stateprovince: 'NY' })
    expect(read.organizer.map((item: { organizer: string }) => item.organizer)).toEqual([
      written.organizer[0]!.organizer,
      organizer.organizer,
    ])
    expect(read.organizer[0].phone).toBe('212-555-0100')

    const anonymous = await api(`/events/${created.body.id}`)
    expect(anonymous.status).toBe(200)
    expect(anonymous.body.title).toBe(written.title)
  })

  it('reads back in French what was written in French, and in English what was written in English', async () => {
    const created = await createEventAs(editor.token, {
      title: 'Summer party',
      description: '<p>Come along</p>',
      excerpt: 'Fun',
    })
    const french = {
      title: 'Fête d’été',
      description: '<p>Venez nombreux</p>',
      excerpt: 'Amusant',
      slug: unique('fete-ete-'),
    }
    const updated = await api(`/events/${created.id}`, {
      method: 'POST',
      token: editor.token,
      form: { ...french, i18n_language: 'fr' },
    })
    expect(updated.status).toBe(200)
    const read = await readEvent(created.id, '?i18n_language=fr')
    expect(read).toMatchObject({
      title: french.title,
      description: french.description,
      excerpt: '<p>Amusant</p>',
      slug: french.slug,
    })
    expect(read.url).toBe(`${BASE_URL}/fr/event/${french.slug}/`)
    const prefixed = await call(`/fr/api/cal/events/v1/events/${created.id}`, { token: admin })
    expect(prefixed.body.title).toBe(french.title)
    expect(await readEvent(created.id)).toMatchObject({
      title: 'Summer party',
      description: '<p>Come along</p>',
      excerpt: '<p>Fun</p>',
      slug: created.slug,
    })
    const bySlug = await api(`/events/by-slug/${french.slug}?i18n_language=fr`)
    expect(bySlug.status).toBe(200)
    expect(bySlug.body.id).toBe(created.id)
  })
})
