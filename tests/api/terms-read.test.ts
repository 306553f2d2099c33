/**
 * Read side of categories and tags (docs/api.md §3.5, §8, §10, §13):
 * `GET /categories`, `GET /tags` with their parameters, `GET /categories/{id}`, `GET /tags/{id}`,
 * the endpoint term shape key for key, counts of published events, and languages.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  asAdmin,
  BASE_URL,
  call,
  NS,
  type Reply,
  ROOT,
  unique,
  usersOfEveryRole,
} from '../support/api'
import { expectInvalidParam } from '../support/expectations'
import {
  changeSettings,
  createCategory,
  createEvent,
  createTag,
  follow,
  ns,
  qs,
  restoreSettings,
  splitUrl,
} from '../support/fixtures'
import { expectTotals, inBatches, links, patchDoc } from '../support/linkedFixtures'

const FR_ROOT = `${BASE_URL}/fr/api/cal/events/v1`
const CATEGORY_KEYS = [
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
]
const TAG_KEYS = CATEGORY_KEYS.filter((key) => key !== 'parent')

type Term = { id: number; slug: string; name: string }
type Route = 'categories' | 'tags'

function list(
  route: Route,
  params: Record<string, string | number | boolean | undefined>,
): Promise<Reply> {
  return ns(`/${route}?${qs(params)}`)
}

function names(reply: Reply, route: Route = 'categories'): string[] {
  expect(reply.status, JSON.stringify(reply.body).slice(0, 500)).toBe(200)
  return (reply.body[route] as { name: string }[]).map((term) => term.name)
}

/** Keys of a single-term answer before the `_links` block that only single answers carry (judged on its own below). */
function termKeys(term: Record<string, unknown>): string[] {
  expect(Object.keys(term).at(-1)).toBe('_links')
  return Object.keys(term).filter((key) => key !== '_links')
}

function withoutLinks(term: Record<string, unknown>): Record<string, unknown> {
  const { _links: _, ...rest } = term
  return rest
}

