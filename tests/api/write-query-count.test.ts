/**
 * A write that names its item by slug costs one slug lookup more than by id, not one per step
 * (validation, the permission check and the write each need the id). A lookup is Payload's find:
 * at most two queries. The test server reports `X-Query-Count`.
 */
import { describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique } from '../support/api'
import { createEvent, createVenue } from '../support/fixtures'

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
