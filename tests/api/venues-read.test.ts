/**
 * Read side of venues (docs/api.md §3.1, §3.3, §4.4, §5, §11; docs/api.md §2, §3, §4.5, §9, §10):
 * `GET /venues` with its filters and pagination, `GET /venues/{id}` and `/venues/by-slug/{slug}`,
 * the venue object key for key, access, password protection, languages, and the venue embedded in events.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  BASE_URL,
  call,
  type Reply,
  ROOT,
  type TestUser,
  unique,
  uploadImage,
  userWithRole,
} from '../support/api'
import { expectError, expectInvalidParam } from '../support/expectations'
import { describeLinkedPaging } from '../support/linkedPaging'
import {
  changeSettings,
  createEvent,
  createVenue,
  dayAt,
  follow,
  ns,
  qs,
  restoreSettings,
  richText,
  splitUrl,
} from '../support/fixtures'
import {
  adminId,
  createDoc,
  expectTotals,
  expectWithheld,
  globalId,
  patchDoc,
  readDoc,
  wallClock,
} from '../support/linkedFixtures'

const LIST = `${ROOT}/venues/`
const FR_ROOT = `${BASE_URL}/fr/api/cal/events/v1`

const VENUE_KEYS = [
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
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
  'geo_lat',
  'geo_lng',
  'json_ld',
  'show_map',
  'show_map_link',
  'global_id',
  'global_id_lineage',
]

/** Keys of a venue that has only a name: every empty field omitted, the map flags always there. */
const MINIMAL_KEYS = [
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
  'json_ld',
  'show_map',
  'show_map_link',
  'global_id',
  'global_id_lineage',
]

/** What a password keeps from readers who have not unlocked it (docs/api.md §3.3). */
const PROTECTED_KEYS = [
  'description',
  'excerpt',
  'image',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
  'geo_lat',
  'geo_lng',
]

function list(
  params: Record<string, string | number | boolean | undefined>,
  token?: string,
): Promise<Reply> {
  return ns(`/venues?${qs(params)}`, token)
}

function names(reply: Reply): string[] {
  expect(reply.status, JSON.stringify(reply.body).slice(0, 500)).toBe(200)
  return (reply.body.venues as { venue: string }[]).map((venue) => venue.venue)
}

let editor: TestUser
let author: TestUser
let subscriber: TestUser

beforeAll(async () => {
  ;[editor, author, subscriber] = await Promise.all([
    userWithRole('editor'),
    userWithRole('author'),
    userWithRole('subscriber'),
  ])
})

describeLinkedPaging({ key: 'venues', list, names }, ({ tag, bravo, charlie, delta }) => {
  it('takes the default per_page from the site setting', async () => {
    const previous = await changeSettings({ postsPerPage: 3 })
    try {
      const reply = await list({ search: tag })
      expect(names(reply)).toEqual([bravo, delta, charlie])
      expect(splitUrl(reply.body.rest_url).params.per_page).toBe('3')
      expect(splitUrl(reply.body.next_rest_url).params).toEqual({
        page: '2',
        per_page: '3',
        search: tag,
        status: 'publish',
      })
      expectTotals(reply, 4, 2)
    } finally {
      await restoreSettings(previous)
    }
  })
})