describe('the term object', () => {
  const tag = unique('tshape')
  let parent: Term
  let child: Term
  let eventTag: Term

  beforeAll(async () => {
    parent = (await createCategory({ name: `${tag} Music`, description: 'All music' })) as never
    child = (await createCategory({ name: `${tag} Jazz`, parent: parent.id })) as never
    eventTag = (await createTag({ name: `${tag} Outdoor`, description: 'Outside' })) as never
    await createEvent({
      title: unique('ev'),
      categories: [parent.id, child.id],
      tags: [eventTag.id],
    })
    await createEvent({ title: unique('ev'), categories: [parent.id] })
  })

  it('answers a category with upstream’s keys in upstream’s order and exact values', async () => {
    const reply = await ns(`/categories/${parent.id}`)
    expect(reply.status).toBe(200)
    expect(termKeys(reply.body)).toEqual(CATEGORY_KEYS)
    expect(withoutLinks(reply.body)).toEqual({
      id: parent.id,
      count: 2,
      description: 'All music',
      url: `${BASE_URL}/events/category/${parent.slug}/`,
      name: `${tag} Music`,
      slug: `${tag}-music`,
      taxonomy: 'event_category',
      parent: 0,
      meta: [],
      urls: { self: `${ROOT}/categories/${parent.id}`, collection: `${ROOT}/categories` },
    })
    expect(parent.slug).toBe(`${tag}-music`)
  })

  it('gives a child category its parent id and an `up` link', async () => {
    const reply = await ns(`/categories/${child.id}`)
    expect(termKeys(reply.body)).toEqual(CATEGORY_KEYS)
    expect(withoutLinks(reply.body)).toEqual({
      id: child.id,
      count: 1,
      description: '',
      url: `${BASE_URL}/events/category/${parent.slug}/${child.slug}/`,
      name: `${tag} Jazz`,
      slug: child.slug,
      taxonomy: 'event_category',
      parent: parent.id,
      meta: [],
      urls: {
        self: `${ROOT}/categories/${child.id}`,
        collection: `${ROOT}/categories`,
        up: `${ROOT}/categories/${parent.id}`,
      },
    })
    expect(Object.keys(reply.body.urls)).toEqual(['self', 'collection', 'up'])
  })

  it('answers a tag without a parent key, taxonomy event_tag', async () => {
    const reply = await ns(`/tags/${eventTag.id}`)
    expect(reply.status).toBe(200)
    expect(termKeys(reply.body)).toEqual(TAG_KEYS)
    expect(withoutLinks(reply.body)).toEqual({
      id: eventTag.id,
      count: 1,
      description: 'Outside',
      url: `${BASE_URL}/events/tag/${eventTag.slug}/`,
      name: `${tag} Outdoor`,
      slug: eventTag.slug,
      taxonomy: 'event_tag',
      meta: [],
      urls: { self: `${ROOT}/tags/${eventTag.id}`, collection: `${ROOT}/tags` },
    })
  })

  it('lists the same objects as the single reads', async () => {
    const categories = await list('categories', { search: tag })
    expect(categories.body.categories).toEqual([
      withoutLinks((await ns(`/categories/${child.id}`)).body),
      withoutLinks((await ns(`/categories/${parent.id}`)).body),
    ])
    for (const term of categories.body.categories) expect(Object.keys(term)).toEqual(CATEGORY_KEYS)
    const tags = await list('tags', { search: tag })
    expect(tags.body.tags).toEqual([withoutLinks((await ns(`/tags/${eventTag.id}`)).body)])
    expect(Object.keys(tags.body.tags[0])).toEqual(TAG_KEYS)
  })

  it('builds url from the siteUrl setting', async () => {
    const previous = await changeSettings({ siteUrl: 'https://www.example.org' })
    try {
      expect((await ns(`/categories/${parent.id}`)).body.url).toBe(
        `https://www.example.org/events/category/${parent.slug}/`,
      )
      expect((await ns(`/tags/${eventTag.id}`)).body.url).toBe(
        `https://www.example.org/events/tag/${eventTag.slug}/`,
      )
    } finally {
      await restoreSettings(previous)
    }
  })

  it('adds WordPress’s `_links` to a single term, into this namespace, with the methods the caller may use', async () => {
    expect((await ns(`/categories/${parent.id}`)).body._links).toEqual({
      self: [{ href: `${ROOT}/categories/${parent.id}`, targetHints: { allow: ['GET'] } }],
      collection: [{ href: `${ROOT}/categories` }],
    })
    expect((await ns(`/categories/${child.id}`, await asAdmin())).body._links).toEqual({
      self: [
        {
          href: `${ROOT}/categories/${child.id}`,
          targetHints: { allow: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        },
      ],
      collection: [{ href: `${ROOT}/categories` }],
      up: [{ href: `${ROOT}/categories/${parent.id}`, embeddable: true }],
    })
    const { author } = await usersOfEveryRole()
    expect((await ns(`/tags/${eventTag.id}`, author.token)).body._links).toEqual({
      self: [{ href: `${ROOT}/tags/${eventTag.id}`, targetHints: { allow: ['GET'] } }],
      collection: [{ href: `${ROOT}/tags` }],
    })
    const french = await call(`/fr${NS}/tags/${eventTag.id}`)
    expect(french.body._links.self[0].href).toBe(`${FR_ROOT}/tags/${eventTag.id}`)
    expect(
      (await list('categories', { search: tag })).body.categories.every(
        (term: object) => !('_links' in term),
      ),
    ).toBe(true)
  })

  it('answers 400 rest_invalid_param for an unknown id', async () => {
    expectInvalidParam(await ns('/categories/2000000000'), 'id')
    expectInvalidParam(await ns('/tags/2000000000'), 'id')
  })
})

describe('GET /categories and /tags: wrapper and pagination', () => {
  const tag = unique('tpage')

  beforeAll(async () => {
    const categories = []
    for (const letter of ['a', 'b', 'c'])
      categories.push((await createCategory({ name: `${tag} ${letter}` })).id)
    const tags = []
    for (const letter of ['a', 'b', 'c'])
      tags.push((await createTag({ name: `${tag} ${letter}` })).id)
    await createEvent({ title: unique('ev'), categories, tags })
  })

  it('answers rest_url (the bare list URL), totals, then the terms, with X-Total headers', async () => {
    const reply = await list('categories', { search: tag })
    expect(names(reply)).toEqual([`${tag} a`, `${tag} b`, `${tag} c`])
    expect(Object.keys(reply.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories'])
    expect(reply.body.rest_url).toBe(`${ROOT}/categories/`)
    expectTotals(reply, 3, 1)
    expect(reply.headers.get('Link')).toBeNull()

    const tags = await list('tags', { search: tag, hide_empty: 1, order: 'asc' })
    expect(names(tags, 'tags')).toEqual([`${tag} a`, `${tag} b`, `${tag} c`])
    expect(Object.keys(tags.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags'])
    expect(tags.body.rest_url).toBe(`${ROOT}/tags/`)
    expectTotals(tags, 3, 1)
  })

  it('adds next_rest_url (the list URL with page=N+1 only) after the terms', async () => {
    const reply = await list('categories', { search: tag, per_page: 2 })
    expect(names(reply)).toEqual([`${tag} a`, `${tag} b`])
    expect(Object.keys(reply.body)).toEqual([
      'rest_url',
      'total',
      'total_pages',
      'categories',
      'next_rest_url',
    ])
    expect(reply.body.rest_url).toBe(`${ROOT}/categories/`)
    expect(reply.body.next_rest_url).toBe(`${ROOT}/categories/?page=2`)
    expectTotals(reply, 3, 2)
    // The Link header (ours, not upstream's) keeps the request's filters.
    expect(links(reply.headers.get('Link'))).toEqual({
      next: `${ROOT}/categories/?per_page=2&search=${tag}&page=2`,
    })
  })

  it('adds previous_rest_url (the bare list URL for page 1, else page=N-1)', async () => {
    const last = await list('categories', { search: tag, per_page: 2, page: 2 })
    expect(names(last)).toEqual([`${tag} c`])
    expect(Object.keys(last.body)).toEqual([
      'rest_url',
      'total',
      'total_pages',
      'categories',
      'previous_rest_url',
    ])
    expect(last.body.previous_rest_url).toBe(`${ROOT}/categories/`)
    expect(links(last.headers.get('Link'))).toEqual({
      prev: `${ROOT}/categories/?per_page=2&search=${tag}`,
    })

    const middle = await list('tags', { search: tag, per_page: 1, page: 2 })
    expect(names(middle, 'tags')).toEqual([`${tag} b`])
    expect(Object.keys(middle.body)).toEqual([
      'rest_url',
      'total',
      'total_pages',
      'tags',
      'next_rest_url',
      'previous_rest_url',
    ])
    expect(middle.body.next_rest_url).toBe(`${ROOT}/tags/?page=3`)
    expect(middle.body.previous_rest_url).toBe(`${ROOT}/tags/`)
    expectTotals(middle, 3, 3)
    expect(links(middle.headers.get('Link'))).toEqual({
      next: `${ROOT}/tags/?per_page=1&search=${tag}&page=3`,
      prev: `${ROOT}/tags/?per_page=1&search=${tag}`,
    })

    const third = await list('tags', { search: tag, per_page: 1, page: 3 })
    expect(third.body.previous_rest_url).toBe(`${ROOT}/tags/?page=2`)
  })

  it('keeps every filter in the Link header, so that following it gives the next page of the same list', async () => {
    const first = await list('tags', {
      search: tag,
      per_page: 1,
      hide_empty: 'false',
      order: 'DESC',
      orderby: 'name',
    })
    expect(names(first, 'tags')).toEqual([`${tag} c`])
    const linked = links(first.headers.get('Link'))
    expect(linked).toEqual({
      next: `${ROOT}/tags/?per_page=1&search=${tag}&order=desc&orderby=name&hide_empty=0&page=2`,
    })
    expect(first.body.next_rest_url).toBe(`${ROOT}/tags/?page=2`)
    const second = await follow(linked.next!)
    expect(names(second, 'tags')).toEqual([`${tag} b`])
    expect(links(second.headers.get('Link'))).toEqual({
      next: `${ROOT}/tags/?per_page=1&search=${tag}&order=desc&orderby=name&hide_empty=0&page=3`,
      prev: `${ROOT}/tags/?per_page=1&search=${tag}&order=desc&orderby=name&hide_empty=0`,
    })
  })

  it('takes the default per_page from the site setting', async () => {
    const previous = await changeSettings({ postsPerPage: 2 })
    try {
      const reply = await list('categories', { search: tag })
      expect(names(reply)).toEqual([`${tag} a`, `${tag} b`])
      expect(reply.body.next_rest_url).toBe(`${ROOT}/categories/?page=2`)
      expectTotals(reply, 3, 2)
    } finally {
      await restoreSettings(previous)
    }
  })

  it('answers a page past the end with 200, an empty list and previous_rest_url', async () => {
    const reply = await list('categories', { search: tag, per_page: 2, page: 5 })
    expect(names(reply)).toEqual([])
    expect(Object.keys(reply.body)).toEqual([
      'rest_url',
      'total',
      'total_pages',
      'categories',
      'previous_rest_url',
    ])
    expect(reply.body.previous_rest_url).toBe(`${ROOT}/categories/?page=4`)
    expectTotals(reply, 3, 2)

    const tags = await list('tags', { search: tag, page: 2 })
    expect(names(tags, 'tags')).toEqual([])
    expect(tags.body.previous_rest_url).toBe(`${ROOT}/tags/`)
    expectTotals(tags, 3, 1)
  })

  it('answers an empty first page with 200 and zero totals', async () => {
    const reply = await list('categories', { search: unique('nothing') })
    expect(names(reply)).toEqual([])
    expect(Object.keys(reply.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories'])
    expectTotals(reply, 0, 0)
  })

  it('refuses page and per_page that are not positive integers with 400 rest_invalid_param', async () => {
    for (const route of ['categories', 'tags'] as const) {
      for (const page of ['0', '-1', 'abc', '1.5'])
        expectInvalidParam(await list(route, { search: tag, page }), 'page')
      for (const perPage of ['0', 'ten', '2.5'])
        expectInvalidParam(await list(route, { search: tag, per_page: perPage }), 'per_page')
    }
  })
})

describe('GET /categories: per_page is clamped to 50', () => {
  const tag = unique('tclamp')

  beforeAll(async () => {
    const categories = await inBatches(51, 10, (n) =>
      createCategory({ name: `${tag} ${String(n).padStart(2, '0')}` }),
    )
    await createEvent({
      title: unique('ev'),
      categories: categories.map((category) => category.id),
    })
  })

  it('answers 50 categories for per_page=100', async () => {
    const reply = await list('categories', { search: tag, per_page: 100 })
    expect(reply.body.categories).toHaveLength(50)
    expectTotals(reply, 51, 2)
    expect(reply.body.next_rest_url).toBe(`${ROOT}/categories/?page=2`)
    const second = await list('categories', { search: tag, per_page: 100, page: 2 })
    expect(names(second)).toEqual([`${tag} 50`])
  })
})

describe('hide_empty and count', () => {
  const tag = unique('tcount')
  let used: Term
  let draftOnly: Term
  let usedTag: Term
  let draftOnlyTag: Term
  let published: { id: number }
  let draft: { id: number }

  beforeAll(async () => {
    used = (await createCategory({ name: `${tag} used` })) as never
    draftOnly = (await createCategory({ name: `${tag} draft only` })) as never
    await createCategory({ name: `${tag} never used` })
    usedTag = (await createTag({ name: `${tag} used` })) as never
    draftOnlyTag = (await createTag({ name: `${tag} draft only` })) as never
    published = await createEvent({
      title: unique('ev'),
      categories: [used.id],
      tags: [usedTag.id],
    })
    await createEvent({ title: unique('ev'), categories: [used.id], tags: [usedTag.id] })
    draft = await createEvent({
      title: unique('ev'),
      status: 'draft',
      categories: [draftOnly.id, used.id],
      tags: [draftOnlyTag.id],
    })
  })

  it('hides terms that no published event uses by default (a term used only by a draft included)', async () => {
    expect(names(await list('categories', { search: tag }))).toEqual([`${tag} used`])
    expect(names(await list('categories', { search: tag, hide_empty: 1 }))).toEqual([`${tag} used`])
    expect(names(await list('tags', { search: tag }), 'tags')).toEqual([`${tag} used`])
  })

  it('shows them with hide_empty=0 or false', async () => {
    const all = await list('categories', { search: tag, hide_empty: 0 })
    expect(
      all.body.categories.map((term: { name: string; count: number }) => [term.name, term.count]),
    ).toEqual([
      [`${tag} draft only`, 0],
      [`${tag} never used`, 0],
      [`${tag} used`, 2],
    ])
    expectTotals(all, 3, 1)
    expect(names(await list('categories', { search: tag, hide_empty: 'false' }))).toEqual([
      `${tag} draft only`,
      `${tag} never used`,
      `${tag} used`,
    ])
    expect(names(await list('tags', { search: tag, hide_empty: 0 }), 'tags')).toEqual([
      `${tag} draft only`,
      `${tag} used`,
    ])
  })

  it('refuses a hide_empty that is not a boolean with 400 rest_invalid_param', async () => {
    expectInvalidParam(await list('categories', { search: tag, hide_empty: 'maybe' }), 'hide_empty')
  })

  it('counts published events, following publication and trashing through Payload’s REST API', async () => {
    expect((await ns(`/categories/${used.id}`)).body.count).toBe(2)
    expect((await ns(`/categories/${draftOnly.id}`)).body.count).toBe(0)
    expect((await ns(`/tags/${draftOnlyTag.id}`)).body.count).toBe(0)

    await patchDoc('events', draft.id, { status: 'publish' })
    expect((await ns(`/categories/${used.id}`)).body.count).toBe(3)
    expect((await ns(`/categories/${draftOnly.id}`)).body.count).toBe(1)
    expect((await ns(`/tags/${draftOnlyTag.id}`)).body.count).toBe(1)
    expect(names(await list('categories', { search: tag }))).toEqual([
      `${tag} draft only`,
      `${tag} used`,
    ])

    await patchDoc('events', published.id, { status: 'trash' })
    expect((await ns(`/categories/${used.id}`)).body.count).toBe(2)
    expect((await ns(`/tags/${usedTag.id}`)).body.count).toBe(1)
    const counts = (await list('categories', { search: tag })).body.categories.map(
      (term: { name: string; count: number }) => [term.name, term.count],
    )
    expect(counts).toEqual([
      [`${tag} draft only`, 1],
      [`${tag} used`, 2],
    ])
  })
})

describe('search, slug, include, exclude', () => {
  const tag = unique('tfind')
  let apple: Term
  let banana: Term
  let cherry: Term
  let damson: Term

  beforeAll(async () => {
    apple = (await createCategory({ name: `${tag} Apple` })) as never
    banana = (await createCategory({ name: `${tag} Banana` })) as never
    cherry = (await createCategory({ name: `${tag} Cherry` })) as never
    damson = (await createCategory({ name: unique('Damson'), slug: `${tag}-damson-slug` })) as never
    await createEvent({
      title: unique('ev'),
      categories: [apple.id, banana.id, cherry.id, damson.id],
    })
  })

  it('searches the name and the slug, case-insensitively', async () => {
    expect(names(await list('categories', { search: tag }))).toEqual([
      damson.name,
      `${tag} Apple`,
      `${tag} Banana`,
      `${tag} Cherry`,
    ])
    expect(names(await list('categories', { search: `${tag} BANANA` }))).toEqual([`${tag} Banana`])
    expect(names(await list('categories', { search: `${tag}-damson` }))).toEqual([damson.name])
    expectTotals(await list('categories', { search: `${tag}-nothing` }), 0, 0)
    expectInvalidParam(await list('categories', { search: '' }), 'search')
  })

  it('takes % and _ in the search literally, not as wildcards', async () => {
    const word = unique('lit')
    const plain = await createCategory({ name: `${word}ab` })
    const underscored = await createCategory({ name: `${word}_b` })
    await createEvent({ title: unique('ev'), categories: [plain.id, underscored.id] })
    expect.soft(names(await list('categories', { search: `${word}_b` }))).toEqual([`${word}_b`])
    expect.soft(names(await list('categories', { search: `${word}%b` }))).toEqual([])
  })

  it('finds the term with a slug', async () => {
    const reply = await list('categories', { slug: banana.slug })
    expect(reply.body.categories.map((term: Term) => term.id)).toEqual([banana.id])
    expectTotals(reply, 1, 1)
    expectTotals(await list('categories', { slug: `${tag}-no-such-slug` }), 0, 0)
  })

  it('keeps only the included ids, and refuses unknown ones with 400 rest_invalid_param', async () => {
    expect(names(await list('categories', { include: `${cherry.id},${apple.id}` }))).toEqual([
      `${tag} Apple`,
      `${tag} Cherry`,
    ])
    expect(
      names(
        await call(`/api/cal/events/v1/categories?include[]=${cherry.id}&include[]=${banana.id}`),
      ),
    ).toEqual([`${tag} Banana`, `${tag} Cherry`])
    expectInvalidParam(await list('categories', { include: `${apple.id},2000000000` }), 'include')
    expectInvalidParam(await list('categories', { include: 'abc' }), 'include')
  })

  it('leaves out the excluded ids, and refuses unknown ones with 400 rest_invalid_param', async () => {
    expect(
      names(await list('categories', { search: tag, exclude: `${banana.id},${damson.id}` })),
    ).toEqual([`${tag} Apple`, `${tag} Cherry`])
    expectInvalidParam(await list('categories', { search: tag, exclude: 'abc' }), 'exclude')
    const unknown = await list('categories', { search: tag, exclude: `${banana.id},2000000000` })
    expectInvalidParam(unknown, 'exclude')
    expect(unknown.body.data.params.exclude).toContain('2000000000')
    expectInvalidParam(await list('tags', { exclude: 2_000_000_000 }), 'exclude')
  })
})

describe('order and orderby', () => {
  const tag = unique('torder')
  // Created in this order (ids ascending): names, ids and counts each give a different order.
  let m: Term // count 1
  let c: Term // count 3
  let x: Term // count 2

  beforeAll(async () => {
    m = (await createCategory({ name: `${tag} m` })) as never
    c = (await createCategory({ name: `${tag} c` })) as never
    x = (await createCategory({ name: `${tag} x` })) as never
    await createEvent({ title: unique('ev'), categories: [m.id, c.id, x.id] })
    await createEvent({ title: unique('ev'), categories: [c.id, x.id] })
    await createEvent({ title: unique('ev'), categories: [c.id] })
  })

  it('sorts by name ascending by default, descending with order=desc', async () => {
    expect(names(await list('categories', { search: tag }))).toEqual([
      `${tag} c`,
      `${tag} m`,
      `${tag} x`,
    ])
    expect(names(await list('categories', { search: tag, order: 'desc' }))).toEqual([
      `${tag} x`,
      `${tag} m`,
      `${tag} c`,
    ])
    expect(names(await list('categories', { search: tag, orderby: 'name', order: 'asc' }))).toEqual(
      [`${tag} c`, `${tag} m`, `${tag} x`],
    )
  })

  it('sorts names case-insensitively, accents with their letters, in every language', async () => {
    const word = unique('tcase')
    const made = []
    for (const name of ['b', 'C', 'é', 'A', 'f'])
      made.push(await createTag({ name: `${word} ${name}` }))
    await createEvent({ title: unique('ev'), tags: made.map((term) => term.id) })
    const expected = ['A', 'b', 'C', 'é', 'f'].map((name) => `${word} ${name}`)
    expect(names(await list('tags', { search: word }), 'tags')).toEqual(expected)
    expect(names(await list('tags', { search: word, orderby: 'name' }), 'tags')).toEqual(expected)
    expect(names(await list('tags', { search: word, order: 'desc' }), 'tags')).toEqual(
      [...expected].reverse(),
    )
    const french = ['ö', 'B', 'a', 'Z', 'c']
    for (const [index, name] of french.entries())
      await patchDoc('event-tags', made[index]!.id, { name: `${word} ${name}` }, 'fr')
    expect(names(await list('tags', { search: word, i18n_language: 'fr' }), 'tags')).toEqual(
      ['a', 'B', 'c', 'ö', 'Z'].map((name) => `${word} ${name}`),
    )
  })

  it('sorts by the name a language shows, its own or the English one where it has none', async () => {
    const word = unique('tshown')
    const made = []
    for (const name of ['b', 'x', 'd', 'y']) made.push(await createTag({ name: `${word} ${name}` }))
    await createEvent({ title: unique('ev'), tags: made.map((term) => term.id) })
    await patchDoc('event-tags', made[1]!.id, { name: `${word} a` }, 'fr')
    await patchDoc('event-tags', made[3]!.id, { name: `${word} c` }, 'fr')
    const expected = ['a', 'b', 'c', 'd'].map((name) => `${word} ${name}`)
    expect(names(await list('tags', { search: word, i18n_language: 'fr' }), 'tags')).toEqual(
      expected,
    )
    expect(
      names(await list('tags', { search: word, i18n_language: 'fr', order: 'desc' }), 'tags'),
    ).toEqual([...expected].reverse())
    const secondPage = await list('tags', {
      search: word,
      i18n_language: 'fr',
      per_page: 2,
      page: 2,
    })
    expect(names(secondPage, 'tags')).toEqual(expected.slice(2))
  })

  it('sorts by id and by count', async () => {
    expect(names(await list('categories', { search: tag, orderby: 'id' }))).toEqual([
      `${tag} m`,
      `${tag} c`,
      `${tag} x`,
    ])
    expect(names(await list('categories', { search: tag, orderby: 'id', order: 'desc' }))).toEqual([
      `${tag} x`,
      `${tag} c`,
      `${tag} m`,
    ])
    const byCount = await list('categories', { search: tag, orderby: 'count' })
    expect(
      byCount.body.categories.map((term: { name: string; count: number }) => [
        term.name,
        term.count,
      ]),
    ).toEqual([
      [`${tag} m`, 1],
      [`${tag} x`, 2],
      [`${tag} c`, 3],
    ])
    expect(
      names(await list('categories', { search: tag, orderby: 'count', order: 'desc' })),
    ).toEqual([`${tag} c`, `${tag} x`, `${tag} m`])
    const paged = await list('categories', {
      search: tag,
      orderby: 'count',
      order: 'desc',
      per_page: 2,
      page: 2,
    })
    expect(names(paged)).toEqual([`${tag} m`])
    expectTotals(paged, 3, 2)
  })

  it('refuses an unknown orderby or order with 400 rest_invalid_param', async () => {
    expectInvalidParam(await list('categories', { search: tag, orderby: 'bogus' }), 'orderby')
    expectInvalidParam(await list('categories', { search: tag, order: 'sideways' }), 'order')
    expectInvalidParam(await list('tags', { search: tag, orderby: 'bogus' }), 'orderby')
    expectInvalidParam(await list('tags', { search: tag, order: 'sideways' }), 'order')
  })
})

describe('parent', () => {
  const tag = unique('tparent')
  let top: Term
  let childB: Term
  let childA: Term
  let grandchild: Term
  let someTag: Term

  beforeAll(async () => {
    top = (await createCategory({ name: `${tag} top` })) as never
    childB = (await createCategory({ name: `${tag} b child`, parent: top.id })) as never
    childA = (await createCategory({ name: `${tag} a child`, parent: top.id })) as never
    grandchild = (await createCategory({ name: `${tag} grandchild`, parent: childB.id })) as never
    someTag = (await createTag({ name: `${tag} tagged` })) as never
    await createEvent({
      title: unique('ev'),
      categories: [top.id, childA.id, childB.id, grandchild.id],
      tags: [someTag.id],
    })
  })

  it('keeps the direct children of a category', async () => {
    const reply = await list('categories', { parent: top.id })
    expect(reply.body.categories.map((term: Term) => term.id)).toEqual([childA.id, childB.id])
    expectTotals(reply, 2, 1)
    expect(names(await list('categories', { parent: childB.id }))).toEqual([`${tag} grandchild`])
  })

  it('refuses an unknown parent, 0 included, with 400 rest_invalid_param', async () => {
    expectInvalidParam(await list('categories', { parent: 2_000_000_000 }), 'parent')
    expectInvalidParam(await list('categories', { parent: 'abc' }), 'parent')
    expectInvalidParam(await list('categories', { search: tag, parent: 0 }), 'parent')
  })

  it('puts a child category’s archive below its ancestors’, at any depth, in lists and single reads', async () => {
    const category = `${BASE_URL}/events/category`
    const byId = Object.fromEntries(
      (await list('categories', { search: tag })).body.categories.map(
        (term: Term & { url: string }) => [term.id, term.url],
      ),
    )
    expect(byId).toEqual({
      [top.id]: `${category}/${top.slug}/`,
      [childA.id]: `${category}/${top.slug}/${childA.slug}/`,
      [childB.id]: `${category}/${top.slug}/${childB.slug}/`,
      [grandchild.id]: `${category}/${top.slug}/${childB.slug}/${grandchild.slug}/`,
    })
    expect((await ns(`/categories/${grandchild.id}`)).body.url).toBe(byId[grandchild.id])
  })

  it('builds the path from each ancestor’s slug in the request language, English where untranslated', async () => {
    await patchDoc(
      'event-categories',
      childB.id,
      { name: `${tag} b enfant`, slug: `${tag}-b-enfant` },
      'fr',
    )
    const reply = await call(`/fr${NS}/categories/${grandchild.id}`)
    expect(reply.body.url).toBe(
      `${BASE_URL}/fr/events/category/${top.slug}/${tag}-b-enfant/${grandchild.slug}/`,
    )
  })

  it('lists a page of child categories in a constant number of queries', async () => {
    const flat = Number((await list('tags', { search: tag })).headers.get('X-Query-Count'))
    const nested = Number((await list('categories', { search: tag })).headers.get('X-Query-Count'))
    expect(nested).toBeGreaterThan(0)
    expect(nested).toBeLessThanOrEqual(flat + 1)
  })

  it('has no parent parameter on tags: it is ignored', async () => {
    const reply = await list('tags', { search: tag, parent: 2_000_000_000 })
    expect(names(reply, 'tags')).toEqual([`${tag} tagged`])
    expect(reply.body.rest_url).toBe(`${ROOT}/tags/`)
  })
})

describe('post and event', () => {
  const tag = unique('tpost')
  let a: Term
  let b: Term
  let c: Term
  let t1: Term
  let t2: Term
  let first: { id: number }
  let second: { id: number }

  beforeAll(async () => {
    a = (await createCategory({ name: `${tag} a` })) as never
    b = (await createCategory({ name: `${tag} b` })) as never
    c = (await createCategory({ name: `${tag} c` })) as never
    t1 = (await createTag({ name: `${tag} one` })) as never
    t2 = (await createTag({ name: `${tag} two` })) as never
    first = await createEvent({ title: unique('ev'), categories: [b.id, a.id], tags: [t1.id] })
    second = await createEvent({ title: unique('ev'), categories: [c.id], tags: [t2.id] })
  })

  it('keeps the terms of one event with post=<id> or its alias event=<id>', async () => {
    const byPost = await list('categories', { post: first.id })
    expect(names(byPost)).toEqual([`${tag} a`, `${tag} b`])
    expectTotals(byPost, 2, 1)
    expect(names(await list('categories', { event: first.id }))).toEqual([`${tag} a`, `${tag} b`])
    expect(names(await list('tags', { post: first.id }), 'tags')).toEqual([`${tag} one`])
    expect(names(await list('tags', { event: second.id }), 'tags')).toEqual([`${tag} two`])
  })

  it('lets event win when both are given', async () => {
    expect(names(await list('categories', { post: first.id, event: second.id }))).toEqual([
      `${tag} c`,
    ])
    expect(names(await list('tags', { event: first.id, post: second.id }), 'tags')).toEqual([
      `${tag} one`,
    ])
  })

  it('refuses ids that are not events with 400 rest_invalid_param', async () => {
    expectInvalidParam(await list('categories', { post: 2_000_000_000 }), 'post')
    expectInvalidParam(await list('categories', { event: 2_000_000_000 }), 'event')
    expectInvalidParam(await list('tags', { event: 2_000_000_000 }), 'event')
    expectInvalidParam(await list('tags', { post: 'abc' }), 'post')
  })
})

describe('languages', () => {
  const tag = unique('tlang')
  const frWord = unique('concerts')
  let translated: Term
  let untranslated: Term
  let translatedTag: Term

  beforeAll(async () => {
    translated = (await createCategory({
      name: `${tag} Concerts`,
      description: 'Live music',
    })) as never
    untranslated = (await createCategory({ name: `${tag} Theatre`, description: 'Plays' })) as never
    translatedTag = (await createTag({ name: `${tag} Free` })) as never
    await patchDoc(
      'event-categories',
      translated.id,
      { name: `${tag} ${frWord}`, slug: `${frWord}-fr`, description: 'Musique live' },
      'fr',
    )
    await patchDoc('event-tags', translatedTag.id, { name: `${tag} Gratuit` }, 'fr')
    await createEvent({
      title: unique('ev'),
      categories: [translated.id, untranslated.id],
      tags: [translatedTag.id],
    })
  })

  it('answers French names, slugs, descriptions and permalinks with i18n_language=fr, English where untranslated', async () => {
    const reply = await list('categories', {
      include: `${translated.id},${untranslated.id}`,
      i18n_language: 'fr',
    })
    const byId = Object.fromEntries(reply.body.categories.map((term: Term) => [term.id, term]))
    expect(byId[translated.id]).toMatchObject({
      name: `${tag} ${frWord}`,
      slug: `${frWord}-fr`,
      description: 'Musique live',
      url: `${BASE_URL}/fr/events/category/${frWord}-fr/`,
    })
    expect(byId[untranslated.id]).toMatchObject({
      name: `${tag} Theatre`,
      slug: untranslated.slug,
      description: 'Plays',
      url: `${BASE_URL}/fr/events/category/${untranslated.slug}/`,
    })
    const english = await list('categories', { include: translated.id })
    expect(english.body.categories[0]).toMatchObject({
      name: `${tag} Concerts`,
      slug: translated.slug,
      description: 'Live music',
    })
  })

  it('reads one term in French', async () => {
    expect((await ns(`/categories/${translated.id}?i18n_language=fr`)).body).toMatchObject({
      name: `${tag} ${frWord}`,
      slug: `${frWord}-fr`,
    })
    expect((await ns(`/tags/${translatedTag.id}?i18n_language=fr`)).body.name).toBe(
      `${tag} Gratuit`,
    )
    expect((await ns(`/tags/${translatedTag.id}`)).body.name).toBe(`${tag} Free`)
  })

  it('searches and matches slugs in the request language', async () => {
    expect(names(await list('categories', { search: frWord, i18n_language: 'fr' }))).toEqual([
      `${tag} ${frWord}`,
    ])
    expectTotals(await list('categories', { search: frWord }), 0, 0)
    expect(names(await list('categories', { slug: `${frWord}-fr`, i18n_language: 'fr' }))).toEqual([
      `${tag} ${frWord}`,
    ])
  })

  it('serves /fr/api/cal/events/v1/categories with the /fr/ root in its URLs', async () => {
    const reply = await call(`/fr/api/cal/events/v1/categories?${qs({ include: translated.id })}`)
    expect(names(reply)).toEqual([`${tag} ${frWord}`])
    expect(reply.body.rest_url).toBe(`${FR_ROOT}/categories/`)
    expect(reply.body.categories[0].urls).toEqual({
      self: `${FR_ROOT}/categories/${translated.id}`,
      collection: `${FR_ROOT}/categories`,
    })
    expect(splitUrl(reply.body.rest_url).base).toBe(`${FR_ROOT}/categories/`)
    expect((await follow(reply.body.categories[0].urls.self)).body.name).toBe(`${tag} ${frWord}`)
  })

  it('refuses an unknown language with 400 rest_invalid_param', async () => {
    expectInvalidParam(await list('categories', { i18n_language: 'xx' }), 'i18n_language')
    expectInvalidParam(await ns(`/tags/${translatedTag.id}?i18n_language=xx`), 'i18n_language')
  })
})
