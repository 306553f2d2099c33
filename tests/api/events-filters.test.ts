/**
 * Filters of `GET /events` (docs/api.md §3.2, §4.1, §4.3, §4.4; docs/api.md §4.5, §9, §12): search, terms, venues
 * and organizers, featured, status, include, post_parent, ticketed, geolocation, hidden events, order,
 * and password-protected events in lists.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { type TestUser, unique, userWithRole } from '../support/api'
import { expectError, expectInvalidParam } from '../support/expectations'
import {
  changeSettings,
  createCategory,
  createEvent,
  createOrganizer,
  createTag,
  createVenue,
  dayAt,
  follow,
  ns,
  qs,
  restoreSettings,
  richText,
  splitUrl,
  titles,
} from '../support/fixtures'

function list(params: Record<string, string | number | boolean | undefined>, token?: string) {
  return ns(`/events?${qs(params)}`, token)
}

let editor: TestUser
beforeAll(async () => {
  editor = await userWithRole('editor')
})

describe('search', () => {
  const tag = unique('search')
  const inDescription = unique('desc')
  const inExcerpt = unique('exc')
  beforeAll(async () => {
    await createEvent({ title: `${tag} Midsummer Jazz Night`, start: dayAt(1, 10) })
    await createEvent({
      title: `${tag} Autumn fair`,
      start: dayAt(1, 11),
      description: richText(`A night of ${inDescription} music`),
    })
    await createEvent({
      title: `${tag} Book club`,
      start: dayAt(1, 12),
      excerpt: `Tea and ${inExcerpt} included`,
    })
  })

  it('matches words of the title, in any order and case', async () => {
    expect(titles(await list({ search: tag }))).toEqual([
      `${tag} Midsummer Jazz Night`,
      `${tag} Autumn fair`,
      `${tag} Book club`,
    ])
    expect(titles(await list({ search: `JAZZ ${tag}` }))).toEqual([`${tag} Midsummer Jazz Night`])
    expect(titles(await list({ search: `${tag} nothing-like-this` }))).toEqual([])
  })

  it('matches the description and the excerpt', async () => {
    expect(titles(await list({ search: inDescription }))).toEqual([`${tag} Autumn fair`])
    expect(titles(await list({ search: inExcerpt.toUpperCase() }))).toEqual([`${tag} Book club`])
  })

  it('matches each word in any of title, description and excerpt (WordPress search)', async () => {
    expect(titles(await list({ search: `night ${tag}` }))).toEqual([
      `${tag} Midsummer Jazz Night`,
      `${tag} Autumn fair`,
    ])
  })

  it('echoes search in rest_url and refuses an empty one', async () => {
    expect(splitUrl((await list({ search: tag })).body.rest_url).params.search).toBe(tag)
    expectInvalidParam(await list({ search: '' }), 'search')
  })
})

describe('categories and tags', () => {
  const tag = unique('terms')
  let cats: { id: number; slug: string }[]
  let tags: { id: number; slug: string }[]
  beforeAll(async () => {
    cats = []
    for (const n of [1, 2, 3])
      cats.push((await createCategory({ name: unique(`cat${n}`) })) as never)
    tags = []
    for (const n of [1, 2]) tags.push((await createTag({ name: unique(`tag${n}`) })) as never)
    await createEvent({
      title: `${tag} e1`,
      start: dayAt(1, 1),
      categories: [cats[0]!.id],
      tags: [tags[0]!.id],
    })
    await createEvent({ title: `${tag} e2`, start: dayAt(1, 2), categories: [cats[1]!.id] })
    await createEvent({
      title: `${tag} e3`,
      start: dayAt(1, 3),
      categories: [cats[2]!.id],
      tags: [tags[1]!.id],
    })
    await createEvent({
      title: `${tag} e4`,
      start: dayAt(1, 4),
      categories: [cats[0]!.id, cats[1]!.id],
    })
    await createEvent({ title: `${tag} e5`, start: dayAt(1, 5) })
  })

  it('filters by category id, by slug, and by any of several (no duplicates)', async () => {
    expect(titles(await list({ search: tag, categories: cats[0]!.id }))).toEqual([
      `${tag} e1`,
      `${tag} e4`,
    ])
    expect(titles(await list({ search: tag, categories: cats[1]!.slug }))).toEqual([
      `${tag} e2`,
      `${tag} e4`,
    ])
    const anyOf = await list({ search: tag, categories: `${cats[0]!.slug},${cats[1]!.id}` })
    expect(titles(anyOf)).toEqual([`${tag} e1`, `${tag} e2`, `${tag} e4`])
    expect(anyOf.body.total).toBe(3)
  })

  it('accepts PHP-style arrays', async () => {
    const reply = await ns(
      `/events?search=${tag}&categories[]=${cats[2]!.slug}&categories[]=${cats[0]!.id}`,
    )
    expect(titles(reply)).toEqual([`${tag} e1`, `${tag} e3`, `${tag} e4`])
  })

  it('filters by tag id and slug (any of), and ANDs categories with tags', async () => {
    expect(titles(await list({ search: tag, tags: tags[0]!.slug }))).toEqual([`${tag} e1`])
    expect(titles(await list({ search: tag, tags: `${tags[0]!.id},${tags[1]!.slug}` }))).toEqual([
      `${tag} e1`,
      `${tag} e3`,
    ])
    expect(titles(await list({ search: tag, categories: cats[2]!.id, tags: tags[1]!.id }))).toEqual(
      [`${tag} e3`],
    )
    expect(titles(await list({ search: tag, categories: cats[1]!.id, tags: tags[0]!.id }))).toEqual(
      [],
    )
  })

  it('keeps the category filter in rest_url and next_rest_url (docs/api.md §4.5)', async () => {
    const given = `${cats[0]!.id},${cats[1]!.slug}`
    const first = await list({ search: tag, categories: given, per_page: 2 })
    expect(titles(first)).toEqual([`${tag} e1`, `${tag} e2`])
    expect(splitUrl(first.body.rest_url).params.categories).toBeDefined()
    expect(splitUrl(first.body.next_rest_url).params.categories).toBeDefined()
    const second = await follow(first.body.next_rest_url)
    expect(second.status).toBe(200)
    expect(titles(second)).toEqual([`${tag} e4`])
    const tagged = await list({ search: tag, tags: tags[0]!.slug })
    expect(splitUrl(tagged.body.rest_url).params.tags).toBe(tags[0]!.slug)
  })

  it('answers 400 naming the parameter for an unknown category or tag', async () => {
    expectInvalidParam(await list({ search: tag, categories: 2_000_000_000 }), 'categories')
    expectInvalidParam(
      await list({ search: tag, categories: unique('no-such-category') }),
      'categories',
    )
    expectInvalidParam(
      await list({ search: tag, categories: `${cats[0]!.id},${unique('missing')}` }),
      'categories',
    )
    // Entries that are all ids are checked by one statement: only the unknown one is named.
    const mixed = await list({ search: tag, categories: `${cats[0]!.id},2000000000` })
    expectInvalidParam(mixed, 'categories')
    expect(mixed.body.data.params.categories).toBe('No such category: 2000000000.')
    expectInvalidParam(await list({ search: tag, categories: '' }), 'categories')
    expectInvalidParam(await list({ search: tag, tags: unique('no-such-tag') }), 'tags')
    // A category is not a tag.
    expectInvalidParam(await list({ search: tag, tags: cats[0]!.slug }), 'tags')
  })
})

describe('a parent category lists the events of its subcategories', () => {
  const tag = unique('tree')
  let music: { id: number; slug: string },
    jazz: { id: number; slug: string },
    bebop: { id: number; slug: string },
    other: { id: number; slug: string }
  beforeAll(async () => {
    music = (await createCategory({ name: unique('music') })) as never
    jazz = (await createCategory({ name: unique('jazz'), parent: music.id })) as never
    bebop = (await createCategory({ name: unique('bebop'), parent: jazz.id })) as never
    other = (await createCategory({ name: unique('theatre') })) as never
    await createEvent({ title: `${tag} music`, start: dayAt(1, 1), categories: [music.id] })
    await createEvent({ title: `${tag} jazz`, start: dayAt(1, 2), categories: [jazz.id] })
    await createEvent({ title: `${tag} bebop`, start: dayAt(1, 3), categories: [bebop.id] })
    await createEvent({ title: `${tag} theatre`, start: dayAt(1, 4), categories: [other.id] })
    await createEvent({
      title: `${tag} jazz and theatre`,
      start: dayAt(1, 5),
      categories: [jazz.id, other.id],
    })
  })

  /** Titles from the page query (anonymous) after checking that the local API (a password to try) agrees. */
  async function listed(query: string): Promise<string[]> {
    const fast = await ns(`/events?search=${tag}&${query}`)
    const local = await ns(`/events?search=${tag}&password=none&${query}`)
    expect(fast.status).toBe(200)
    expect(titles(local)).toEqual(titles(fast))
    return titles(fast)
  }

  it('at any depth, by slug or by id, as CSV or as an array', async () => {
    const all = [`${tag} music`, `${tag} jazz`, `${tag} bebop`, `${tag} jazz and theatre`]
    expect(await listed(`categories=${music.slug}`)).toEqual(all)
    expect(await listed(`categories=${music.id}`)).toEqual(all)
    expect(await listed(`categories[]=${music.slug}`)).toEqual(all)
    expect(await listed(`categories=${bebop.id},${music.slug}`)).toEqual(all)
    expect((await ns(`/events?search=${tag}&categories=${music.slug}`)).body.total).toBe(4)
  })

  it('below the category only: a subcategory does not list its parent’s events', async () => {
    expect(await listed(`categories=${jazz.slug}`)).toEqual([
      `${tag} jazz`,
      `${tag} bebop`,
      `${tag} jazz and theatre`,
    ])
    expect(await listed(`categories[]=${bebop.id}`)).toEqual([`${tag} bebop`])
    expect(await listed(`categories=${other.slug},${bebop.slug}`)).toEqual([
      `${tag} bebop`,
      `${tag} theatre`,
      `${tag} jazz and theatre`,
    ])
  })

  it('echoes the categories as given', async () => {
    const reply = await ns(`/events?search=${tag}&categories=${music.slug}`)
    expect(splitUrl(reply.body.rest_url).params.categories).toBe(music.slug)
  })
})