describe('GET /venues: search', () => {
  const tag = unique('vsearch')
  const byName = `${tag} Opera House`
  const byAddress = unique('Cellar')
  const byCity = unique('Loft')
  const byDescription = unique('Barn')
  const other = unique('Shed')

  beforeAll(async () => {
    await createVenue({ name: byName, city: 'Paris' })
    await createVenue({ name: byAddress, address: `12 ${tag} Street` })
    await createVenue({ name: byCity, city: tag })
    await createVenue({ name: byDescription, description: richText(`A barn near ${tag} lake`) })
    await createVenue({ name: other, address: '1 Elsewhere Road', city: 'Nowhere' })
  })

  it('matches the name, the address, the city and the description, case-insensitively', async () => {
    expect(names(await list({ search: tag }))).toEqual([byDescription, byCity, byAddress, byName])
    expect(names(await list({ search: tag.toUpperCase() }))).toEqual([
      byDescription,
      byCity,
      byAddress,
      byName,
    ])
    expect(names(await list({ search: `${tag} Street` }))).toEqual([byAddress])
  })

  it('matches the phone, the zip and the excerpt', async () => {
    const phone = `+33 ${Math.floor(100_000_000 + Math.random() * 900_000_000)}`
    const zip = `Z${Math.floor(10_000_000 + Math.random() * 90_000_000)}`
    const excerptWord = unique('exc')
    const byPhone = await createVenue({ name: unique('Phone'), phone })
    const byZip = await createVenue({ name: unique('Zip'), zip })
    const byExcerpt = await createVenue({
      name: unique('Excerpt'),
      excerpt: `Near the ${excerptWord} fountain`,
    })
    expect(
      (await list({ search: phone })).body.venues.map((venue: { id: number }) => venue.id),
    ).toEqual([byPhone.id])
    expect(
      (await list({ search: zip })).body.venues.map((venue: { id: number }) => venue.id),
    ).toEqual([byZip.id])
    expect(
      (await list({ search: excerptWord })).body.venues.map((venue: { id: number }) => venue.id),
    ).toEqual([byExcerpt.id])
  })

  it('takes % and _ in the search literally, not as wildcards', async () => {
    const word = unique('lit')
    await createVenue({ name: `${word}ab 100 percent` })
    await createVenue({ name: `${word}_b 100% sure` })
    expect.soft(names(await list({ search: `${word}_b` }))).toEqual([`${word}_b 100% sure`])
    expect.soft(names(await list({ search: `${word}%b` }))).toEqual([])
    expect.soft(names(await list({ search: `${word}ab 100%` }))).toEqual([])
  })

  it('answers total 0 when nothing matches (not the unfiltered total)', async () => {
    const reply = await list({ search: `${tag}-no-such-venue` })
    expect(names(reply)).toEqual([])
    expectTotals(reply, 0, 0)
  })

  it('refuses an empty search with 400 rest_invalid_param', async () => {
    expectInvalidParam(await list({ search: '' }), 'search')
  })
})

