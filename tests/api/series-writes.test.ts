/**
 * A series is written in bulk (docs/api.md §16.1): its occurrences are created and brought in line
 * with the first event in a few statements, not one write each. What every occurrence must still get:
 * the first event's values in each of its languages, its links and costs, a slug with its day, a place
 * in the change feed, and its count in the terms' counts.
 */
import { DateTime } from 'luxon'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countContentStatements } from '../../scripts/contentStatements'
import { asAdmin, unique } from '../support/api'
import { testDatabase } from '../support/database'
import { api, createOrganizerAs, createVenueAs } from '../support/writeFixtures'

const ZONE = 'Europe/Paris'
const WALL = 'yyyy-MM-dd HH:mm:ss'
let admin: string
const db = testDatabase()

beforeAll(async () => {
  admin = await asAdmin()
})

let counter: Awaited<ReturnType<typeof countContentStatements>>

beforeAll(async () => {
  counter = await countContentStatements(db)
})

afterAll(() => counter.remove())

/** What `write` answered, and how many statements wrote content meanwhile. */
async function counted<T>(write: () => Promise<T>): Promise<{ reply: T; statements: number }> {
  const before = await counter.count()
  const reply = await write()
  return { reply, statements: (await counter.count()) - before }
}

/** A daily series at 09:00 in Paris from `first`, `days` events in all, created in `language`. */
async function createDaily(
  days: number,
  extra: Record<string, unknown> = {},
  first = DateTime.now().setZone(ZONE).plus({ days: 2 }),
  language = 'en',
) {
  const start = first.set({ hour: 9, minute: 0, second: 0, millisecond: 0 })
  const reply = await api(`/events?i18n_language=${language}`, {
    method: 'POST',
    token: admin,
    json: {
      title: unique('Daily '),
      status: 'publish',
      start_date: start.toFormat(WALL),
      end_date: start.plus({ hours: 1 }).toFormat(WALL),
      timezone: ZONE,
      recurrence: `RRULE:FREQ=DAILY;COUNT=${days}`,
      ...extra,
    },
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply
}

/** A page of a series' later occurrences, in order, as the administrator reads them in `language`, and how many there are. */
async function seriesPage(
  parent: number,
  language: string,
  page: number,
): Promise<{ events: any[]; total: number }> {
  const reply = await api(
    `/events?post_parent=${parent}&per_page=50&page=${page}&start_date=2000-01-01&end_date=2040-01-01&status=publish,trash&i18n_language=${language}`,
    { token: admin },
  )
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body
}

/** A series' later occurrences, every page of them. */
async function occurrencesOf(parent: number, language = 'en'): Promise<any[]> {
  const first = await seriesPage(parent, language, 1)
  const rest = await Promise.all(
    Array.from({ length: Math.ceil(first.total / 50) - 1 }, (_, index) =>
      seriesPage(parent, language, index + 2),
    ),
  )
  return [first, ...rest].flatMap(({ events }) => events)
}

async function createTerm(kind: 'categories' | 'tags'): Promise<{ id: number }> {
  const reply = await api(`/${kind}`, {
    method: 'POST',
    token: admin,
    json: { name: unique(`${kind} `) },
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

const countOf = async (kind: 'categories' | 'tags', id: number) =>
  (await api(`/${kind}/${id}`, { token: admin })).body.count as number

/** One statement on the test's own connection, rolled back: what EXPLAIN ANALYZE reports of it. */
async function rolledBack(statement: string, values: unknown[]): Promise<any> {
  await db.query('begin')
  try {
    return (await db.query(`explain (analyze, format json) ${statement}`, values)).rows[0][
      'QUERY PLAN'
    ][0]
  } finally {
    await db.query('rollback')
  }
}

/**
 * The time the kept counts' triggers (`calendar_list_days_*`, `calendar_term_count_*`) spend on an
 * update of every later occurrence of `parent`, as a share of the time the update itself takes: the
 * least of three runs. A connection keeps a trigger's plan from its first run, so the first is an
 * update of one event, as a server's pooled connections have written single events before a series.
 */
async function countsTriggerShare(parent: number): Promise<number> {
  const update = `update events set updated_at = updated_at + interval '1 second'`
  await rolledBack(`${update} where id = $1`, [parent])
  const shares: number[] = []
  for (let run = 0; run < 3; run++) {
    const plan = await rolledBack(`${update} where parent_id = $1`, [parent])
    const triggers = (plan.Triggers as { 'Trigger Name': string; Time: number }[])
      .filter((trigger) => /^calendar_(list_days|term_count)_/.test(trigger['Trigger Name']))
      .reduce((sum, trigger) => sum + trigger.Time, 0)
    shares.push(triggers / plan.Plan['Actual Total Time'])
  }
  return Math.min(...shares)
}

describe('a series written in bulk', () => {
  it('gives every occurrence the first event’s rewrite in each of its languages, with its links, cost and day-named slugs', async () => {
    const [category, otherCategory, tag] = [
      await createTerm('categories'),
      await createTerm('categories'),
      await createTerm('tags'),
    ]
    const venue = await createVenueAs(admin)
    const organizer = await createOrganizerAs(admin)
    const created = await createDaily(6, {
      categories: [category.id],
      tags: [tag.id],
      cost: '10$',
      venue: venue.id,
      organizer: [organizer.id],
    })
    const parent = created.body
    const french = await api(`/events/${parent.id}?i18n_language=fr`, {
      method: 'POST',
      token: admin,
      json: { title: 'Atelier du matin' },
    })
    expect(french.status, JSON.stringify(french.body)).toBe(200)
    const renamed = unique('Morning workshop ')
    const rewrite = await api(`/events/${parent.id}`, {
      method: 'POST',
      token: admin,
      json: { title: renamed, categories: [otherCategory.id], cost: '15$' },
    })
    expect(rewrite.status, JSON.stringify(rewrite.body)).toBe(200)

    for (const [language, title, slug] of [
      ['en', renamed, rewrite.body.slug],
      ['fr', 'Atelier du matin', french.body.slug],
    ]) {
      const occurrences = await occurrencesOf(parent.id, language)
      expect(occurrences).toHaveLength(5)
      for (const occurrence of occurrences) {
        const day = occurrence.start_date.slice(0, 10)
        expect(occurrence).toMatchObject({
          title,
          slug: `${slug}-${day}`,
          cost: '15$',
          status: 'publish',
        })
        expect(occurrence.categories.map((term: { id: number }) => term.id)).toEqual([
          otherCategory.id,
        ])
        expect(occurrence.tags.map((term: { id: number }) => term.id)).toEqual([tag.id])
        expect(occurrence.venue.id).toBe(venue.id)
        expect(occurrence.organizer.map((linked: { id: number }) => linked.id)).toEqual([
          organizer.id,
        ])
      }
    }
  })

  it('lists every occurrence the rewrite changed in the change feed', async () => {
    const parent = (await createDaily(8)).body
    const since = (await api('/changes?since=now', { token: admin })).body.next_cursor
    const rewrite = await api(`/events/${parent.id}`, {
      method: 'POST',
      token: admin,
      json: { title: unique('Fed ') },
    })
    expect(rewrite.status).toBe(200)
    const feed = await api(`/changes?since=${since}&per_page=500`, { token: admin })
    expect(feed.status).toBe(200)
    const listed = new Set(
      feed.body.changes
        .filter((change: { type: string }) => change.type === 'event')
        .map((change: { id: number }) => change.id),
    )
    const occurrences = await occurrencesOf(parent.id)
    expect(occurrences).toHaveLength(7)
    for (const id of [parent.id, ...occurrences.map((occurrence) => occurrence.id)])
      expect(listed.has(id)).toBe(true)
  })

  it('counts every published occurrence in its terms, and follows the series when its terms or status change', async () => {
    const [category, otherCategory] = [
      await createTerm('categories'),
      await createTerm('categories'),
    ]
    const parent = (await createDaily(5, { categories: [category.id] })).body
    expect(await countOf('categories', category.id)).toBe(5)
    expect(
      (
        await api(`/events/${parent.id}`, {
          method: 'POST',
          token: admin,
          json: { categories: [otherCategory.id] },
        })
      ).status,
    ).toBe(200)
    expect([
      await countOf('categories', category.id),
      await countOf('categories', otherCategory.id),
    ]).toEqual([0, 5])
    expect((await api(`/events/${parent.id}`, { method: 'DELETE', token: admin })).status).toBe(200)
    expect(await countOf('categories', otherCategory.id)).toBe(0)
    expect(
      (
        await api(`/events/${parent.id}`, {
          method: 'POST',
          token: admin,
          json: { status: 'publish' },
        })
      ).status,
    ).toBe(200)
    expect(await countOf('categories', otherCategory.id)).toBe(5)
  })

  it('costs the same statements for 6 events as for 60, in any language: not one write per occurrence', async () => {
    const costs: Record<string, number[]> = {}
    for (const [language, days] of [
      ['en', 6],
      ['en', 60],
      ['fr', 6],
      ['fr', 60],
    ] as const) {
      const created = await counted(() =>
        createDaily(days, { title: unique('Atelier ') }, undefined, language),
      )
      const parent = created.reply.body
      const moved = await counted(() =>
        api(`/events/${parent.id}?i18n_language=${language}`, {
          method: 'POST',
          token: admin,
          json: {
            title: unique('Moved '),
            start_date: parent.start_date.replace('09:00', '10:00'),
            end_date: parent.end_date.replace('10:00', '11:00'),
          },
        }),
      )
      expect(moved.reply.status, JSON.stringify(moved.reply.body)).toBe(200)
      const occurrences = await occurrencesOf(parent.id, language)
      expect(occurrences).toHaveLength(days - 1)
      expect(
        occurrences.every(
          (occurrence) =>
            occurrence.title === moved.reply.body.title &&
            occurrence.start_date.endsWith('10:00:00'),
        ),
      ).toBe(true)
      ;(costs[language] ??= []).push(created.statements, moved.statements)
    }
    for (const [create6, move6, create60, move60] of Object.values(costs)) {
      expect(create60! - create6!).toBeLessThan(5)
      expect(move60! - move6!).toBeLessThan(5)
    }
  })

  it('writes a series created in another language in that language and the default one', async () => {
    const french = await createDaily(4, { title: 'Atelier quotidien' }, undefined, 'fr')
    for (const language of ['fr', 'en']) {
      const occurrences = await occurrencesOf(french.body.id, language)
      expect(occurrences.map((occurrence) => occurrence.title)).toEqual(
        Array(3).fill('Atelier quotidien'),
      )
    }
  })

  it('keeps the slug of a past occurrence that a new rule no longer gives', async () => {
    const parent = (await createDaily(5, {}, DateTime.now().setZone(ZONE).minus({ days: 3 }))).body
    const [dropped] = await occurrencesOf(parent.id)
    const rule = await api(`/events/${parent.id}`, {
      method: 'POST',
      token: admin,
      json: { recurrence: 'RRULE:FREQ=DAILY;INTERVAL=2;COUNT=3' },
    })
    expect(rule.status, JSON.stringify(rule.body)).toBe(200)
    const after = await occurrencesOf(parent.id)
    expect(after.map((occurrence) => occurrence.id)).toContain(dropped.id)
    expect(after.find((occurrence) => occurrence.id === dropped.id)).toMatchObject({
      slug: dropped.slug,
      start_date: dropped.start_date,
    })
  })

  it('rewrites a long series with the counts’ triggers costing less than the update itself', async () => {
    const parent = (await createDaily(730)).body.id
    // Pairing each row before with each after (a nested loop over both) cost several times the update.
    expect(await countsTriggerShare(parent)).toBeLessThan(1)
  }, 120_000)
})
