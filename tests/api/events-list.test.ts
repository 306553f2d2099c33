/**
 * `GET /api/cal/events/v1/events`: the default date window, pagination (parameters, totals, headers,
 * `rest_url` / `next_rest_url` / `previous_rest_url`), empty pages and pages past the end
 * (docs/api.md §4.1, §4.2, §4.5; docs/api.md §4.5).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { BASE_URL, call, NS, rawRequest, ROOT, unique } from '../support/api'
import { expectError, expectInvalidParam } from '../support/expectations'
import {
  changeSettings,
  createCategory,
  createEvent,
  createVenue,
  dayAt,
  follow,
  ns,
  qs,
  restoreSettings,
  splitUrl,
  titles,
  ymd,
} from '../support/fixtures'
import { links } from '../support/linkedFixtures'

const LIST = `${ROOT}/events/`

/** The default window's bounds as `rest_url` echoes them (site zone UTC). */
function defaultWindow() {
  return { start_date: `${ymd(-1)} 00:00:00`, end_date: `${ymd(0, 24)} 23:59:59` }
}

function monthsAhead(months: number): string {
  const now = new Date()
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, now.getUTCDate(), 12),
  ).toISOString()
}

describe('default date window', () => {
  it('lists events from the start of yesterday to 24 months ahead, and echoes the window in rest_url', async () => {
    const tag = unique('window')
    await createEvent({ title: `${tag} three days ago`, start: dayAt(-3, 12) })
    await createEvent({ title: `${tag} yesterday`, start: dayAt(-1, 12) })
    await createEvent({ title: `${tag} in 25 months`, start: monthsAhead(25) })
    await createEvent({ title: `${tag} in 23 months`, start: monthsAhead(23) })

    const reply = await ns(`/events?search=${tag}`)
    expect(reply.status).toBe(200)
    expect(titles(reply)).toEqual([`${tag} yesterday`, `${tag} in 23 months`])
    expect(reply.body.total).toBe(2)
    expect(reply.body.total_pages).toBe(1)
    expect(splitUrl(reply.body.rest_url)).toEqual({
      base: LIST,
      params: { page: '1', per_page: '10', ...defaultWindow(), search: tag, status: 'publish' },
    })
  })
})