describe('GET /venues: event, has_events, only_with_upcoming', () => {
  const tag = unique('vevents')
  const lonely = unique('vlonely')
  let upcoming: number
  let past: number
  let draftOnly: number
  let ongoing: number
  const ongoingTag = unique('vongoing')
  let upcomingEvent: number
  let eventWithoutVenue: number

  beforeAll(async () => {
    upcoming = (await createVenue({ name: `${tag} Upcoming` })).id
    past = (await createVenue({ name: `${tag} Past` })).id
    await createVenue({ name: `${tag} None` })
    draftOnly = (await createVenue({ name: `${lonely} Draft only` })).id
    ongoing = (await createVenue({ name: `${ongoingTag} Ongoing` })).id
    upcomingEvent = (
      await createEvent({ title: unique('ev'), start: dayAt(5, 10), venue: upcoming })
    ).id
    // Started yesterday, ends tomorrow: still upcoming (upstream lists events that have not ended).
    await createEvent({
      title: unique('ev'),
      start: dayAt(-1, 10),
      end: dayAt(1, 10),
      venue: ongoing,
    })
    await createEvent({ title: unique('ev'), start: dayAt(-10, 10), venue: past })
    await createEvent({
      title: unique('ev'),
      start: dayAt(5, 10),
      venue: draftOnly,
      status: 'draft',
    })
    eventWithoutVenue = (await createEvent({ title: unique('ev'), start: dayAt(5, 10) })).id
  })

  it('lists the venue of an event with event=<id>, echoing event in rest_url', async () => {
    const reply = await list({ event: upcomingEvent })
    expect(reply.body.venues.map((venue: { id: number }) => venue.id)).toEqual([upcoming])
    expectTotals(reply, 1, 1)
    expect(splitUrl(reply.body.rest_url)).toEqual({
      base: LIST,
      params: { page: '1', per_page: '10', event: String(upcomingEvent), status: 'publish' },
    })
    const empty = await list({ event: eventWithoutVenue })
    expect(names(empty)).toEqual([])
    expectTotals(empty, 0, 0)
  })

  it('refuses an event id that is not an event, or not an id, with 400 rest_invalid_param', async () => {
    expectInvalidParam(await list({ event: 2_000_000_000 }), 'event')
    expectInvalidParam(await list({ event: 'abc' }), 'event')
    expectInvalidParam(await list({ event: 0 }), 'event')
  })

  it('keeps venues with events (not drafts) for has_events=1 and the others for has_events=0', async () => {
    const withEvents = await list({ search: tag, has_events: 1 })
    expect(names(withEvents)).toEqual([`${tag} Past`, `${tag} Upcoming`])
    expect(splitUrl(withEvents.body.rest_url).params.has_events).toBe('1')
    expect(names(await list({ search: tag, has_events: 'true' }))).toEqual([
      `${tag} Past`,
      `${tag} Upcoming`,
    ])
    expect(names(await list({ search: lonely, has_events: 1 }))).toEqual([])

    const without = await list({ search: tag, has_events: 0 })
    expect(names(without)).toEqual([`${tag} None`])
    expect(splitUrl(without.body.rest_url).params.has_events).toBe('0')
    expect(names(await list({ search: tag, has_events: 'false' }))).toEqual([`${tag} None`])
  })

  it('echoes has_events as given, in upstream’s order (page last in next_rest_url)', async () => {
    for (const given of ['true', '1', 'TRUE', 'false', '0']) {
      const reply = await list({ search: tag, has_events: given })
      expect(reply.body.rest_url).toBe(
        `${LIST}?page=1&per_page=10&search=${tag}&has_events=${given}&status=publish`,
      )
    }
    const paged = await list({ has_events: 'true', search: tag, per_page: 1 })
    expect(paged.body.next_rest_url).toBe(
      `${LIST}?per_page=1&search=${tag}&has_events=true&status=publish&page=2`,
    )
  })

  it('keeps only venues of upcoming events for only_with_upcoming=1 (a past event’s venue is left out)', async () => {
    const reply = await list({ search: tag, only_with_upcoming: 1 })
    expect(names(reply)).toEqual([`${tag} Upcoming`])
    expectTotals(reply, 1, 1)
    // Upstream leaves it out of rest_url.
    expect(splitUrl(reply.body.rest_url).params).not.toHaveProperty('only_with_upcoming')
    expect(names(await list({ search: tag, only_with_upcoming: 0 }))).toEqual([
      `${tag} None`,
      `${tag} Past`,
      `${tag} Upcoming`,
    ])
    expect(names(await list({ search: lonely, only_with_upcoming: 1 }))).toEqual([])
    expect(names(await list({ search: ongoingTag, only_with_upcoming: 1 }))).toEqual([
      `${ongoingTag} Ongoing`,
    ])
  })

  it('counts an upcoming private event for readers who may read it, and a draft or pending one for no one', async () => {
    const word = unique('vprivate')
    const [editor, author, subscriber] = [
      await userWithRole('editor'),
      await userWithRole('author'),
      await userWithRole('subscriber'),
    ]
    const venue = async (name: string) => (await createVenue({ name: `${word} ${name}` })).id
    await createEvent({
      title: unique('ev'),
      start: dayAt(5, 10),
      venue: await venue('private'),
      status: 'private',
    })
    await createEvent({
      title: unique('ev'),
      start: dayAt(5, 10),
      venue: await venue('own private'),
      status: 'private',
      author: author.id,
    })
    await createEvent({
      title: unique('ev'),
      start: dayAt(-5, 10),
      venue: await venue('past private'),
      status: 'private',
    })
    for (const status of ['draft', 'pending'])
      await createEvent({
        title: unique('ev'),
        start: dayAt(5, 10),
        venue: await venue(status),
        status,
        author: author.id,
      })
    const upcoming = async (token?: string) =>
      names(await list({ search: word, only_with_upcoming: 1 }, token)).sort()
    expect(await upcoming()).toEqual([])
    expect(await upcoming(subscriber.token)).toEqual([])
    expect(await upcoming(editor.token)).toEqual([`${word} own private`, `${word} private`])
    expect(await upcoming(author.token)).toEqual([`${word} own private`])
  })
})

