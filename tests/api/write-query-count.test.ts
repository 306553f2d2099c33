/**
 * A write that names its item by slug costs one slug lookup more than by id, not one per step
 * (validation, the permission check and the write each need the id). A lookup is Payload's find:
 * at most two queries. An event's answer reads what it embeds in one statement, as the single read
 * does. The test server reports `X-Query-Count` (the statements outside the write's transaction).
 */
import { describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique } from '../support/api'
import { createEvent, createOrganizer, createVenue } from '../support/fixtures'

const count = (reply: { headers: Headers }) => Number(reply.headers.get('X-Query-Count'))

describe('query count of writes by slug', () => {
  it.each([
    ['events', (title: string) => createEvent({ title }), { excerpt: 'changed' }],
    ['venues', (name: string) => createVenue({ name }), { city: 'Lyon' }],
  ] as const)(
    'PATCH /%s/by-slug/{slug} costs one slug lookup more than by id',
    async (route, create, change) => {
      const token = await asAdmin()
      const byId = await create(unique(`qc ${route} id`))
      const bySlug = await create(unique(`qc ${route} slug`))
      const viaId = await call(`${NS}/${route}/${byId.id}`, {
        method: 'PATCH',
        token,
        json: change,
      })
      const viaSlug = await call(`${NS}/${route}/by-slug/${bySlug.slug}`, {
        method: 'PATCH',
        token,
        json: change,
      })
      expect(viaId.status, JSON.stringify(viaId.body)).toBe(200)
      expect(viaSlug.status, JSON.stringify(viaSlug.body)).toBe(200)
      expect(viaSlug.body.id).toBe(bySlug.id)
      expect(count(viaId)).toBeGreaterThan(0)
      expect(count(viaSlug) - count(viaId)).toBeGreaterThan(0)
      expect(count(viaSlug) - count(viaId)).toBeLessThanOrEqual(2)
    },
  )
})

describe('query count of an event write’s answer', () => {
  it('reads the venue, organizers, categories and tags it embeds in one statement, not one per kind', async () => {
    const token = await asAdmin()
    const venue = await createVenue({ name: unique('qc answer venue') })
    const organizers = [
      (await createOrganizer({ name: unique('qc answer organizer') })).id,
      (await createOrganizer({ name: unique('qc answer organizer') })).id,
    ]
    const dates = { start_date: '2031-05-06 18:00:00', end_date: '2031-05-06 20:00:00' }
    const bare = await call(`${NS}/events`, {
      method: 'POST',
      token,
      json: { title: unique('qc answer bare'), ...dates },
    })
    const linked = await call(`${NS}/events`, {
      method: 'POST',
      token,
      json: {
        title: unique('qc answer linked'),
        ...dates,
        venue: venue.id,
        organizer: organizers,
        categories: [unique('qc answer category')],
        tags: [unique('qc answer tag')],
      },
    })
    expect(bare.status, JSON.stringify(bare.body)).toBe(201)
    expect(linked.status, JSON.stringify(linked.body)).toBe(201)
    expect(linked.body.venue.id).toBe(venue.id)
    expect(linked.body.organizer.map((organizer: { id: number }) => organizer.id)).toEqual(
      organizers,
    )
    expect(linked.body.categories).toHaveLength(1)
    expect(linked.body.tags).toHaveLength(1)
    // Validation's checks of the venue and the organizers, and the terms' counts: nothing per kind embedded.
    expect(count(linked) - count(bare)).toBeLessThanOrEqual(3)
    const retitled = await call(`${NS}/events/${linked.body.id}`, {
      method: 'PATCH',
      token,
      json: { title: unique('qc answer retitled') },
    })
    const retitledBare = await call(`${NS}/events/${bare.body.id}`, {
      method: 'PATCH',
      token,
      json: { title: unique('qc answer retitled') },
    })
    expect(retitled.status, JSON.stringify(retitled.body)).toBe(200)
    expect(retitledBare.status, JSON.stringify(retitledBare.body)).toBe(200)
    expect(retitled.body.venue.id).toBe(venue.id)
    expect(count(retitled) - count(retitledBare)).toBeLessThanOrEqual(1)
  })
})
