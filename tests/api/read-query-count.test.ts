/**
 * Every read path of the namespace answers in at most three database queries once warm,
 * whatever `per_page`, for anonymous and signed-in readers alike (the test server reports
 * `X-Query-Count`). Each request is a URL of its own (`_`, as jQuery's cache buster), so the count is
 * that of an answer made, never one the anonymous answer cache kept (answer-cache.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  BASE_URL,
  call,
  NS,
  unique,
  uploadImage,
  userWithRole,
  type Reply,
  type TestUser,
} from '../support/api'
import {
  createCategory,
  createEvent,
  createOrganizer,
  createTag,
  createVenue,
  translateEvent,
} from '../support/fixtures'
import { testDatabase } from '../support/database'

const EVENTS = 24
/** A month a few months ahead: inside the default window (up to 24 months ahead) whenever the test runs. */
const MONTH = (() => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 4, 1))
    .toISOString()
    .slice(0, 7)
})()
const MOST = 3

type Fixture = {
  venue: number
  venueSlug: string
  organizer: number
  organizerSlug: string
  category: number
  childCategory: number
  childSlug: string
  tag: number
  event: number
  eventSlug: string
  protectedEvent: number
  search: string
}

/**
 * A read path: its URL for a page size (lists) or alone (single reads), whether it lists, and the
 * most queries it may take if fewer than `MOST`.
 */
type ReadPath = {
  name: string
  url: (fixture: Fixture, perPage: number) => string
  list: boolean
  most?: number
}

/**
 * Event lists whose filters are stated as SQL: one query where the page's ids are found (with the
 * total the first time), which reads its body too; where its ids are kept, the body's prepared
 * statement alone (docs/performance.md, "Prepared page bodies"). Two at most either way.
 */
const STATED = 2

const PATHS: ReadPath[] = [
  {
    name: 'events',
    list: true,
    most: STATED,
    url: (_, n) => `${NS}/events?per_page=${n}&start_date=${MONTH}-01&end_date=${MONTH}-28`,
  },
  {
    name: 'events, default window',
    list: true,
    most: STATED,
    url: (_, n) => `${NS}/events?per_page=${n}`,
  },
  {
    name: 'events by category id',
    list: true,
    most: STATED,
    url: (f, n) =>
      `${NS}/events?per_page=${n}&categories=${f.category}&start_date=${MONTH}-01&end_date=${MONTH}-28`,
  },
  {
    name: 'events by child category slug',
    list: true,
    most: STATED,
    url: (f, n) =>
      `${NS}/events?per_page=${n}&categories=${f.childSlug}&start_date=${MONTH}-01&end_date=${MONTH}-28`,
  },
  {
    name: 'events by tag',
    list: true,
    most: STATED,
    url: (f, n) =>
      `${NS}/events?per_page=${n}&tags=${f.tag}&start_date=${MONTH}-01&end_date=${MONTH}-28`,
  },
  {
    name: 'events by venue',
    list: true,
    most: STATED,
    url: (f, n) =>
      `${NS}/events?per_page=${n}&venue=${f.venue}&start_date=${MONTH}-01&end_date=${MONTH}-28`,
  },
  {
    name: 'events by organizer',
    list: true,
    most: STATED,
    url: (f, n) =>
      `${NS}/events?per_page=${n}&organizer=${f.organizer}&start_date=${MONTH}-01&end_date=${MONTH}-28`,
  },
  {
    name: 'events by window, category and tag',
    list: true,
    most: STATED,
    url: (f, n) =>
      `${NS}/events?per_page=${n}&start_date=${MONTH}-01&end_date=${MONTH}-20&categories=${f.category}&tags=${f.tag}`,
  },
  {
    name: 'events by search',
    list: true,
    url: (f, n) =>
      `${NS}/events?per_page=${n}&search=${f.search}&start_date=${MONTH}-01&end_date=${MONTH}-28`,
  },
  {
    name: 'events in French by parameter',
    list: true,
    most: STATED,
    url: (_, n) =>
      `${NS}/events?per_page=${n}&start_date=${MONTH}-01&end_date=${MONTH}-28&i18n_language=fr`,
  },
  {
    name: 'events on the French root',
    list: true,
    most: STATED,
    url: (_, n) => `/fr${NS}/events?per_page=${n}&start_date=${MONTH}-01&end_date=${MONTH}-28`,
  },
  { name: 'event by id', list: false, url: (f) => `${NS}/events/${f.event}` },
  {
    name: 'protected event by id',
    list: false,
    url: (f) => `${NS}/events/${f.protectedEvent}?password=secret`,
  },
  { name: 'event by slug', list: false, url: (f) => `${NS}/events/by-slug/${f.eventSlug}` },
  {
    name: 'event by slug on the French root',
    list: false,
    url: (f) => `/fr${NS}/events/by-slug/${f.eventSlug}`,
  },
  { name: 'venues', list: true, url: (_, n) => `${NS}/venues?per_page=${n}` },
  { name: 'venue by id', list: false, url: (f) => `${NS}/venues/${f.venue}` },
  { name: 'venue by slug', list: false, url: (f) => `${NS}/venues/by-slug/${f.venueSlug}` },
  { name: 'organizers', list: true, url: (_, n) => `${NS}/organizers?per_page=${n}` },
  { name: 'organizer by id', list: false, url: (f) => `${NS}/organizers/${f.organizer}` },
  {
    name: 'organizer by slug',
    list: false,
    url: (f) => `${NS}/organizers/by-slug/${f.organizerSlug}`,
  },
  { name: 'categories', list: true, url: (_, n) => `${NS}/categories?per_page=${n}` },
  { name: 'child category by id', list: false, url: (f) => `${NS}/categories/${f.childCategory}` },
  { name: 'tags', list: true, url: (_, n) => `${NS}/tags?per_page=${n}` },
  { name: 'tag by id', list: false, url: (f) => `${NS}/tags/${f.tag}` },
]