describe('GET /venues: status', () => {
  const tag = unique('vstatus')

  beforeAll(async () => {
    for (const status of ['publish', 'draft', 'pending', 'private', 'trash'])
      await createVenue({ name: `${tag} ${status}`, status })
  })

  it('shows anonymous readers and subscribers published venues only', async () => {
    expect(names(await list({ search: tag }))).toEqual([`${tag} publish`])
    expect(names(await list({ search: tag }, subscriber.token))).toEqual([`${tag} publish`])
    const explicit = await list({ search: tag, status: 'publish' })
    expect(names(explicit)).toEqual([`${tag} publish`])
    expect(splitUrl(explicit.body.rest_url).params.status).toBe('publish')
  })

  it('answers 400 rest_invalid_param when a reader asks for anything but publish', async () => {
    expectInvalidParam(await list({ search: tag, status: 'draft' }), 'status')
    expectInvalidParam(await list({ search: tag, status: 'publish,draft' }), 'status')
    expectInvalidParam(await list({ search: tag, status: 'trash' }), 'status')
    expectInvalidParam(await list({ search: tag, status: 'draft' }, subscriber.token), 'status')
  })

  it('shows editors every status but trash by default, and the statuses they ask for', async () => {
    const all = await list({ search: tag }, editor.token)
    expect(names(all).sort()).toEqual([
      `${tag} draft`,
      `${tag} pending`,
      `${tag} private`,
      `${tag} publish`,
    ])
    expect(all.body.total).toBe(4)
    expect(names(await list({ search: tag, status: 'draft' }, editor.token))).toEqual([
      `${tag} draft`,
    ])
    const two = await list({ search: tag, status: 'draft, pending' }, editor.token)
    expect(names(two).sort()).toEqual([`${tag} draft`, `${tag} pending`])
    expect(splitUrl(two.body.rest_url).params.status).toBe('draft,pending')
    expect(names(await list({ search: tag, status: 'trash' }, editor.token))).toEqual([
      `${tag} trash`,
    ])
  })

  it('answers 400 rest_invalid_param to an editor asking for a status that does not exist', async () => {
    expectInvalidParam(await list({ search: tag, status: 'foo' }, editor.token), 'status')
    expectInvalidParam(
      await list({ search: tag, status: 'foo, bar, publish' }, editor.token),
      'status',
    )
  })
})

describe('GET /venues: languages', () => {
  const tag = unique('vlang')
  const frWord = unique('salle')
  let translated: { id: number; slug: string }
  let untranslated: { id: number; slug: string }

  beforeAll(async () => {
    translated = (await createVenue({ name: `${tag} Grand Hall` })) as never
    untranslated = (await createVenue({ name: `${tag} Annex` })) as never
    await patchDoc(
      'venues',
      translated.id,
      { name: `${tag} Grande ${frWord}`, slug: `${frWord}-grande` },
      'fr',
    )
  })

  it('answers English names by default and French names, falling back to English, with i18n_language=fr', async () => {
    expect(names(await list({ search: tag }))).toEqual([`${tag} Annex`, `${tag} Grand Hall`])
    expect(names(await list({ search: tag, i18n_language: 'en' }))).toEqual([
      `${tag} Annex`,
      `${tag} Grand Hall`,
    ])
    const fr = await list({ search: tag, i18n_language: 'fr' })
    expect(names(fr)).toEqual([`${tag} Annex`, `${tag} Grande ${frWord}`])
    const [annex, grande] = fr.body.venues
    expect(grande).toMatchObject({
      id: translated.id,
      slug: `${frWord}-grande`,
      url: `${BASE_URL}/fr/venue/${frWord}-grande/`,
    })
    expect(annex).toMatchObject({
      id: untranslated.id,
      slug: untranslated.slug,
      url: `${BASE_URL}/fr/venue/${untranslated.slug}/`,
    })
  })

  it('searches in the request language', async () => {
    expect(names(await list({ search: frWord, i18n_language: 'fr' }))).toEqual([
      `${tag} Grande ${frWord}`,
    ])
    expectTotals(await list({ search: frWord }), 0, 0)
  })

  it('serves /fr/api/cal/events/v1/venues in French, keeping the /fr/ root in rest_url', async () => {
    const reply = await call(`/fr/api/cal/events/v1/venues?${qs({ search: tag, per_page: 1 })}`)
    expect(names(reply)).toEqual([`${tag} Annex`])
    expect(splitUrl(reply.body.rest_url).base).toBe(`${FR_ROOT}/venues/`)
    expect(splitUrl(reply.body.next_rest_url).base).toBe(`${FR_ROOT}/venues/`)
    expect(names(await follow(reply.body.next_rest_url))).toEqual([`${tag} Grande ${frWord}`])
  })

  it('reads one venue in French, by id and by its French or English slug', async () => {
    const byId = await ns(`/venues/${translated.id}?i18n_language=fr`)
    expect(byId.body).toMatchObject({ venue: `${tag} Grande ${frWord}`, slug: `${frWord}-grande` })
    const bySlug = await ns(`/venues/by-slug/${frWord}-grande?i18n_language=fr`)
    expect(bySlug.body).toEqual(byId.body)
    const byEnglishSlug = await ns(`/venues/by-slug/${translated.slug}?i18n_language=fr`)
    expect(byEnglishSlug.body).toEqual(byId.body)
    expect((await ns(`/venues/${untranslated.id}?i18n_language=fr`)).body.venue).toBe(
      `${tag} Annex`,
    )
    expectInvalidParam(await ns(`/venues/by-slug/${frWord}-grande`), 'slug')
  })

  it('keeps the language of an i18n_language=fr list in rest_url and next_rest_url', async () => {
    // docs/api.md §1 keeps the language root in every URL handed out; a page link that answers in English would not.
    const first = await list({ search: tag, i18n_language: 'fr', per_page: 1 })
    expect(names(first)).toEqual([`${tag} Annex`])
    const second = await follow(first.body.next_rest_url)
    expect(names(second)).toEqual([`${tag} Grande ${frWord}`])
    const back = await list({ search: tag, i18n_language: 'fr', per_page: 1, page: 2 })
    expect(names(back)).toEqual([`${tag} Grande ${frWord}`])
    expect(names(await follow(back.body.rest_url))).toEqual([`${tag} Grande ${frWord}`])
  })

  it('refuses an unknown language with 400 rest_invalid_param', async () => {
    expectInvalidParam(await list({ search: tag, i18n_language: 'xx' }), 'i18n_language')
    expectInvalidParam(await ns(`/venues/${translated.id}?i18n_language=xx`), 'i18n_language')
  })
})

