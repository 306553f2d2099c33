/**
 * A visitor's list of one category and one tag at most takes its total from counts the database
 * keeps per day (src/migrations/calendarSchema/listDays.ts, docs/performance.md "Totals by day"), not from a
 * count of every match. These tests write events every way that moves them in or out of such a
 * list, at the window's edges and across it, and read the totals back: the numbers expected, and
 * the same as an administrator's list of published events, which is counted match by match.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, unique } from '../support/api'
import { createCategory, createEvent, createTag, ns, qs } from '../support/fixtures'
import { patchDoc } from '../support/linkedFixtures'
import { testDatabase } from '../support/database'

type Id = { id: number }

const db = testDatabase()

/** A month five months ahead: inside the default window, and not today's. */
const MONTH = (() => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 5, 1))
    .toISOString()
    .slice(0, 7)
})()
const NEXT_MONTH = (() => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 6, 1))
    .toISOString()
    .slice(0, 7)
})()

/** An instant of MONTH (or another month) in UTC, the site's zone in the tests. */
const at = (day: number, hour: number, minute = 0, month = MONTH) =>
  `${month}-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`

const WINDOW = { start_date: `${MONTH}-01`, end_date: `${MONTH}-28`, per_page: 50 }

describe("a visitor's list totals follow every write", () => {
  const tag = unique('daytotal')
  let category: Id
  let label: Id
  const events: Record<string, Id> = {}

  /** The anonymous total for these filters, after checking it against the administrator's count of published events. */
  async function total(
    filters: { categories?: number; tags?: number },
    window: Record<string, string | number | boolean> = WINDOW,
  ): Promise<number> {
    const path = `/events?${qs({ ...window, ...filters })}`
    const visitor = await ns(path)
    const counted = await ns(`${path}&status=publish`, await asAdmin())
    expect(visitor.status, JSON.stringify(visitor.body).slice(0, 300)).toBe(200)
    expect(counted.status, JSON.stringify(counted.body).slice(0, 300)).toBe(200)
    expect(visitor.body.total).toBe(counted.body.total)
    expect(visitor.headers.get('X-Total')).toBe(String(visitor.body.total))
    return visitor.body.total as number
  }

  const totals = async () => [
    await total({ categories: category.id }),
    await total({ tags: label.id }),
    await total({ categories: category.id, tags: label.id }),
  ]

  const event = (name: string, start: string, end: string, data: Record<string, unknown> = {}) =>
    createEvent({ title: `${tag} ${name}`, start, end, categories: [category.id], ...data }).then(
      (made) => (events[name] = made),
    )

  beforeAll(async () => {
    category = await createCategory({ name: `${tag} category` })
    label = await createTag({ name: `${tag} tag` })
    await event('tagged', at(10, 12), at(10, 13), { tags: [label.id] })
    await event('plain', at(12, 12), at(12, 13))
    await event('draft', at(12, 14), at(12, 15), { status: 'draft', tags: [label.id] })
    await event('hidden', at(15, 12), at(15, 13), { hideFromListings: true })
    await event('late', at(28, 20), at(29, 2))
    await event('first hour', at(1, 0, 30), at(1, 1, 30))
    await event('long inside', at(3, 12), at(27, 12), { tags: [label.id] })
    await event('long outside', at(5, 12), at(3, 12, 0, NEXT_MONTH))
    await createEvent({
      title: `${tag} uncategorized`,
      start: at(20, 12),
      end: at(20, 13),
      tags: [label.id],
    })
  })

  it('counts published, listed events that start and end within the window', async () => {
    // Category: tagged, plain, first hour, long inside. Tag: tagged, long inside, uncategorized.
    expect(await totals()).toEqual([4, 3, 2])
  })

  it('follows publishing, unhiding, moving, relinking and deleting', async () => {
    await patchDoc('events', events.draft!.id, { status: 'publish' })
    expect(await totals()).toEqual([5, 4, 3])

    await patchDoc('events', events.hidden!.id, { hideFromListings: false })
    expect(await totals()).toEqual([6, 4, 3])

    await patchDoc('events', events.tagged!.id, {
      start: at(10, 12, 0, NEXT_MONTH),
      end: at(10, 13, 0, NEXT_MONTH),
    })
    expect(await totals()).toEqual([5, 3, 2])

    await patchDoc('events', events.plain!.id, { categories: [], tags: [label.id] })
    expect(await totals()).toEqual([4, 4, 2])

    await patchDoc('events', events.late!.id, { end: at(28, 22) })
    expect(await totals()).toEqual([5, 4, 2])

    await patchDoc('events', events['long outside']!.id, { status: 'draft' })
    await patchDoc('events', events['long inside']!.id, { end: at(2, 12, 0, NEXT_MONTH) })
    expect(await totals()).toEqual([4, 3, 1])

    const deleted = await call(`/api/events/${events['first hour']!.id}`, {
      method: 'DELETE',
      token: await asAdmin(),
    })
    expect(deleted.status).toBe(200)
    expect(await totals()).toEqual([3, 3, 1])
  })

  it('counts a window that starts and ends within a day, to the minute', async () => {
    const hours = await createCategory({ name: `${tag} hours` })
    const at10 = (hour: number, minute = 0, day = 10) => at(day, hour, minute)
    for (const [start, end] of [
      [at10(5), at10(5, 30)],
      [at10(7), at10(8)],
      [at(15, 12), at(15, 13)],
      [at10(17, 0, 20), at10(17, 30, 20)],
      [at10(17, 30, 20), at10(18, 30, 20)],
    ])
      await createEvent({ title: `${tag} hours`, start, end, categories: [hours.id] })
    const strict = {
      start_date: `${MONTH}-10 06:00:00`,
      end_date: `${MONTH}-20 18:00:00`,
      strict_dates: true,
      per_page: 50,
    }
    expect(await total({ categories: hours.id }, strict)).toBe(3)
    expect(
      await total(
        { categories: hours.id },
        { start_date: `${MONTH}-10`, end_date: `${MONTH}-20`, per_page: 50 },
      ),
    ).toBe(5)
  })

  it('agrees with a count of every match on the whole default window and with no filter', async () => {
    const visitor = await ns('/events?per_page=1')
    const counted = await ns('/events?per_page=1&status=publish', await asAdmin())
    expect(visitor.body.total).toBeGreaterThan(0)
    expect(visitor.body.total).toBe(counted.body.total)
    expect(await total({})).toBe(
      (await ns(`/events?${qs({ ...WINDOW, status: 'publish' })}`, await asAdmin())).body.total,
    )
  })
})