describe('pagination', () => {
  const tag = unique('pages')
  const names = [1, 2, 3, 4, 5, 6, 7].map((n) => `${tag} ${String(n).padStart(2, '0')}`)

  const ids: number[] = []

  beforeAll(async () => {
    for (const [index, title] of names.entries())
      ids.push((await createEvent({ title, start: dayAt(2, index + 1) })).id)
  })

  it('answers page 1 of 3 with a next link only', async () => {
    const reply = await ns(`/events?${qs({ search: tag, per_page: 3 })}`)
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body)).toEqual([
      'events',
      'rest_url',
      'next_rest_url',
      'total',
      'total_pages',
    ])
    expect(titles(reply)).toEqual(names.slice(0, 3))
    expect(reply.body.total).toBe(7)
    expect(reply.body.total_pages).toBe(3)
    expect(reply.headers.get('X-Total')).toBe('7')
    expect(reply.headers.get('X-Total-Pages')).toBe('3')
    const common = { per_page: '3', ...defaultWindow(), search: tag, status: 'publish' }
    expect(splitUrl(reply.body.rest_url)).toEqual({ base: LIST, params: { page: '1', ...common } })
    expect(splitUrl(reply.body.next_rest_url)).toEqual({
      base: LIST,
      params: { page: '2', ...common },
    })
    expect(links(reply.headers.get('Link'))).toEqual({ next: reply.body.next_rest_url })
  })

  it('answers page 2 of 3 with next (page=3) and previous (page removed) links', async () => {
    const reply = await ns(`/events?${qs({ search: tag, per_page: 3, page: 2 })}`)
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body)).toEqual([
      'events',
      'rest_url',
      'next_rest_url',
      'previous_rest_url',
      'total',
      'total_pages',
    ])
    expect(titles(reply)).toEqual(names.slice(3, 6))
    const common = { per_page: '3', ...defaultWindow(), search: tag, status: 'publish' }
    expect(splitUrl(reply.body.rest_url)).toEqual({ base: LIST, params: { page: '2', ...common } })
    expect(splitUrl(reply.body.next_rest_url)).toEqual({
      base: LIST,
      params: { page: '3', ...common },
    })
    expect(splitUrl(reply.body.previous_rest_url)).toEqual({ base: LIST, params: common })
    expect(links(reply.headers.get('Link'))).toEqual({
      next: reply.body.next_rest_url,
      prev: reply.body.previous_rest_url,
    })
    expect(reply.body.total).toBe(7)
    expect(reply.body.total_pages).toBe(3)
  })

  it('answers the last page with a previous link (page=N-1) only', async () => {
    const reply = await ns(`/events?${qs({ search: tag, per_page: 3, page: 3 })}`)
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body)).toEqual([
      'events',
      'rest_url',
      'previous_rest_url',
      'total',
      'total_pages',
    ])
    expect(titles(reply)).toEqual(names.slice(6))
    expect(splitUrl(reply.body.previous_rest_url).params.page).toBe('2')
    expect(links(reply.headers.get('Link'))).toEqual({ prev: reply.body.previous_rest_url })
    expect(reply.headers.get('X-Total')).toBe('7')
    expect(reply.headers.get('X-Total-Pages')).toBe('3')
  })

  it('serves rest_url, next_rest_url and previous_rest_url as given (no redirect), with the same pages', async () => {
    const first = await ns(`/events?${qs({ search: tag, per_page: 3, page: 2 })}`)
    for (const [url, page] of [
      [first.body.rest_url, names.slice(3, 6)],
      [first.body.next_rest_url, names.slice(6)],
      [first.body.previous_rest_url, names.slice(0, 3)],
    ] as const) {
      expect(url.startsWith(BASE_URL)).toBe(true)
      const reply = await call(url.slice(BASE_URL.length))
      expect({ url, status: reply.status }).toEqual({ url, status: 200 })
      expect(titles(reply)).toEqual(page)
    }
  })

  it('takes the last value of a key repeated without brackets, as PHP does: rest_url + &page=N pages on', async () => {
    const first = await ns(`/events?${qs({ search: tag, per_page: 3 })}`)
    const second = await call(`${first.body.rest_url.slice(BASE_URL.length)}&page=2`)
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expect(titles(second)).toEqual(names.slice(3, 6))
    expect(splitUrl(second.body.rest_url).params.page).toBe('2')
    const resized = await ns(`/events?search=${tag}&per_page=5&per_page=2&page=1&page=3`)
    expect(resized.status, JSON.stringify(resized.body)).toBe(200)
    expect(titles(resized)).toEqual(names.slice(4, 6))
    expect(splitUrl(resized.body.rest_url).params).toMatchObject({ page: '3', per_page: '2' })
  })

  it('still reads a key repeated with brackets as a list', async () => {
    const listed = await ns(`/events?include[]=${ids[1]}&include[]=${ids[4]}`)
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect(titles(listed)).toEqual([names[1], names[4]])
  })

  it('ignores include ids of no event, as upstream (only ids that are not positive integers are a 400)', async () => {
    const some = await ns(`/events?include=${ids[2]},2000000000`)
    expect(some.status, JSON.stringify(some.body)).toBe(200)
    expect(titles(some)).toEqual([names[2]])
    const none = await ns('/events?include=2000000000')
    expect(none.status, JSON.stringify(none.body)).toBe(200)
    expect(none.body).toMatchObject({ events: [], total: 0, total_pages: 0 })
    for (const bad of ['0', '-3', 'x', `${ids[2]},1.5`])
      expectInvalidParam(await ns(`/events?include=${encodeURIComponent(bad)}`), 'include')
  })

  it('takes quotes, commas and a leading minus in a search as part of its words (not WordPress’s syntax)', async () => {
    for (const search of [`"${tag} 01"`, `${tag},01`, `${tag}+01`, `-${tag}`])
      expect({ search, total: (await ns(`/events?${qs({ search })}`)).body.total }).toEqual({
        search,
        total: 0,
      })
  })

  it('answers 404 event-archive-page-not-found past the last page', async () => {
    const reply = await ns(`/events?${qs({ search: tag, per_page: 3, page: 4 })}`)
    expectError(reply, 404, 'event-archive-page-not-found')
    expect(reply.body).toEqual({
      code: 'event-archive-page-not-found',
      message: 'The requested event archive page does not exist',
      data: { status: 404 },
    })
  })

  it('answers a page whose offset passes 2^31 with the same 404, after a write too', async () => {
    await createEvent({ title: unique('Far paged ') })
    for (const query of [
      { page: 2147483647 },
      { page: 214748366, start_date: '2020-01-01' },
      { page: 42949674, per_page: 50 },
    ]) {
      const reply = await ns(`/events?${qs(query)}`)
      expectError(reply, 404, 'event-archive-page-not-found')
    }
  })

  it('has no links when everything fits on one page', async () => {
    const reply = await ns(`/events?${qs({ search: tag, per_page: 7 })}`)
    expect(Object.keys(reply.body)).toEqual(['events', 'rest_url', 'total', 'total_pages'])
    expect(reply.body.events).toHaveLength(7)
    expect(reply.body.total_pages).toBe(1)
    expect(reply.headers.get('Link')).toBeNull()
  })

  it('clamps per_page to 50, visibly in rest_url', async () => {
    const reply = await ns(`/events?${qs({ search: tag, per_page: 100 })}`)
    expect(reply.status).toBe(200)
    expect(splitUrl(reply.body.rest_url).params.per_page).toBe('50')
    expect(reply.body.events).toHaveLength(7)
    expect(reply.body.total_pages).toBe(1)
  })

  it('takes the default page size from the settings (10 out of the box)', async () => {
    const bare = await ns(`/events?${qs({ search: tag })}`)
    expect(splitUrl(bare.body.rest_url).params.per_page).toBe('10')
    expect(splitUrl(bare.body.rest_url).params.page).toBe('1')
    expect(bare.body.events).toHaveLength(7)

    const previous = await changeSettings({ postsPerPage: 2 })
    try {
      const reply = await ns(`/events?${qs({ search: tag })}`)
      expect(reply.status).toBe(200)
      expect(titles(reply)).toEqual(names.slice(0, 2))
      expect(splitUrl(reply.body.rest_url).params.per_page).toBe('2')
      expect(reply.body.total_pages).toBe(4)
      expect(splitUrl(reply.body.next_rest_url).params).toMatchObject({ page: '2', per_page: '2' })
    } finally {
      await restoreSettings(previous)
    }
  })

  it('exposes the pagination headers to browsers', async () => {
    const reply = await ns(`/events?${qs({ search: tag, per_page: 3 })}`)
    const exposed = (reply.headers.get('Access-Control-Expose-Headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
    expect(exposed).toEqual(expect.arrayContaining(['x-total', 'x-total-pages', 'link']))
  })

  it.each(['0', '-1', 'foo', '1.5', ''])(
    'refuses per_page=%j with a 400 naming per_page',
    async (value) => {
      expectInvalidParam(
        await ns(`/events?search=${tag}&per_page=${encodeURIComponent(value)}`),
        'per_page',
      )
    },
  )

  it.each(['0', '-1', 'foo', '1.5', ''])(
    'refuses page=%j with a 400 naming page',
    async (value) => {
      expectInvalidParam(
        await ns(`/events?search=${tag}&page=${encodeURIComponent(value)}`),
        'page',
      )
    },
  )
})