describe('GET /venues/{id} and /venues/by-slug/{slug}: the venue object', () => {
  const tag = unique('vsingle')
  let full: { id: number; slug: string }
  let media: { id: number; filename: string; url: string }

  beforeAll(async () => {
    media = await uploadImage(`${tag}-photo`)
    full = (await createVenue({
      name: `${tag} Grand Hall`,
      publishedAt: '2024-05-06T07:08:09.000Z',
      description: richText('A warm room'),
      excerpt: 'Short text',
      image: media.id,
      address: '1 Market Street',
      city: 'San Francisco',
      country: 'United States',
      province: 'Ontario',
      state: 'CA',
      zip: '94103',
      phone: '+1 415 555 0100',
      website: 'https://hall.example',
      geoLat: 37.7936,
      geoLng: -122.3958,
      showMap: false,
    })) as never
  })

  it('has upstream’s keys in upstream’s order, with exact values', async () => {
    const reply = await ns(`/venues/${full.id}`)
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body)).toEqual(VENUE_KEYS)
    const doc = await readDoc('venues', full.id)
    expect(reply.body).toEqual({
      id: full.id,
      author: String(await adminId()),
      status: 'publish',
      date: '2024-05-06 07:08:09',
      date_utc: '2024-05-06 07:08:09',
      modified: wallClock(doc.updatedAt),
      modified_utc: wallClock(doc.updatedAt),
      url: `${BASE_URL}/venue/${full.slug}/`,
      venue: `${tag} Grand Hall`,
      description: '<p>A warm room</p>',
      excerpt: '<p>Short text</p>',
      slug: full.slug,
      image: expect.objectContaining({
        id: media.id,
        url: new URL(media.url, BASE_URL).toString(),
        extension: 'png',
        width: 4,
        height: 3,
      }),
      address: '1 Market Street',
      city: 'San Francisco',
      country: 'United States',
      province: 'Ontario',
      state: 'CA',
      zip: '94103',
      phone: '+1 415 555 0100',
      website: 'https://hall.example',
      stateprovince: 'CA',
      geo_lat: 37.7936,
      geo_lng: -122.3958,
      json_ld: expect.objectContaining({
        '@type': 'Place',
        name: `${tag} Grand Hall`,
        description: 'Short text',
        url: `${BASE_URL}/venue/${full.slug}/`,
        address: expect.objectContaining({
          streetAddress: '1 Market Street',
          addressLocality: 'San Francisco',
          addressRegion: 'CA',
          postalCode: '94103',
          addressCountry: 'United States',
        }),
        telephone: '+1 415 555 0100',
        sameAs: 'https://hall.example',
      }),
      show_map: false,
      show_map_link: true,
      global_id: globalId(full.id),
      global_id_lineage: [globalId(full.id)],
    })
    expect(full.slug).toBe(`${tag}-grand-hall`)
  })

  it('builds url and global_id from the siteUrl setting', async () => {
    const previous = await changeSettings({ siteUrl: 'https://www.example.org' })
    try {
      const reply = await ns(`/venues/${full.id}`)
      expect(reply.body).toMatchObject({
        url: `https://www.example.org/venue/${full.slug}/`,
        global_id: `www.example.org?id=${full.id}`,
        global_id_lineage: [`www.example.org?id=${full.id}`],
      })
      expect(reply.body.json_ld.url).toBe(`https://www.example.org/venue/${full.slug}/`)
    } finally {
      await restoreSettings(previous)
    }
  })

  it('answers the same object by slug', async () => {
    const byId = await ns(`/venues/${full.id}`)
    const bySlug = await ns(`/venues/by-slug/${full.slug}`)
    expect(bySlug.status).toBe(200)
    expect(bySlug.body).toEqual(byId.body)
  })

  it('omits every empty field but always has show_map and show_map_link', async () => {
    const minimal = await createVenue({ name: `${tag} Bare` })
    const reply = await ns(`/venues/${minimal.id}`)
    expect(Object.keys(reply.body)).toEqual(MINIMAL_KEYS)
    expect(reply.body).toMatchObject({ venue: `${tag} Bare`, show_map: true, show_map_link: true })
  })

  it('has no json_ld in lists, and is otherwise the same object', async () => {
    const single = (await ns(`/venues/${full.id}`)).body
    const reply = await list({ search: `${tag} Grand` })
    expect(reply.body.venues).toHaveLength(1)
    const { json_ld: _, ...withoutJsonLd } = single
    expect(Object.keys(reply.body.venues[0])).toEqual(VENUE_KEYS.filter((key) => key !== 'json_ld'))
    expect(reply.body.venues[0]).toEqual(withoutJsonLd)
  })

  it('derives stateprovince from the state in the US and from the province elsewhere', async () => {
    const us = await createVenue({
      name: unique('us'),
      country: 'United States',
      state: 'NY',
      province: 'Somewhere',
    })
    const unnamedCountry = await createVenue({
      name: unique('us'),
      state: 'TX',
      province: 'Somewhere',
    })
    const canada = await createVenue({
      name: unique('ca'),
      country: 'Canada',
      state: 'NY',
      province: 'Quebec',
    })
    expect((await ns(`/venues/${us.id}`)).body).toMatchObject({
      state: 'NY',
      province: 'Somewhere',
      stateprovince: 'NY',
    })
    expect((await ns(`/venues/${unnamedCountry.id}`)).body).toMatchObject({
      state: 'TX',
      stateprovince: 'TX',
    })
    expect((await ns(`/venues/${canada.id}`)).body).toMatchObject({
      country: 'Canada',
      state: 'NY',
      province: 'Quebec',
      stateprovince: 'Quebec',
    })
  })

  it('shows a latitude or longitude of 0 (a venue on the equator has coordinates)', async () => {
    const equator = await createVenue({ name: unique('Equator'), geoLat: 0, geoLng: 9.45 })
    const reply = await ns(`/venues/${equator.id}`)
    expect(reply.body).toMatchObject({ geo_lat: 0, geo_lng: 9.45 })
    expect(Object.keys(reply.body)).toContain('geo_lat')
  })

  it('finds a venue by a slug with non-ASCII letters, percent-encoded in the path', async () => {
    const word = unique('fete')
    const venue = await createVenue({ name: `${word} Fête Château` })
    expect(venue.slug).toBe(`${word}-fête-château`)
    const reply = await ns(`/venues/by-slug/${encodeURIComponent(venue.slug as string)}`)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      id: venue.id,
      venue: `${word} Fête Château`,
      slug: `${word}-fête-château`,
    })
    expect(decodeURIComponent(reply.body.url)).toBe(`${BASE_URL}/venue/${word}-fête-château/`)
  })

  it('answers 400 rest_invalid_param for an unknown id or slug', async () => {
    const byId = await ns('/venues/2000000000')
    expectInvalidParam(byId, 'id')
    expectInvalidParam(await ns(`/venues/by-slug/${unique('no-such-venue')}`), 'slug')
  })
})