describe("a large calendar's totals", () => {
  const tag = unique('bigtotal')
  /** More events than a category of this day holds: a total past 2^31 / 5,000 (the events a walk may read). */
  const KEPT = 500_000

  it("answers a category's first page when its total times a walk's reach passes 2^31", async () => {
    const category = await createCategory({ name: `${tag} category` })
    await createEvent({
      title: `${tag} one`,
      start: at(10, 12),
      end: at(10, 13),
      categories: [category.id],
    })
    // An event of three years, as other files may write: the longest event bounds the days read
    // from the kept counts, so the window below must outlast it.
    await createEvent({
      title: `${tag} long`,
      start: '2050-01-01T00:00:00.000Z',
      end: '2053-01-01T00:00:00.000Z',
    })
    // The counts a calendar of half a million events in this category would keep for one day of the
    // window: written straight to the table the database's triggers keep, for this category alone.
    await db.query(
      `insert into calendar_list_days (category, tag, day, n) values ($1, 0, $2, $3)`,
      [category.id, `${MONTH}-20`, KEPT],
    )
    try {
      // A century: its days are read from the kept counts up to the day the longest event of the
      // tests' database could end after it, which other files' events push back by months.
      const century = { start_date: '2000-01-01', end_date: '2099-12-31', per_page: 10 }
      const list = await ns(`/events?${qs({ ...century, categories: category.id })}`)
      expect(list.status, JSON.stringify(list.body).slice(0, 300)).toBe(200)
      expect(list.body.total).toBe(KEPT + 1)
      expect(list.body.events.map(({ id }: Id) => id)).toHaveLength(1)
    } finally {
      await db.query(`delete from calendar_list_days where category = $1 and day = $2`, [
        category.id,
        `${MONTH}-20`,
      ])
    }
  })
})
