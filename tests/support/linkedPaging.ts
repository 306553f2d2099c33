/**
 * The paging of `GET /venues` and `GET /organizers` (docs/api.md §4.4, §11): the same wrapper, order,
 * links, totals, 404 past the last page and clamp of per_page for both, asserted by one describe per kind.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT, type Reply, unique } from './api'
import { expectError, expectInvalidParam } from './expectations'
import { createOrganizer, createVenue, follow, splitUrl } from './fixtures'
import { expectTotals, inBatches, links } from './linkedFixtures'

type Lister = {
  key: 'venues' | 'organizers'
  list: (params: Record<string, string | number | boolean | undefined>) => Promise<Reply>
  /** The names on a page, after asserting it is a 200. */
  names: (reply: Reply) => string[]
}

/** Names of the paging describe's four published items, newest first: bravo, delta, charlie, alpha. */
export type PagingFixture = {
  tag: string
  alpha: string
  bravo: string
  charlie: string
  delta: string
}

/** `also`: a kind's own tests of the same four items, in the same describe. */
export function describeLinkedPaging(
  { key, list, names }: Lister,
  also?: (fixture: PagingFixture) => void,
): void {
  const singular = key === 'venues' ? 'venue' : 'organizer'
  const create = key === 'venues' ? createVenue : createOrganizer
  const LIST = `${ROOT}/${key}/`

  describe(`GET /${key}: wrapper, order, pagination`, () => {
    const tag = unique(`${key[0]}list`)
    const fixture = {
      tag,
      alpha: `${tag} Alpha`,
      bravo: `${tag} Bravo`,
      charlie: `${tag} Charlie`,
      delta: `${tag} Delta`,
    }
    const { alpha, bravo, charlie, delta } = fixture

    beforeAll(async () => {
      // Publication dates out of creation order; Charlie and Delta share one, so the id breaks the tie.
      await create({ name: alpha, publishedAt: '2021-01-01T10:00:00.000Z' })
      await create({ name: bravo, publishedAt: '2021-01-03T10:00:00.000Z' })
      await create({ name: charlie, publishedAt: '2021-01-02T10:00:00.000Z' })
      await create({ name: delta, publishedAt: '2021-01-02T10:00:00.000Z' })
      await create({
        name: `${tag} Echo draft`,
        status: 'draft',
        publishedAt: '2021-01-04T10:00:00.000Z',
      })
    })

    it(`wraps the page in \`${key}\`, newest first (date desc, then id desc), with rest_url, totals and headers`, async () => {
      const reply = await list({ search: tag })
      expect(names(reply)).toEqual([bravo, delta, charlie, alpha])
      expect(Object.keys(reply.body)).toEqual([key, 'rest_url', 'total', 'total_pages'])
      expect(splitUrl(reply.body.rest_url)).toEqual({
        base: LIST,
        params: { page: '1', per_page: '10', search: tag, status: 'publish' },
      })
      expectTotals(reply, 4, 1)
      expect(reply.headers.get('Link')).toBeNull()
      for (const item of reply.body[key]) expect(item).not.toHaveProperty('json_ld')
    })

    it('answers page 1 of 2 with next_rest_url and a rel="next" Link', async () => {
      const reply = await list({ search: tag, per_page: 2 })
      expect(names(reply)).toEqual([bravo, delta])
      expect(Object.keys(reply.body)).toEqual([
        key,
        'rest_url',
        'next_rest_url',
        'total',
        'total_pages',
      ])
      const common = { per_page: '2', search: tag, status: 'publish' }
      expect(splitUrl(reply.body.rest_url)).toEqual({
        base: LIST,
        params: { page: '1', ...common },
      })
      expect(splitUrl(reply.body.next_rest_url)).toEqual({
        base: LIST,
        params: { page: '2', ...common },
      })
      expectTotals(reply, 4, 2)
      expect(links(reply.headers.get('Link'))).toEqual({ next: reply.body.next_rest_url })
    })

    it('answers the last page with previous_rest_url (page removed for page 1) and a rel="prev" Link', async () => {
      const reply = await list({ search: tag, per_page: 2, page: 2 })
      expect(names(reply)).toEqual([charlie, alpha])
      expect(Object.keys(reply.body)).toEqual([
        key,
        'rest_url',
        'previous_rest_url',
        'total',
        'total_pages',
      ])
      const common = { per_page: '2', search: tag, status: 'publish' }
      expect(splitUrl(reply.body.rest_url)).toEqual({
        base: LIST,
        params: { page: '2', ...common },
      })
      expect(splitUrl(reply.body.previous_rest_url)).toEqual({ base: LIST, params: common })
      expectTotals(reply, 4, 2)
      expect(links(reply.headers.get('Link'))).toEqual({ prev: reply.body.previous_rest_url })
    })

    it('answers a middle page with both links, previous pointing at page N-1', async () => {
      const reply = await list({ search: tag, per_page: 1, page: 3 })
      expect(names(reply)).toEqual([charlie])
      expect(Object.keys(reply.body)).toEqual([
        key,
        'rest_url',
        'next_rest_url',
        'previous_rest_url',
        'total',
        'total_pages',
      ])
      const common = { per_page: '1', search: tag, status: 'publish' }
      expect(splitUrl(reply.body.next_rest_url)).toEqual({
        base: LIST,
        params: { page: '4', ...common },
      })
      expect(splitUrl(reply.body.previous_rest_url)).toEqual({
        base: LIST,
        params: { page: '2', ...common },
      })
      expectTotals(reply, 4, 4)
      expect(links(reply.headers.get('Link'))).toEqual({
        next: reply.body.next_rest_url,
        prev: reply.body.previous_rest_url,
      })
      expect(names(await follow(reply.body.next_rest_url))).toEqual([alpha])
      expect(names(await follow(reply.body.previous_rest_url))).toEqual([delta])
    })

    also?.(fixture)

    it(`answers 404 ${singular}-archive-page-not-found past the last page`, async () => {
      const reply = await list({ search: tag, per_page: 2, page: 3 })
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 404,
        body: {
          code: `${singular}-archive-page-not-found`,
          message: `The requested ${singular} archive page does not exist`,
          data: { status: 404 },
        },
      })
      expectError(
        await list({ search: unique('nothing'), page: 2 }),
        404,
        `${singular}-archive-page-not-found`,
      )
    })

    it('answers an empty page 1 with 200, no links and zero totals', async () => {
      const reply = await list({ search: unique('nothing') })
      expect(names(reply)).toEqual([])
      expect(Object.keys(reply.body)).toEqual([key, 'rest_url', 'total', 'total_pages'])
      expectTotals(reply, 0, 0)
      expect(reply.headers.get('Link')).toBeNull()
    })

    it('refuses page and per_page that are not positive integers with 400 rest_invalid_param', async () => {
      for (const page of ['0', '-1', 'abc', '1.5', ''])
        expectInvalidParam(await list({ search: tag, page }), 'page')
      for (const perPage of ['0', '-5', 'ten', '2.5', ''])
        expectInvalidParam(await list({ search: tag, per_page: perPage }), 'per_page')
    })
  })

  describe(`GET /${key}: per_page is clamped to 50`, () => {
    const tag = unique(`${key[0]}clamp`)

    beforeAll(async () => {
      await inBatches(51, 10, (n) => create({ name: `${tag} ${String(n).padStart(2, '0')}` }))
    })

    it(`answers 50 ${key} for per_page=100, echoing per_page=50`, async () => {
      const reply = await list({ search: tag, per_page: 100 })
      expect(reply.body[key]).toHaveLength(50)
      expectTotals(reply, 51, 2)
      expect(splitUrl(reply.body.rest_url).params.per_page).toBe('50')
      expect(splitUrl(reply.body.next_rest_url)).toEqual({
        base: LIST,
        params: { page: '2', per_page: '50', search: tag, status: 'publish' },
      })
      const second = await follow(reply.body.next_rest_url)
      expect(second.body[key]).toHaveLength(1)
      const all = [...names(reply), ...names(second)].sort()
      expect(all).toEqual(
        Array.from({ length: 51 }, (_, n) => `${tag} ${String(n).padStart(2, '0')}`),
      )
    })
  })
}