describe('venue and organizer', () => {
  const tag = unique('linked')
  let v1: number, v2: number, o1: number, o2: number
  beforeAll(async () => {
    v1 = (await createVenue({ name: unique('venue') })).id
    v2 = (await createVenue({ name: unique('venue') })).id
    o1 = (await createOrganizer({ name: unique('org') })).id
    o2 = (await createOrganizer({ name: unique('org') })).id
    await createEvent({ title: `${tag} a`, start: dayAt(1, 1), venue: v1, organizers: [o1] })
    await createEvent({ title: `${tag} b`, start: dayAt(1, 2), venue: v2, organizers: [o1, o2] })
    await createEvent({ title: `${tag} c`, start: dayAt(1, 3) })
  })

  it('filters by venue ids (any of)', async () => {
    const one = await list({ search: tag, venue: v1 })
    expect(titles(one)).toEqual([`${tag} a`])
    expect(splitUrl(one.body.rest_url).params.venue).toBe(String(v1))
    expect(titles(await list({ search: tag, venue: `${v1},${v2}` }))).toEqual([
      `${tag} a`,
      `${tag} b`,
    ])
  })

  it('filters by organizer ids (any of)', async () => {
    expect(titles(await list({ search: tag, organizer: o2 }))).toEqual([`${tag} b`])
    expect(titles(await list({ search: tag, organizer: o1 }))).toEqual([`${tag} a`, `${tag} b`])
    expect(titles(await list({ search: tag, organizer: `${o1},${o2}`, venue: v1 }))).toEqual([
      `${tag} a`,
    ])
  })

  it('answers 400 naming the parameter for unknown or malformed ids', async () => {
    expectInvalidParam(await list({ search: tag, venue: 2_000_000_000 }), 'venue')
    expectInvalidParam(await list({ search: tag, venue: `${v1},2000000000` }), 'venue')
    expectInvalidParam(await list({ search: tag, venue: 'foo' }), 'venue')
    expectInvalidParam(await list({ search: tag, organizer: 2_000_000_000 }), 'organizer')
    expectInvalidParam(await list({ search: tag, organizer: 'foo' }), 'organizer')
    expectInvalidParam(await list({ search: tag, organizer: '0' }), 'organizer')
  })
})