describe('rest_url, next_rest_url and previous_rest_url as upstream writes them', () => {
  const tag = unique('argorder')
  let venue: number
  let category: string
  beforeAll(async () => {
    venue = (await createVenue({ name: unique('argvenue') })).id
    const filed = await createCategory({ name: unique('argcat') })
    category = filed.slug as string
    for (const hour of [1, 2, 3])
      await createEvent({ title: `${tag} ${hour}`, start: dayAt(3, hour), venue, featured: true })
    await createEvent({
      title: `${tag} categorized`,
      start: dayAt(3, 4),
      venue,
      featured: true,
      categories: [filed.id],
    })
  })

  it('put the arguments in upstream’s order: page first in rest_url, last in next and previous', async () => {
    const given = qs({ featured: 'true', venue, search: tag, per_page: 1, page: 2 })
    const args = `per_page=1&start_date=${ymd(-1)}%2000:00:00&end_date=${ymd(0, 24)}%2023:59:59&search=${tag}&status=publish&venue=${venue}&featured=1`
    const second = await ns(`/events?${given}`)
    expect(second.body.rest_url).toBe(`${LIST}?page=2&${args}`)
    expect(second.body.next_rest_url).toBe(`${LIST}?${args}&page=3`)
    expect(second.body.previous_rest_url).toBe(`${LIST}?${args}`)
    const third = await ns(
      `/events?${qs({ featured: 'true', venue, search: tag, per_page: 1, page: 3 })}`,
    )
    expect(third.body.previous_rest_url).toBe(`${LIST}?${args}&page=2`)
    expect(titles(await follow(second.body.next_rest_url))).toEqual(titles(third))
  })

  it('echo categories after search, relative bounds after status, and the language just before page', async () => {
    const reply = await ns(
      `/events?${qs({ i18n_language: 'fr', ends_after: ymd(1), starts_before: ymd(5), categories: category, search: tag, per_page: 1 })}`,
    )
    const args = `per_page=1&search=${tag}&categories=${category}&status=publish&starts_before=${ymd(5)}%2023:59:59&ends_after=${ymd(1)}%2023:59:59&i18n_language=fr`
    expect(reply.body.rest_url).toBe(`${LIST}?page=1&${args}`)
    expect(reply.body.total).toBe(1)
    const all = await ns(`/events?${qs({ i18n_language: 'fr', search: tag, per_page: 1 })}`)
    expect(all.body.next_rest_url).toBe(
      `${LIST}?per_page=1&start_date=${ymd(-1)}%2000:00:00&end_date=${ymd(0, 24)}%2023:59:59&search=${tag}&status=publish&i18n_language=fr&page=2`,
    )
  })

  it('keep strict_dates and context=edit in next and previous (not in rest_url, as upstream), so that the next page is of the same events', async () => {
    const given = {
      search: tag,
      strict_dates: 1,
      start_date: `${ymd(3)} 02:30:00`,
      per_page: 1,
      context: 'edit',
    }
    const first = await ns(`/events?${qs(given)}`)
    expect(titles(first)).toEqual([`${tag} 3`])
    expect(first.body.total).toBe(2)
    expect(splitUrl(first.body.rest_url).params).not.toHaveProperty('strict_dates')
    expect(splitUrl(first.body.rest_url).params).not.toHaveProperty('context')
    expect(splitUrl(first.body.next_rest_url).params).toMatchObject({
      strict_dates: '1',
      context: 'edit',
      start_date: `${ymd(3)} 02:30:00`,
      page: '2',
    })
    expect(links(first.headers.get('Link'))).toEqual({ next: first.body.next_rest_url })
    const second = await follow(first.body.next_rest_url)
    expect(titles(second)).toEqual([`${tag} categorized`])
    expect(second.body.total).toBe(2)
    expect(second.body).not.toHaveProperty('next_rest_url')
    expect(titles(await follow(second.body.previous_rest_url))).toEqual([`${tag} 3`])
  })

  it('keep percent-encoding where a URL needs it (upstream writes spaces raw)', async () => {
    const reply = await ns(
      `/events?${qs({ search: `${tag} 1`, strict_dates: 1, start_date: `${ymd(3)} 00:30:00` })}`,
    )
    expect(reply.body.rest_url).toBe(
      `${LIST}?page=1&per_page=10&start_date=${ymd(3)}%2000:30:00&end_date=${ymd(0, 24)}%2023:59:59&search=${tag}%201&status=publish`,
    )
    expect(() => new URL(reply.body.rest_url)).not.toThrow()
  })
})

