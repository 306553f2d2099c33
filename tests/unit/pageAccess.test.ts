/**
 * The page query serves a caller only when it can state the caller's read access as SQL
 * (`accessCondition`); any other rule must send the caller to Payload's local API (undefined).
 */
import type { PayloadRequest, Where } from 'payload'
import { describe, expect, it } from 'vitest'
import { authoredContentAccess } from '../../src/calendar/access/collectionAccess'
import { accessCondition } from '../../src/rest/query/eventPage'

const ruleFor = (user: unknown) => authoredContentAccess.read({ req: { user } as PayloadRequest }) as boolean | Where

describe('read access as page-query conditions', () => {
  it('states the calendar rule of every role', () => {
    for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber']) {
      expect(accessCondition(ruleFor({ id: 7, role }), 'e'), role).toBeDefined()
    }
    expect(accessCondition(ruleFor(null), 'e')).toBeDefined()
  })

  it('leaves to the local API any rule it cannot state', () => {
    for (const rule of [
      { status: { not_equals: 'draft' } },
      { 'venue.city': { equals: 'Lyon' } },
      { title: { equals: 'x' } },
      { status: { equals: 'publish', not_equals: 'draft' } },
      { author: { equals: null } },
      { or: [] },
      { and: [{ status: { equals: 'publish' } }, { tenant: { equals: 3 } }] },
      { or: [{ status: { equals: 'publish' } }, { author: { in: [1, 2] } }] },
    ] as Where[]) {
      expect(accessCondition(rule, 'e'), JSON.stringify(rule)).toBeUndefined()
    }
  })
})