describe('featured and ticketed', () => {
  const tag = unique('flags')
  beforeAll(async () => {
    await createEvent({ title: `${tag} featured`, start: dayAt(1, 1), featured: true })
    await createEvent({ title: `${tag} plain`, start: dayAt(1, 2) })
    await createEvent({ title: `${tag} ticketed`, start: dayAt(1, 3), ticketed: true })
  })

  it('filters featured=true/1 and featured=false/0, and both without the parameter', async () => {
    expect(titles(await list({ search: tag }))).toEqual([
      `${tag} featured`,
      `${tag} plain`,
      `${tag} ticketed`,
    ])
    for (const yes of ['true', '1'])
      expect(titles(await list({ search: tag, featured: yes }))).toEqual([`${tag} featured`])
    for (const no of ['false', '0'])
      expect(titles(await list({ search: tag, featured: no }))).toEqual([
        `${tag} plain`,
        `${tag} ticketed`,
      ])
    expect(
      splitUrl((await list({ search: tag, featured: 'true' })).body.rest_url).params.featured,
    ).toBeDefined()
    expectInvalidParam(await list({ search: tag, featured: 'foo' }), 'featured')
    expectInvalidParam(await list({ search: tag, featured: 'yes' }), 'featured')
  })

  it('filters ticketed=true/false', async () => {
    expect(titles(await list({ search: tag, ticketed: 'true' }))).toEqual([`${tag} ticketed`])
    expect(titles(await list({ search: tag, ticketed: '1' }))).toEqual([`${tag} ticketed`])
    expect(titles(await list({ search: tag, ticketed: 'false' }))).toEqual([
      `${tag} featured`,
      `${tag} plain`,
    ])
    expectInvalidParam(await list({ search: tag, ticketed: 'foo' }), 'ticketed')
  })
})

