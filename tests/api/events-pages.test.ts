/**
 * Pages of filtered event lists: every page of a filter, asked one after the other as a
 * website pages through them, holds the events the whole list holds at that place, with the same
 * totals; a page past the last is the upstream 404. The first page of a filter counts its matches;
 * later pages know the total (kept per content revision), read few matches from the matches
 * themselves, a page past the known total costs no query at all, and a page asked again in another
 * language reads only its body (`X-Query-Count`).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { call, NS, unique } from '../support/api'
import { createCategory, createEvent, createTag, dayAt, titles } from '../support/fixtures'

const EVENTS = 13
const PER_PAGE = 5
const queries = (reply: { headers: Headers }) => Number(reply.headers.get('X-Query-Count'))

describe('pages of filtered event lists', () => {
  const fixture = { category: 0, tag: 0, otherTag: 0, prefix: unique('paged') }

  beforeAll(async () => {
    const [category, tag, otherTag] = await Promise.all([
      createCategory({ name: unique('pcat') }),
      createTag({ name: unique('ptag') }),
      createTag({ name: unique('pother') }),
    ])
    Object.assign(fixture, { category: category.id, tag: tag.id, otherTag: otherTag.id })
    // Hours apart, in an order unlike their ids, so that a page read out of order would show.
    for (let i = 0; i < EVENTS; i++) {
      await createEvent({
        title: `${fixture.prefix} ${String(i).padStart(2, '0')}`,
        start: dayAt(30, (i * 7) % 24, i),
        categories: [category.id],
        tags: i % 2 ? [tag.id] : [tag.id, otherTag.id],
      })
    }
  }, 120_000)

  for (const [name, filters] of [
    ['a category', () => `categories=${fixture.category}`],
    ['a category and a tag', () => `categories=${fixture.category}&tags=${fixture.otherTag}`],
    [
      "a search (Payload's adapter: not stated as SQL)",
      () => `search=${encodeURIComponent(fixture.prefix)}`,
    ],
  ] as const) {
    it(`pages through ${name} as the whole list orders it`, async () => {
      const base = `${NS}/events?${filters()}&start_date=${dayAt(29).slice(0, 10)}&end_date=${dayAt(32).slice(0, 10)}`
      const whole = await call(`${base}&per_page=50`)
      expect(whole.status).toBe(200)
      const all = titles(whole).filter((title) => title.startsWith(fixture.prefix))
      expect(all.length).toBeGreaterThan(PER_PAGE)
      const pages = Math.ceil(all.length / PER_PAGE)
      const seen: string[] = []
      for (let page = 1; page <= pages; page++) {
        const reply = await call(`${base}&per_page=${PER_PAGE}&page=${page}`)
        expect(reply.status).toBe(200)
        expect(reply.body.total).toBe(all.length)
        expect(reply.body.total_pages).toBe(pages)
        seen.push(...titles(reply))
      }
      expect(seen).toEqual(all)
      const past = await call(`${base}&per_page=${PER_PAGE}&page=${pages + 1}`)
      expect(past.status).toBe(404)
      expect(past.body.code).toBe('event-archive-page-not-found')
      if (!name.startsWith('a search')) expect(queries(past), 'a page past the known total').toBe(0)
      // The same page in another language: the same events, and, stated as SQL, only the page's body read.
      const french = await call(`${base}&per_page=${PER_PAGE}&page=2&i18n_language=fr`)
      expect(french.status).toBe(200)
      expect(french.body.events.map((event: { id: number }) => event.id)).toEqual(
        (await call(`${base}&per_page=${PER_PAGE}&page=2`)).body.events.map(
          (event: { id: number }) => event.id,
        ),
      )
      if (!name.startsWith('a search'))
        expect(queries(french), "a page's ids known in another language").toBe(1)
    })
  }
})
