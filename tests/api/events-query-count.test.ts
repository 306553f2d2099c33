/**
 * The event list answers in a fixed number of database queries whatever the page size: embedding
 * venues, organizers and terms must not cost a query per event (the test server reports
 * `X-Query-Count`).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, unique } from '../support/api'
import {
  createCategory,
  createEvent,
  createOrganizer,
  createTag,
  createVenue,
  ns,
  qs,
} from '../support/fixtures'

const EVENTS = 52

describe('query count of GET /events', () => {
  const tag = unique('count')
  const window = { start_date: '2031-09-01', end_date: '2031-09-30' }

  beforeAll(async () => {
    const venues = [] as number[]
    const organizers = [] as number[]
    const categories = [] as number[]
    const tags = [] as number[]
    for (let i = 0; i < 4; i++) {
      venues.push(
        (
          await createVenue({
            name: unique('qvenue'),
            city: 'Nantes',
            geoLat: 47.2 + i / 100,
            geoLng: -1.55,
          })
        ).id,
      )
      organizers.push(
        (await createOrganizer({ name: unique('qorg'), email: `q${i}@example.test` })).id,
      )
      categories.push((await createCategory({ name: unique('qcat') })).id)
      tags.push((await createTag({ name: unique('qtag') })).id)
    }
    for (let i = 0; i < EVENTS; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0')
      await createEvent({
        title: `${tag} ${i}`,
        start: `2031-09-${day}T${String(8 + (i % 10)).padStart(2, '0')}:00:00.000Z`,
        venue: venues[i % 4],
        organizers: [organizers[i % 4], organizers[(i + 1) % 4]],
        categories: [categories[i % 4], categories[(i + 2) % 4]],
        tags: [tags[i % 4], tags[(i + 3) % 4]],
        cost: [String(i), '100'],
      })
    }
  }, 300_000)

  const count = (reply: { headers: Headers }) => Number(reply.headers.get('X-Query-Count'))
  // Each list a URL of its own (`_`, as jQuery's cache buster): what is counted is a page made, not one kept (answer-cache.test.ts).
  let made = 0
  const list = (perPage: number, extra: Record<string, unknown> = {}) =>
    ns(`/events?${qs({ search: tag, ...window, per_page: perPage, ...extra, _: ++made })}`)
  /** Any write moves the content's revision, after which totals and term counts are counted again. */
  const write = () => createTag({ name: unique('qwrite') })

  it('costs the same queries for per_page=1 and per_page=50, at most 3 once counted', async () => {
    await list(1)
    await list(50)
    const one = await list(1)
    const fifty = await list(50)
    expect(one.status).toBe(200)
    expect(fifty.status).toBe(200)
    expect(one.body.total).toBe(EVENTS)
    expect(one.body.events).toHaveLength(1)
    expect(fifty.body.events).toHaveLength(50)
    // Every event really embeds its relations.
    for (const event of fifty.body.events) {
      expect(event.venue.venue).toEqual(expect.any(String))
      expect(event.organizer).toHaveLength(2)
      expect(event.categories).toHaveLength(2)
      expect(event.tags).toHaveLength(2)
      for (const term of [...event.categories, ...event.tags]) expect(term.count).toBeGreaterThan(0)
    }
    expect(count(one)).toBeGreaterThan(0)
    expect(count(fifty)).toBe(count(one))
    // The page's ids (a search: distinct ids, then the rows), the page with its embeds; the revision is pushed to the instance.
    expect(count(fifty)).toBeLessThanOrEqual(3)
  })

  it('costs the same for per_page=1 and per_page=50 right after a write, when the total and term counts are counted again', async () => {
    await write()
    const one = await list(1)
    await write()
    const fifty = await list(50)
    expect(fifty.body.events).toHaveLength(50)
    expect(count(fifty)).toBe(count(one))
    expect(count(fifty)).toBeGreaterThan(count(await list(50)))
  })

  it('serves totals and term counts of the current content: a write shows in the next list', async () => {
    const before = await list(50)
    const category = before.body.events[0].categories[0]
    const added = await createEvent({
      title: `${tag} added`,
      start: '2031-09-15T09:00:00.000Z',
      categories: [category.id],
    })
    const after = await list(50)
    expect(after.body.total).toBe(before.body.total + 1)
    const counted = after.body.events
      .flatMap((event: { categories: { id: number; count: number }[] }) => event.categories)
      .find((term: { id: number }) => term.id === category.id)
    expect(counted.count).toBe(category.count + 1)
    const trashed = await call(`/api/events/${added.id}`, {
      method: 'PATCH',
      token: await asAdmin(),
      json: { status: 'trash' },
    })
    expect(trashed.status).toBe(200)
    expect((await list(50)).body.total).toBe(before.body.total)
  })

  it('costs the same in another language', async () => {
    const french = { i18n_language: 'fr' }
    await list(1, french)
    await list(50, french)
    const one = await list(1, french)
    const fifty = await list(50, french)
    expect(fifty.body.events).toHaveLength(50)
    expect(count(one)).toBeGreaterThan(0)
    expect(count(fifty)).toBe(count(one))
    expect(count(fifty)).toBeLessThanOrEqual(3)
  })
})