describe('GET /venues/{id}: access', () => {
  const tag = unique('vaccess')
  let draft: { id: number; slug: string }
  let pending: { id: number; slug: string }
  let trashed: { id: number; slug: string }

  beforeAll(async () => {
    draft = (await createVenue({
      name: `${tag} Draft`,
      status: 'draft',
      city: 'Secretville',
    })) as never
    pending = (await createVenue({ name: `${tag} Pending`, status: 'pending' })) as never
    trashed = (await createVenue({ name: `${tag} Trashed`, status: 'trash' })) as never
  })

  it('answers 403 to anonymous readers for a private venue, and for a protected draft even with its password', async () => {
    const privateVenue = await createVenue({ name: `${tag} Private`, status: 'private' })
    expectError(await ns(`/venues/${privateVenue.id}`), 403, 'venue-not-accessible')
    const lockedDraft = await createVenue({
      name: `${tag} Locked draft`,
      status: 'draft',
      password: 'pw-draft',
    })
    expectError(
      await ns(`/venues/${lockedDraft.id}?password=pw-draft`),
      403,
      'venue-not-accessible',
    )
  })

  it('answers 403 venue-not-accessible to anonymous readers for drafts, pending and trashed venues', async () => {
    const reply = await ns(`/venues/${draft.id}`)
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 403,
      body: {
        code: 'venue-not-accessible',
        message: 'The requested venue is not accessible',
        data: { status: 403 },
      },
    })
    expectError(await ns(`/venues/by-slug/${draft.slug}`), 403, 'venue-not-accessible')
    expectError(await ns(`/venues/${pending.id}`), 403, 'venue-not-accessible')
    expectError(await ns(`/venues/${trashed.id}`), 403, 'venue-not-accessible')
    expectError(await ns(`/venues/by-slug/${trashed.slug}`), 403, 'venue-not-accessible')
  })

  it('answers 403 to a subscriber and to an author who does not own the draft', async () => {
    expectError(await ns(`/venues/${draft.id}`, subscriber.token), 403, 'venue-not-accessible')
    expectError(await ns(`/venues/${draft.id}`, author.token), 403, 'venue-not-accessible')
  })

  it('answers 200 to an editor, trashed venues included', async () => {
    const reply = await ns(`/venues/${draft.id}`, editor.token)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      id: draft.id,
      status: 'draft',
      venue: `${tag} Draft`,
      city: 'Secretville',
    })
    expect((await ns(`/venues/by-slug/${draft.slug}`, editor.token)).body).toEqual(reply.body)
    const trash = await ns(`/venues/${trashed.id}`, editor.token)
    expect(trash.status).toBe(200)
    expect(trash.body).toMatchObject({ id: trashed.id, status: 'trash' })
  })
})

