/**
 * The page query serves a caller only when it can state the caller's read access as SQL
 * (`whereSql`), and a list's own filters take the hand-written ids and total only when they can be
 * stated too; any other rule or filter must go to Payload (undefined).
 */
import type { PayloadRequest, Where } from 'payload'
import { describe, expect, it } from 'vitest'
import { authoredContentAccess } from '../../src/calendar/access/collectionAccess'
import { EVENT_FIELDS, whereSql } from '../../src/database/events/whereSql'

const ruleFor = (user: unknown) => authoredContentAccess.read({ req: { user } as PayloadRequest }) as boolean | Where

describe('read access as page-query conditions', () => {
  it('states the calendar rule of every role', () => {
    for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber']) {
      expect(whereSql(ruleFor({ id: 7, role }), 'e', EVENT_FIELDS), role).toBeDefined()
    }
    expect(whereSql(ruleFor(null), 'e', EVENT_FIELDS)).toBeDefined()
  })

  it("states the event list's own filters", () => {
    const list: Where = {
      and: [
        { hideFromListings: { not_equals: true } },
        { and: [{ start: { greater_than_equal: '2026-01-01T00:00:00.000Z' } }, { startLocal: { greater_than_equal: '2025-12-31 10:00:00' } }] },
        { categories: { in: [3, 4] } },
        { tags: { in: [9] } },
        { organizers: { in: [2] } },
        { venue: { in: [5] } },
        { id: { not_in: [10, 11] } },
        { featured: { equals: true } },
        { status: { in: ['publish', 'draft'] } },
        { id: { exists: false } },
      ],
    }
    expect(whereSql(list, 'e', EVENT_FIELDS)).toBeDefined()
  })

  it('leaves to the local API any rule it cannot state', () => {
    for (const rule of [
      { 'venue.city': { equals: 'Lyon' } },
      { title: { equals: 'x' } },
      { 'categories.slug': { equals: 'jazz' } },
      { featured: { not_in: [true] } },
      { categories: { not_in: [1] } },
      { start: { like: '2026' } },
      { or: [] },
      { and: [{ status: { equals: 'publish' } }, { tenant: { equals: 3 } }] },
      { or: [{ status: { equals: 'publish' } }, { 'author.name': { in: [1, 2] } }] },
    ] as Where[]) {
      expect(whereSql(rule, 'e', EVENT_FIELDS), JSON.stringify(rule)).toBeUndefined()
    }
  })
})