describe('status', () => {
  const tag = unique('status')
  beforeAll(async () => {
    for (const status of ['publish', 'draft', 'pending', 'private', 'trash']) {
      await createEvent({
        title: `${tag} ${status}`,
        status,
        start: dayAt(1, ['publish', 'draft', 'pending', 'private', 'trash'].indexOf(status) + 1),
      })
    }
  })

  it('shows anonymous readers published events only, and lets them ask for publish', async () => {
    expect(titles(await list({ search: tag }))).toEqual([`${tag} publish`])
    const explicit = await list({ search: tag, status: 'publish' })
    expect(explicit.status).toBe(200)
    expect(titles(explicit)).toEqual([`${tag} publish`])
    expect(splitUrl(explicit.body.rest_url).params.status).toBe('publish')
  })

  it('refuses anonymous readers any other status with a 400', async () => {
    expectInvalidParam(await list({ search: tag, status: 'draft' }), 'status')
    expectInvalidParam(await list({ search: tag, status: 'publish,draft' }), 'status')
    expectInvalidParam(await list({ search: tag, status: 'private' }), 'status')
  })

  it('counts only published events for anonymous readers', async () => {
    const all = await list({ search: tag, status: 'publish', per_page: 50 })
    expect(all.body.total).toBe(1)
  })

  it('shows editors every status but trash by default, and what they ask for', async () => {
    expect(titles(await list({ search: tag }, editor.token))).toEqual([
      `${tag} publish`,
      `${tag} draft`,
      `${tag} pending`,
      `${tag} private`,
    ])
    expect(titles(await list({ search: tag, status: 'draft' }, editor.token))).toEqual([
      `${tag} draft`,
    ])
    expect(titles(await list({ search: tag, status: 'draft, pending' }, editor.token))).toEqual([
      `${tag} draft`,
      `${tag} pending`,
    ])
  })

  it('refuses editors unknown statuses with a 400', async () => {
    expectInvalidParam(await list({ search: tag, status: 'foo' }, editor.token), 'status')
    expectInvalidParam(
      await list({ search: tag, status: 'foo, bar, publish' }, editor.token),
      'status',
    )
  })
})