describe('GET /venues/{id}: password protection', () => {
  const tag = unique('vlocked')
  const password = 'open-sesame'
  const secrets = [
    '7 Hidden Lane',
    'Cachetown',
    '+33 1 23 45 67 89',
    'https://hidden.example',
    'Members only',
    'Secret excerpt',
    'Quiet state',
  ]
  let locked: { id: number; slug: string }
  let open: Record<string, unknown>

  beforeAll(async () => {
    locked = (await createVenue({
      name: `${tag} Hideout`,
      password,
      description: richText('Members only'),
      excerpt: 'Secret excerpt',
      address: '7 Hidden Lane',
      city: 'Cachetown',
      country: 'France',
      state: 'Quiet state',
      province: 'Quiet province',
      zip: '75001',
      phone: '+33 1 23 45 67 89',
      website: 'https://hidden.example',
      geoLat: 48.85,
      geoLng: 2.35,
    })) as never
    open = (await ns(`/venues/${locked.id}?${qs({ password })}`)).body
  })

  it('answers 200 with the name kept and the content withheld, show_map and show_map_link null', async () => {
    for (const path of [
      `/venues/${locked.id}`,
      `/venues/by-slug/${locked.slug}`,
      `/venues/${locked.id}?password=wrong`,
    ]) {
      const reply = await ns(path)
      expect({ path, status: reply.status }).toEqual({ path, status: 200 })
      expect(reply.body).toMatchObject({
        id: locked.id,
        venue: `${tag} Hideout`,
        slug: locked.slug,
        status: 'publish',
        show_map: null,
        show_map_link: null,
      })
      expectWithheld(reply.body, PROTECTED_KEYS, secrets)
    }
  })

  it('unlocks with the right password', async () => {
    expect(open).toMatchObject({
      venue: `${tag} Hideout`,
      description: '<p>Members only</p>',
      excerpt: '<p>Secret excerpt</p>',
      address: '7 Hidden Lane',
      city: 'Cachetown',
      country: 'France',
      state: 'Quiet state',
      province: 'Quiet province',
      stateprovince: 'Quiet province',
      zip: '75001',
      phone: '+33 1 23 45 67 89',
      website: 'https://hidden.example',
      geo_lat: 48.85,
      geo_lng: 2.35,
      show_map: true,
      show_map_link: true,
    })
    expect(open).not.toHaveProperty('password')
    expect((await ns(`/venues/by-slug/${locked.slug}?${qs({ password })}`)).body).toEqual(open)
  })

  it('unlocks with context=edit for a user who may edit it, and only then', async () => {
    const edit = await ns(`/venues/${locked.id}?context=edit`, editor.token)
    expect(edit.status).toBe(200)
    expect(edit.body).toEqual(open)
    const withoutContext = await ns(`/venues/${locked.id}`, editor.token)
    expect(withoutContext.body).toMatchObject({ venue: `${tag} Hideout`, show_map: null })
    expectWithheld(withoutContext.body, PROTECTED_KEYS, secrets)
    const notTheirs = await ns(`/venues/${locked.id}?context=edit`, author.token)
    expect(notTheirs.status).toBe(200)
    expectWithheld(notTheirs.body, PROTECTED_KEYS, secrets)
    const anonymousEdit = await ns(`/venues/${locked.id}?context=edit`)
    expect(anonymousEdit.status).toBe(200)
    expectWithheld(anonymousEdit.body, PROTECTED_KEYS, secrets)
  })

  it('withholds the content in lists and in events too', async () => {
    const reply = await list({ search: tag })
    expect(names(reply)).toEqual([`${tag} Hideout`])
    expect(reply.body.venues[0]).toMatchObject({ show_map: null, show_map_link: null })
    expectWithheld(reply.body.venues[0], PROTECTED_KEYS, secrets)

    const event = await createEvent({ title: unique('at-hideout'), venue: locked.id })
    const single = await ns(`/events/${event.id}`)
    expect(single.status).toBe(200)
    expect(single.body.venue).toMatchObject({
      id: locked.id,
      venue: `${tag} Hideout`,
      show_map: null,
      show_map_link: null,
    })
    expectWithheld(single.body.venue, PROTECTED_KEYS, secrets)
    const inList = await ns(`/events?include=${event.id}`)
    expectWithheld(inList.body.events[0].venue, PROTECTED_KEYS, secrets)
  })
})

