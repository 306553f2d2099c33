/**
 * The calendar's read rule is stated once (`readVisibility`): Payload's collection access and the
 * page query's SQL are both made from it. A list's filters are typed (`EventMatch`): the page query
 * states them as SQL, but for a search and a condition through the venue, which Payload's adapter
 * states; the counts kept per day give a list's total only for what they count.
 */
import { PgDialect } from '@payloadcms/db-postgres/drizzle/pg-core'
import type { PayloadRequest } from 'payload'
import { describe, expect, it } from 'vitest'
import { authoredContentAccess } from '../../src/calendar/access/collectionAccess'
import { readVisibility } from '../../src/calendar/access/readVisibility'
import { pageAccess } from '../../src/database/events/eventPage'
import { dayCountable, matchSql, type EventMatch } from '../../src/database/events/eventMatch'
import { visibilitySql } from '../../src/database/events/visibility'
import { statusFilter } from '../../src/operations/status'

const dialect = new PgDialect()
const ruleFor = (user: unknown) => authoredContentAccess.read({ req: { user } as PayloadRequest })
const published = { status: { equals: 'publish' } }

describe('the read rule', () => {
  it('gives editors every item, writers the published ones and their own, everyone else the published ones, through Payload and the SQL alike', () => {
    const cases = [
      { user: { id: 1, role: 'administrator' }, where: true, sql: 'true', params: [] },
      { user: { id: 2, role: 'editor' }, where: true, sql: 'true', params: [] },
      {
        user: { id: 3, role: 'author' },
        where: { or: [published, { author: { equals: 3 } }] },
        sql: `(e.status = 'publish' or e.author_id = $1)`,
        params: [3],
      },
      {
        user: { id: 4, role: 'contributor' },
        where: { or: [published, { author: { equals: 4 } }] },
        sql: `(e.status = 'publish' or e.author_id = $1)`,
        params: [4],
      },
      {
        user: { id: 5, role: 'subscriber' },
        where: published,
        sql: `e.status = 'publish'`,
        params: [],
      },
      { user: null, where: published, sql: `e.status = 'publish'`, params: [] },
    ]
    for (const { user, where, sql, params } of cases) {
      const label = user?.role ?? 'anonymous'
      expect(ruleFor(user), label).toEqual(where)
      expect(
        dialect.sqlToQuery(visibilitySql(readVisibility(user as never), 'e')),
        label,
      ).toMatchObject({ sql, params })
    }
  })

  it("serves the calendar's own rule by the page query, and leaves a developer's rule to Payload's local API", () => {
    const withRead = (read: unknown) =>
      ({
        user: { id: 3, role: 'author' },
        payload: {
          collections: Object.fromEntries(
            ['events', 'venues', 'organizers'].map((slug) => [
              slug,
              { config: { access: { read } } },
            ]),
          ),
        },
      }) as unknown as PayloadRequest
    expect(pageAccess(withRead(authoredContentAccess.read))?.visibility).toEqual({
      every: false,
      ownerId: 3,
    })
    expect(pageAccess(withRead(() => ({ status: { equals: 'publish' } })))).toBeUndefined()
  })
})

describe("a list's filters", () => {
  const window: EventMatch['window'] = [
    { field: 'start', op: 'gte', value: '2026-01-01T00:00:00.000Z' },
    { field: 'end', op: 'lte', value: '2026-01-31T23:59:59.000Z' },
  ]
  const visitors: EventMatch = { window, listed: true, statuses: ['publish'] }

  it('are stated as SQL, but a search and a condition through the venue', () => {
    const every: EventMatch = {
      ...visitors,
      categories: [3, 4],
      tags: [9],
      organizers: [2],
      venues: [5],
      near: [5, 6],
      excluded: [10],
      ids: [],
      featured: true,
    }
    expect(matchSql(every, 'joined')).toBeDefined()
    expect(matchSql({ ...visitors, search: 'jazz' }, 'probed')).toBeUndefined()
    expect(matchSql({ ...visitors, geoloc: true }, 'probed')).toBeUndefined()
  })

  it('select every status but trash for writers, and every one when they also ask for trash', () => {
    const editor = { actor: { id: 2, role: 'editor' as const } }
    expect(statusFilter(editor, undefined).statuses).toEqual([
      'publish',
      'future',
      'draft',
      'pending',
      'private',
    ])
    expect(
      dialect.sqlToQuery(
        matchSql({ statuses: statusFilter(editor, undefined).statuses }, 'joined')!,
      ).sql,
    ).toBe(`(e.status not in ($1))`)
    expect(statusFilter(editor, ['any', 'trash']).statuses).toHaveLength(6)
    expect(statusFilter({ actor: null }, undefined).statuses).toEqual(['publish'])
  })

  it('take their total from the counts kept per day only for published, listed events of a window in one category and one tag at most', () => {
    expect(dayCountable(visitors)).toEqual({
      category: 0,
      tag: 0,
      from: window[0]!.value,
      to: window[1]!.value,
    })
    expect(dayCountable({ ...visitors, categories: [3], tags: [9] })).toMatchObject({
      category: 3,
      tag: 9,
    })
    for (const other of [
      { ...visitors, categories: [3, 4] },
      { ...visitors, statuses: ['publish', 'draft'] as const },
      { ...visitors, listed: undefined },
      { ...visitors, search: 'jazz' },
      { ...visitors, venues: [5] },
      { ...visitors, window: window.slice(0, 1) },
    ]) {
      expect(dayCountable(other), JSON.stringify(other)).toBeUndefined()
    }
  })
})