describe('include', () => {
  const tag = unique('include')
  let ids: Record<string, number>
  beforeAll(async () => {
    ids = {}
    const make = async (name: string, data: Record<string, unknown>) => {
      ids[name] = (await createEvent({ title: `${tag} ${name}`, ...data })).id
    }
    await make('past', { start: dayAt(-3, 12), publishedAt: '2020-01-03T00:00:00.000Z' })
    await make('far', {
      start: '2031-06-01T10:00:00.000Z',
      publishedAt: '2020-01-01T00:00:00.000Z',
    })
    await make('soon', { start: dayAt(1, 12), publishedAt: '2020-01-02T00:00:00.000Z' })
    await make('tie', { start: dayAt(2, 12), publishedAt: '2020-01-02T00:00:00.000Z' })
    await make('left out', { start: dayAt(1, 12), publishedAt: '2020-01-01T00:00:00.000Z' })
    await make('draft', { start: dayAt(1, 12), status: 'draft' })
    await make('hidden', { start: dayAt(1, 12), hideFromListings: true })
  })

  it('restricts to the ids, ignores the default date window and orders by publication date then id', async () => {
    const reply = await list({ include: [ids.past, ids.far, ids.soon, ids.tie].join(',') })
    expect(reply.status).toBe(200)
    expect(titles(reply)).toEqual([`${tag} far`, `${tag} soon`, `${tag} tie`, `${tag} past`])
    expect(splitUrl(reply.body.rest_url).params.include).toBe(
      [ids.past, ids.far, ids.soon, ids.tie].join(','),
    )
  })

  it('ignores explicit date filters too', async () => {
    const reply = await list({
      include: `${ids.past},${ids.soon}`,
      start_date: '2040-01-01',
      end_date: '2040-01-02',
      starts_after: '2039-01-01',
    })
    expect(titles(reply)).toEqual([`${tag} soon`, `${tag} past`])
    const arrays = await ns(`/events?include[]=${ids.soon}&include[]=${ids.far}`)
    expect(titles(arrays)).toEqual([`${tag} far`, `${tag} soon`])
  })

  it('never includes drafts for anonymous readers, nor hidden events', async () => {
    expect(titles(await list({ include: `${ids.draft},${ids.hidden},${ids.soon}` }))).toEqual([
      `${tag} soon`,
    ])
  })

  it('refuses ids that are not positive integers', async () => {
    expectInvalidParam(await list({ include: 'foo' }), 'include')
    expectInvalidParam(await list({ include: '0' }), 'include')
    expectInvalidParam(await list({ include: `${ids.soon},-1` }), 'include')
  })
})

describe('post_parent', () => {
  const tag = unique('parent')
  let parent: number
  beforeAll(async () => {
    parent = (await createEvent({ title: `${tag} series`, start: dayAt(1, 1) })).id
    await createEvent({ title: `${tag} second date`, start: dayAt(3, 1), parent })
    await createEvent({ title: `${tag} first date`, start: dayAt(2, 1), parent })
    await createEvent({ title: `${tag} unrelated`, start: dayAt(2, 2) })
  })

  it('lists the children of the event, by start', async () => {
    const reply = await list({ search: tag, post_parent: parent })
    expect(titles(reply)).toEqual([`${tag} first date`, `${tag} second date`])
    expect(splitUrl(reply.body.rest_url).params.post_parent).toBe(String(parent))
  })

  it('answers 400 for an unknown or malformed parent', async () => {
    expectInvalidParam(await list({ search: tag, post_parent: 2_000_000_000 }), 'post_parent')
    expectInvalidParam(await list({ search: tag, post_parent: 'foo' }), 'post_parent')
    expectInvalidParam(await list({ search: tag, post_parent: '1,2' }), 'post_parent')
  })
})