describe('empty results', () => {
  it('answers page 1 of nothing with 200, an empty list and zero totals', async () => {
    const tag = unique('nothing')
    const reply = await ns(`/events?search=${tag}`)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      events: [],
      rest_url: expect.any(String),
      total: 0,
      total_pages: 0,
    })
    expect(Object.keys(reply.body)).toEqual(['events', 'rest_url', 'total', 'total_pages'])
    expect(reply.headers.get('X-Total')).toBe('0')
    expect(reply.headers.get('X-Total-Pages')).toBe('0')
    expect(reply.headers.get('Link')).toBeNull()
  })

  it('answers page 2 of nothing with 404 event-archive-page-not-found', async () => {
    const reply = await ns(`/events?search=${unique('nothing')}&page=2`)
    expectError(reply, 404, 'event-archive-page-not-found')
  })
})

describe('unknown routes under the namespace', () => {
  it('answers 404 rest_no_route for a non-numeric event id, an empty slug and an unknown path or method', async () => {
    expectError(await ns('/events/foo'), 404, 'rest_no_route')
    // Next may first redirect away the trailing slash; wherever it lands, there is no such route.
    const emptySlug = await fetch(`${ROOT}/events/by-slug/`)
    expect(emptySlug.status).toBe(404)
    expect(await emptySlug.json()).toEqual({
      code: 'rest_no_route',
      message: expect.any(String),
      data: { status: 404 },
    })
    expectError(await ns('/doesnotexist'), 404, 'rest_no_route')
    expectError(await call(`${NS}/doesnotexist`, { method: 'DELETE' }), 404, 'rest_no_route')
    expectError(await call(`${NS}/events`, { method: 'DELETE' }), 404, 'rest_no_route')
  })

  it('answers a method no route serves (TRACE, PROPFIND) in JSON without echoing the request: 404 rest_no_route under the namespace, else 405', async () => {
    const secret = unique('trace-me')
    const headers = { Cookie: `payload-token=${secret}`, 'X-Echo': secret }
    for (const path of [`${NS}/events`, `/fr${NS}/events/1`, NS]) {
      for (const method of ['TRACE', 'PROPFIND']) {
        const reply = await rawRequest(method, path, headers)
        expect({ method, path, status: reply.status }).toEqual({ method, path, status: 404 })
        expect(reply.headers['content-type']).toBe('application/json; charset=UTF-8')
        expect(JSON.parse(reply.text)).toEqual({
          code: 'rest_no_route',
          message: 'No route was found matching the URL and request method.',
          data: { status: 404 },
        })
      }
    }
    for (const path of ['/api/events', '/api/users/me', '/']) {
      for (const method of ['TRACE', 'PROPFIND']) {
        const reply = await rawRequest(method, path, headers)
        expect({ method, path, status: reply.status }).toEqual({ method, path, status: 405 })
        expect(reply.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS')
        expect(JSON.parse(reply.text)).toMatchObject({
          code: 'rest_method_not_allowed',
          data: { status: 405 },
        })
        expect(reply.text).not.toContain(secret)
      }
    }
    // The connection still serves what follows.
    expect((await ns('/events?per_page=1')).status).toBe(200)
  })
})
