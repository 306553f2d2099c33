/**
 * The event list answers in a fixed number of database queries whatever the page size: embedding
 * venues, organizers and terms must not cost a query per event (the test server reports
 * `X-Query-Count`).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { unique } from '../support/api'
import { createCategory, createEvent, createOrganizer, createTag, createVenue, ns, qs } from '../support/fixtures'

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
      venues.push((await createVenue({ name: unique('qvenue'), city: 'Nantes', geoLat: 47.2 + i / 100, geoLng: -1.55 })).id)
      organizers.push((await createOrganizer({ name: unique('qorg'), email: `q${i}@example.test` })).id)
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

  it('reports the same X-Query-Count for per_page=1 and per_page=50', async () => {
    const one = await ns(`/events?${qs({ search: tag, ...window, per_page: 1 })}`)
    const fifty = await ns(`/events?${qs({ search: tag, ...window, per_page: 50 })}`)
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
    }
    const count = (reply: typeof one) => reply.headers.get('X-Query-Count')
    expect(count(one)).toMatch(/^\d+$/)
    expect(count(fifty)).toBe(count(one))
  })

  it('reports the same X-Query-Count in another language', async () => {
    const one = await ns(`/events?${qs({ search: tag, ...window, per_page: 1, i18n_language: 'fr' })}`)
    const fifty = await ns(`/events?${qs({ search: tag, ...window, per_page: 50, i18n_language: 'fr' })}`)
    expect(fifty.body.events).toHaveLength(50)
    expect(one.headers.get('X-Query-Count')).toMatch(/^\d+$/)
    expect(fifty.headers.get('X-Query-Count')).toBe(one.headers.get('X-Query-Count'))
  })
})