describe('geolocation', () => {
  const tag = unique('geo')
  beforeAll(async () => {
    const places: [string, number | undefined, number | undefined][] = [
      ['paris', 48.8566, 2.3522],
      ['versailles', 48.8049, 2.1204], // about 18.6 km from Paris
      ['lyon', 45.764, 4.8357], // about 392 km from Paris
      ['no coordinates', undefined, undefined],
      ['gulf 94 km', 0.6, 0.6], // 94.3 km from (0, 0)
      ['gulf 110 km', 0.7, 0.7], // 110.1 km from (0, 0), inside the 100 km bounding box
    ]
    for (const [index, [name, geoLat, geoLng]] of places.entries()) {
      const venue = await createVenue({
        name: unique('geovenue'),
        ...(geoLat === undefined ? {} : { geoLat, geoLng }),
      })
      await createEvent({ title: `${tag} ${name}`, start: dayAt(1, index + 1), venue: venue.id })
    }
    await createEvent({ title: `${tag} no venue`, start: dayAt(1, 10) })
  })

  it('geoloc=1 keeps events whose venue has coordinates, geoloc=0 the others', async () => {
    const has = [
      `${tag} paris`,
      `${tag} versailles`,
      `${tag} lyon`,
      `${tag} gulf 94 km`,
      `${tag} gulf 110 km`,
    ]
    expect(titles(await list({ search: tag, geoloc: 1 }))).toEqual(has)
    expect(titles(await list({ search: tag, geoloc: 'true' }))).toEqual(has)
    expect(titles(await list({ search: tag, geoloc: 0 }))).toEqual([
      `${tag} no coordinates`,
      `${tag} no venue`,
    ])
    expectInvalidParam(await list({ search: tag, geoloc: 'maybe' }), 'geoloc')
  })

  it('geoloc_lat + geoloc_lng keep venues within the default radius (25 km)', async () => {
    expect(titles(await list({ search: tag, geoloc_lat: 48.8566, geoloc_lng: 2.3522 }))).toEqual([
      `${tag} paris`,
      `${tag} versailles`,
    ])
  })

  it('geoloc_radius narrows or widens the circle', async () => {
    expect(
      titles(
        await list({ search: tag, geoloc_lat: 48.8566, geoloc_lng: 2.3522, geoloc_radius: 10 }),
      ),
    ).toEqual([`${tag} paris`])
    expect(
      titles(
        await list({ search: tag, geoloc_lat: 48.8566, geoloc_lng: 2.3522, geoloc_radius: 500 }),
      ),
    ).toEqual([`${tag} paris`, `${tag} versailles`, `${tag} lyon`])
  })

  it('measures great-circle distance, not a bounding box', async () => {
    expect(
      titles(await list({ search: tag, geoloc_lat: 0, geoloc_lng: 0, geoloc_radius: 100 })),
    ).toEqual([`${tag} gulf 94 km`])
    expect(
      titles(await list({ search: tag, geoloc_lat: 0, geoloc_lng: 0, geoloc_radius: 111 })),
    ).toEqual([`${tag} gulf 94 km`, `${tag} gulf 110 km`])
  })

  it('takes the default radius from the settings', async () => {
    const previous = await changeSettings({ geolocRadiusKm: 15 })
    try {
      expect(titles(await list({ search: tag, geoloc_lat: 48.8566, geoloc_lng: 2.3522 }))).toEqual([
        `${tag} paris`,
      ])
    } finally {
      await restoreSettings(previous)
    }
  })

  it('answers 200 with nothing when no venue is near', async () => {
    const reply = await list({ search: tag, geoloc_lat: -45, geoloc_lng: -170, geoloc_radius: 1 })
    expect(reply.status).toBe(200)
    expect(reply.body.events).toEqual([])
    expect(reply.body.total).toBe(0)
  })

  it('answers 400 when only one of geoloc_lat and geoloc_lng is given, or either is not a coordinate', async () => {
    for (const params of [
      { geoloc_lat: 48.8 },
      { geoloc_lng: 2.3 },
      { geoloc_lat: 48.8, geoloc_radius: 10 },
    ]) {
      const reply = await list({ search: tag, ...params })
      expectError(reply, 400, 'rest_invalid_param')
      expect(
        Object.keys(reply.body.data.params).some(
          (name) => name === 'geoloc_lat' || name === 'geoloc_lng',
        ),
      ).toBe(true)
    }
    expectInvalidParam(await list({ search: tag, geoloc_lat: 'foo', geoloc_lng: 2 }), 'geoloc_lat')
    expectInvalidParam(await list({ search: tag, geoloc_lat: 91, geoloc_lng: 2 }), 'geoloc_lat')
    expectInvalidParam(await list({ search: tag, geoloc_lat: 48, geoloc_lng: 181 }), 'geoloc_lng')
    expectInvalidParam(
      await list({ search: tag, geoloc_lat: 48, geoloc_lng: 2, geoloc_radius: -1 }),
      'geoloc_radius',
    )
  })
})