describe('query count of every read path', () => {
  const db = testDatabase()
  const revision = async () =>
    String((await db.query('select value from calendar_revision where id = 1')).rows[0].value)
  const tag = unique('reads').replace(/-/g, '')
  const fixture = {} as Fixture
  const callers: Record<'anonymous' | 'editor' | 'author', TestUser | undefined> = {
    anonymous: undefined,
    editor: undefined,
    author: undefined,
  }

  beforeAll(async () => {
    const image = await uploadImage(`${tag}-photo`)
    const [editor, author] = await Promise.all([userWithRole('editor'), userWithRole('author')])
    Object.assign(callers, { editor, author })
    const venues: number[] = []
    const organizers: number[] = []
    const categories: number[] = []
    const tags: number[] = []
    for (let i = 0; i < 3; i++) {
      const venue = await createVenue({
        name: unique('rvenue'),
        city: 'Lyon',
        image: i === 0 ? image.id : undefined,
      })
      const organizer = await createOrganizer({
        name: unique('rorg'),
        email: `r${i}@example.test`,
        image: i === 0 ? image.id : undefined,
      })
      venues.push(venue.id)
      organizers.push(organizer.id)
      if (i === 0) Object.assign(fixture, { venueSlug: venue.slug, organizerSlug: organizer.slug })
      tags.push((await createTag({ name: unique('rtag') })).id)
    }
    // A draft venue of the author's own: who may read it differs by caller.
    await call('/api/venues', {
      method: 'POST',
      token: author.token,
      json: { name: unique('rdraft'), status: 'draft' },
    })
    const parent = await createCategory({ name: unique('rcat') })
    const child = await createCategory({ name: unique('rchild'), parent: parent.id })
    categories.push(parent.id, child.id)
    let first: { id: number; slug: unknown } | undefined
    for (let i = 0; i < EVENTS; i++) {
      const event = await createEvent({
        title: `${tag} ${i}`,
        start: `${MONTH}-${String(1 + (i % 28)).padStart(2, '0')}T${String(8 + (i % 10)).padStart(2, '0')}:00:00.000Z`,
        venue: venues[i % 3],
        organizers: [organizers[i % 3], organizers[(i + 1) % 3]],
        categories: [categories[i % 2]],
        tags: [tags[i % 3], tags[(i + 1) % 3]],
        image: i % 4 === 0 ? image.id : undefined,
        cost: [String(i)],
        ...(i === 5 ? { password: 'secret' } : {}),
      })
      if (i === 0) first = event as typeof first
      if (i === 5) fixture.protectedEvent = event.id
    }
    await translateEvent(first!.id, 'fr', { title: `${tag} fr` })
    const childDoc = await call(`/api/event-categories/${child.id}`)
    Object.assign(fixture, {
      venue: venues[0],
      organizer: organizers[0],
      category: parent.id,
      childCategory: child.id,
      childSlug: childDoc.body.slug,
      tag: tags[0],
      event: first!.id,
      eventSlug: first!.slug,
      search: tag,
    })
  }, 300_000)

  const count = (reply: Reply) => Number(reply.headers.get('X-Query-Count'))
  let made = 0
  const read = (url: string, caller: TestUser | undefined) =>
    call(`${url}${url.includes('?') ? '&' : '?'}_=${++made}`, { token: caller?.token })

  for (const callerName of ['anonymous', 'editor', 'author'] as const) {
    describe(`as ${callerName}`, () => {
      for (const path of PATHS) {
        const most = path.most ?? MOST
        it(`${path.name}: at most ${most} queries${path.list ? ' at per_page 1 and 50' : ''}`, async () => {
          const caller = callers[callerName]
          const counts: number[] = []
          for (const perPage of path.list ? [1, 50] : [0]) {
            const url = path.url(fixture, perPage)
            // Once warm: values kept per content revision (totals, term lookups) are known by then,
            // unless a write (another file's job, a delivery) moved the revision in between: warm again.
            let reply: Reply | undefined
            for (let tries = 0; !reply && tries < 5; tries++) {
              const before = await revision()
              const warm = await read(url, caller)
              expect(warm.status, `${url}: ${JSON.stringify(warm.body)}`).toBe(200)
              const measured = await read(url, caller)
              if ((await revision()) === before) reply = measured
            }
            if (!reply) throw new Error(`${url}: the revision moved in each of 5 tries`)
            expect(reply.status).toBe(200)
            if (path.list) {
              const items = Object.values(reply.body as Record<string, unknown>).find(
                Array.isArray,
              ) as unknown[]
              expect(items.length).toBeGreaterThan(0)
              if (perPage === 1) expect(items).toHaveLength(1)
            }
            expect(count(reply), `${BASE_URL}${url}`).toBeGreaterThan(0)
            counts.push(count(reply))
          }
          expect(
            Math.max(...counts),
            `${path.name} as ${callerName}: ${counts.join(', ')} queries`,
          ).toBeLessThanOrEqual(most)
        })
      }
    })
  }

  it('reads a page of a list not read before in one query, its ids and its body together', async () => {
    const list = `${NS}/events?start_date=${MONTH}-01&end_date=${MONTH}-28`
    let counts: number[] = []
    for (let tries = 0; tries < 5; tries++) {
      const before = await revision()
      // A page of 50 counts the list and keeps what its events embed (term counts, images); pages of
      // one, not read before, are each found and read by one statement.
      expect((await read(`${list}&per_page=50`, undefined)).status).toBe(200)
      const pages = [
        await read(`${list}&per_page=1&page=2`, undefined),
        await read(`${list}&per_page=1&page=3`, undefined),
      ]
      for (const page of pages) expect(page.status, JSON.stringify(page.body)).toBe(200)
      counts = pages.map(count)
      if ((await revision()) === before) break
    }
    expect(counts).toEqual([1, 1])
  })
})