describe('the venue embedded in events', () => {
  const tag = unique('vembed')
  let venue: { id: number }
  let event: { id: number }

  beforeAll(async () => {
    venue = await createVenue({
      name: `${tag} Riverside`,
      description: richText('By the river'),
      excerpt: 'Riverside venue',
      address: '3 Quay',
      city: 'Lyon',
      country: 'France',
      province: 'Rhône',
      zip: '69002',
      phone: '+33 4 00 00 00 00',
      website: 'https://riverside.example',
      geoLat: 45.75,
      geoLng: 4.83,
    })
    event = await createEvent({ title: `${tag} Concert`, venue: venue.id })
  })

  it('is the venue object, with its json_ld on the single event read (docs/api.md §3.1)', async () => {
    const single = await ns(`/venues/${venue.id}`)
    const reply = await ns(`/events/${event.id}`)
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body.venue)).toEqual(Object.keys(single.body))
    expect(reply.body.venue).toEqual(single.body)
  })

  it('is the venue object without json_ld in event lists', async () => {
    const { json_ld: _, ...withoutJsonLd } = (await ns(`/venues/${venue.id}`)).body
    const reply = await ns(`/events?include=${event.id}`)
    expect(reply.body.events).toHaveLength(1)
    expect(Object.keys(reply.body.events[0].venue)).toEqual(Object.keys(withoutJsonLd))
    expect(reply.body.events[0].venue).toEqual(withoutJsonLd)
  })

  it('is in the request language', async () => {
    await patchDoc('venues', venue.id, { name: `${tag} Bord de rivière` }, 'fr')
    const reply = await ns(`/events/${event.id}?i18n_language=fr`)
    expect(reply.body.venue.venue).toBe(`${tag} Bord de rivière`)
    expect(reply.body.venue).toEqual((await ns(`/venues/${venue.id}?i18n_language=fr`)).body)
  })

  it('is left out for anonymous readers when the venue is a draft (docs/api.md §2)', async () => {
    const draftVenue = await createDoc('venues', { name: `${tag} Unpublished`, status: 'draft' })
    const withDraft = await createEvent({ title: `${tag} Draft venue`, venue: draftVenue.id })
    const reply = await ns(`/events/${withDraft.id}`)
    expect(reply.status).toBe(200)
    expect(reply.body.venue).toEqual([])
    expect(JSON.stringify(reply.body)).not.toContain(`${tag} Unpublished`)
  })
})