describe('hidden events and order', () => {
  it('never lists events hidden from listings, whoever asks', async () => {
    const tag = unique('hidden')
    const hidden = await createEvent({
      title: `${tag} hidden`,
      start: dayAt(1, 1),
      hideFromListings: true,
    })
    await createEvent({ title: `${tag} shown`, start: dayAt(1, 2) })
    expect(titles(await list({ search: tag }))).toEqual([`${tag} shown`])
    expect(titles(await list({ search: tag }, editor.token))).toEqual([`${tag} shown`])
    expect((await list({ search: tag })).body.total).toBe(1)
    expect(titles(await list({ include: hidden.id }))).toEqual([])
    // Still readable on its own.
    expect((await ns(`/events/${hidden.id}`)).status).toBe(200)
  })

  it('orders by start, then by id', async () => {
    const tag = unique('order')
    const later = await createEvent({ title: `${tag} later`, start: dayAt(3, 9) })
    const tieA = await createEvent({ title: `${tag} tie a`, start: dayAt(2, 9) })
    const tieB = await createEvent({ title: `${tag} tie b`, start: dayAt(2, 9) })
    const earliest = await createEvent({ title: `${tag} earliest`, start: dayAt(1, 9) })
    const reply = await list({ search: tag })
    expect(reply.body.events.map((event: { id: number }) => event.id)).toEqual([
      earliest.id,
      tieA.id,
      tieB.id,
      later.id,
    ])
    const paged = [
      ...(await list({ search: tag, per_page: 2 })).body.events,
      ...(await list({ search: tag, per_page: 2, page: 2 })).body.events,
    ]
    expect(paged.map((event: { id: number }) => event.id)).toEqual([
      earliest.id,
      tieA.id,
      tieB.id,
      later.id,
    ])
  })
})

describe('password-protected events in lists', () => {
  const tag = unique('locked')
  let venueName: string
  const linked = { venue: 0, organizer: 0, category: 0, tag: 0 }
  const ids = { locked: 0, open: 0 }
  let subscriber: TestUser
  beforeAll(async () => {
    subscriber = await userWithRole('subscriber')
    venueName = unique('lockedvenue')
    const venue = await createVenue({ name: venueName, city: 'Lille' })
    const organizer = await createOrganizer({ name: unique('lockedorg') })
    const category = await createCategory({ name: unique('lockedcat') })
    const eventTag = await createTag({ name: unique('lockedtag') })
    Object.assign(linked, {
      venue: venue.id,
      organizer: organizer.id,
      category: category.id,
      tag: eventTag.id,
    })
    ids.locked = (
      await createEvent({
        title: `${tag} protected`,
        start: '2034-07-01T18:00:00.000Z',
        end: '2034-07-01T20:00:00.000Z',
        password: 'open-sesame',
        description: richText('Secret programme'),
        excerpt: 'Secret',
        cost: ['15'],
        currencySymbol: '€',
        currencyPosition: 'postfix',
        website: 'https://locked.example/',
        featured: true,
        venue: venue.id,
        organizers: [organizer.id],
        categories: [category.id],
        tags: [eventTag.id],
      })
    ).id
    ids.open = (
      await createEvent({ title: `${tag} open`, start: '2034-07-02T18:00:00.000Z', cost: ['5'] })
    ).id
  })

  // Visitors' searches never match a protected event: these lists name the events instead.
  const both = () => ({ include: `${ids.locked},${ids.open}` })
  const window = { start_date: '2034-07-01', end_date: '2034-07-02' }

  function protectedOf(reply: { body: { events: Record<string, unknown>[] } }) {
    return reply.body.events.find((event) => event.title === `${tag} protected`)!
  }

  it('lists the event with its content redacted (docs/api.md §3.2), keys unchanged', async () => {
    const reply = await list(both())
    expect(reply.status).toBe(200)
    expect(titles(reply)).toEqual([`${tag} protected`, `${tag} open`])
    const locked = protectedOf(reply)
    const open = reply.body.events[1]!
    expect(Object.keys(locked)).toEqual(Object.keys(open))
    expect(locked).toMatchObject({
      title: `${tag} protected`,
      start_date: '2034-07-01 18:00:00',
      end_date: '2034-07-01 20:00:00',
      utc_start_date: '2034-07-01 18:00:00',
      description: '',
      excerpt: '',
      image: false,
      all_day: null,
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
      website: '',
      show_map: null,
      show_map_link: null,
      hide_from_listings: null,
      sticky: null,
      featured: null,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      custom_fields: [],
    })
    // Upstream's redaction writes cost_details in its own key order, not the event object's.
    expect(Object.keys(locked.cost_details as object)).toEqual([
      'currency_symbol',
      'currency_position',
      'currency_code',
      'values',
    ])
    expect(
      Object.keys(
        protectedOf(await list({ search: tag, ...window }, editor.token)).cost_details as object,
      ),
    ).toEqual(Object.keys(locked.cost_details as object))
    expect(locked.id).toEqual(expect.any(Number))
    expect(locked.url).toEqual(expect.stringContaining('/event/'))
    expect(JSON.stringify(reply.body)).not.toContain('open-sesame')
    expect(JSON.stringify(reply.body)).not.toContain('Secret')
  })

  it('stays redacted with a wrong password, and for an editor without context=edit', async () => {
    expect(protectedOf(await list({ ...both(), password: 'wrong' })).cost).toBe('')
    expect(protectedOf(await list({ search: tag, ...window }, editor.token)).venue).toEqual([])
  })

  it('shows everything with the right password', async () => {
    const event = protectedOf(await list({ ...both(), password: 'open-sesame' }))
    expect(event).toMatchObject({
      description: '<p>Secret programme</p>',
      excerpt: '<p>Secret</p>',
      all_day: false,
      cost: '15€',
      cost_details: {
        currency_symbol: '€',
        currency_code: '',
        currency_position: 'postfix',
        values: ['15'],
      },
      website: 'https://locked.example/',
      show_map: true,
      show_map_link: true,
      hide_from_listings: false,
      sticky: false,
      featured: true,
      categories: [expect.objectContaining({ id: linked.category })],
      tags: [expect.objectContaining({ id: linked.tag })],
      venue: expect.objectContaining({ id: linked.venue, venue: venueName }),
      organizer: [expect.objectContaining({ id: linked.organizer })],
    })
  })

  it('lists it, redacted, under filters on venue, organizer, featured, category and tag (upstream), on both paths', async () => {
    const filters = [
      { venue: linked.venue },
      { organizer: linked.organizer },
      { featured: 1 },
      { categories: linked.category },
      { tags: linked.tag },
    ]
    for (const filter of filters) {
      for (const password of [undefined, 'wrong']) {
        const reply = await list({ ...filter, ...window, password })
        expect({ filter, password, titles: titles(reply) }).toEqual({
          filter,
          password,
          titles: [`${tag} protected`],
        })
        expect(protectedOf(reply)).toMatchObject({
          venue: [],
          organizer: [],
          categories: [],
          featured: null,
          cost: '',
        })
        expect(reply.body.total).toBe(1)
      }
    }
  })

  it('never matches a visitor’s search, not even by its title; signed-in readers find it by title', async () => {
    expect(titles(await list({ search: tag, ...window }))).toEqual([`${tag} open`])
    expect(titles(await list({ search: `${tag} protected`, ...window }))).toEqual([])
    expect(titles(await list({ search: tag, ...window, password: 'open-sesame' }))).toEqual([
      `${tag} open`,
    ])
    expect(titles(await list({ search: tag, ...window }, subscriber.token))).toEqual([
      `${tag} protected`,
      `${tag} open`,
    ])
    // Its withheld content still matches for no one who may not read it.
    expect(titles(await list({ search: 'Secret programme', ...window }, subscriber.token))).toEqual(
      [],
    )
    expect(titles(await list({ search: tag, ...window }, editor.token))).toEqual([
      `${tag} protected`,
      `${tag} open`,
    ])
  })

  it('shows everything to an editor with context=edit', async () => {
    const event = protectedOf(await list({ search: tag, ...window, context: 'edit' }, editor.token))
    expect(event.cost).toBe('15€')
    expect((event.venue as { venue: string }).venue).toBe(venueName)
  })
})
