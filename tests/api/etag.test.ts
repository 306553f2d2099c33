/**
 * ETags name the content revision (docs/api.md §14.1): a write anywhere changes every list's ETag,
 * so a client that revalidates page 1 may skip the others; a 304 is answered before any page query;
 * signed-in users and password reads never share an ETag with anyone; every instance gives the same
 * anonymous URL the same ETag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WITHOUT_RATE_LIMITS } from '../../scripts/productionServer'
import { asAdmin, BASE_URL, call, NS, unique, userWithRole } from '../support/api'
import { createCategory, createEvent, qs } from '../support/fixtures'
import { startSecondInstance, type Instance } from '../support/secondInstance'

const EVENTS = 6
const tag = unique('etag')
const window = { start_date: '2033-03-01', end_date: '2033-03-31' }
const ids: number[] = []
let category: { id: number; slug: string }

beforeAll(async () => {
  category = (await createCategory({ name: unique('etagcat') })) as unknown as {
    id: number
    slug: string
  }
  for (let i = 0; i < EVENTS; i++)
    ids.push(
      (
        await createEvent({
          title: `${tag} ${i}`,
          start: `2033-03-${String(10 + i)}T10:00:00.000Z`,
          categories: [category.id],
        })
      ).id,
    )
}, 120_000)

const page = (n: number, extra: Record<string, string> = {}) =>
  `${NS}/events?${qs({ search: tag, ...window, per_page: 2, page: n, ...extra })}`
const get = (path: string, headers: Record<string, string> = {}, base = BASE_URL) =>
  fetch(`${base}${path}`, { headers })
const etagOf = async (path: string, headers: Record<string, string> = {}, base = BASE_URL) => {
  const response = await get(path, headers, base)
  expect(response.status, path).toBe(200)
  await response.arrayBuffer()
  return response.headers.get('ETag')!
}
const queries = (response: Response) => Number(response.headers.get('X-Query-Count'))

describe('ETags from the content revision', () => {
  it('a write that changes only an item on page 3 changes the ETag of page 1', async () => {
    const first = await call(page(1))
    const third = await call(page(3))
    expect(third.body.events.map((event: { id: number }) => event.id)).toEqual(ids.slice(4))
    const before = first.headers.get('ETag')!
    const patched = await call(`/api/events/${ids[5]}`, {
      method: 'PATCH',
      token: await asAdmin(),
      json: { title: `${tag} 5 moved hall` },
    })
    expect(patched.status).toBe(200)
    const revalidated = await get(page(1), { 'If-None-Match': before })
    expect(revalidated.status).toBe(200)
    expect(revalidated.headers.get('ETag')).not.toBe(before)
    // Page 1 itself is unchanged: a hash of its body would have answered 304 and hidden page 3's change.
    expect((await revalidated.json()).events).toEqual(first.body.events)
    expect(JSON.stringify((await call(page(3))).body)).toContain('moved hall')
  })

  it('answers a matching If-None-Match with no query but the revision, and still refuses bad parameters', async () => {
    for (const path of [
      page(2),
      page(1, { categories: category.slug }),
      `${NS}/events/${ids[0]}`,
      `${NS}/categories/${category.id}`,
    ]) {
      const full = await get(path)
      expect(full.status, path).toBe(200)
      await full.arrayBuffer()
      const etag = full.headers.get('ETag')!
      const again = await get(path, { 'If-None-Match': etag })
      expect(again.status, path).toBe(304)
      expect(again.headers.get('ETag'), path).toBe(etag)
      // A term's full answer may take a single query.
      expect(queries(full), path).toBeGreaterThanOrEqual(1)
      expect(queries(again), path).toBeLessThanOrEqual(1)
    }
    const etag = await etagOf(page(1))
    const bad = await get(page(1, { per_page: 'many' }), { 'If-None-Match': etag })
    expect(bad.status).toBe(400)
    expect((await bad.json()).code).toBe('rest_invalid_param')
    expect(bad.headers.get('ETag')).toBeNull()
  })

  it('answers If-None-Match: * with a 304 only where the answer exists: a missing, forbidden or refused one keeps its error', async () => {
    const draft = await createEvent({ title: unique('etag draft'), status: 'draft' })
    const wrong: string[] = []
    for (const path of [
      `${NS}/events/${ids[0]}`,
      `${NS}/events/99999999`,
      `${NS}/events/${draft.id}`,
      `${NS}/events?status=draft`,
      `${NS}/events?venue=99999999`,
      `${NS}/events.ics?venue=99999999`,
    ]) {
      const plain = await get(path)
      await plain.arrayBuffer()
      // The first is the control: an answer that exists is not modified.
      const status = plain.status === 200 ? 304 : plain.status
      if (path === `${NS}/events/${ids[0]}` ? status !== 304 : status < 400)
        wrong.push(`${path} → ${plain.status} without the header`)
      for (const header of ['*', 'W/"x", *']) {
        const reply = await get(path, { 'If-None-Match': header })
        const etag = reply.headers.get('ETag')
        await reply.arrayBuffer()
        if (reply.status !== status || (status !== 304) !== (etag === null))
          wrong.push(`${header} ${path} → ${reply.status} ETag ${etag}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('keeps users apart: each signed-in user, anonymous readers and password reads have their own ETag', async () => {
    const [one, two] = await Promise.all([userWithRole('editor'), userWithRole('editor')])
    const as = (token: string) => ({ Authorization: `JWT ${token}` })
    const anonymous = await etagOf(page(1))
    const first = await etagOf(page(1), as(one.token))
    const second = await etagOf(page(1), as(two.token))
    const withPassword = await etagOf(page(1, { password: 'open sesame' }))
    expect(new Set([anonymous, first, second, withPassword]).size).toBe(4)
    expect((await get(page(1), { ...as(one.token), 'If-None-Match': first })).status).toBe(304)
    const other = await get(page(1), { ...as(two.token), 'If-None-Match': first })
    expect(other.status).toBe(200)
    await other.arrayBuffer()
  })

  it('follows the part of the clock the answer reads: a window that starts now moves every second', async () => {
    const path = page(1, { start_date: 'now', strict_dates: '1' })
    const before = await etagOf(path)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(await etagOf(path)).not.toBe(before)
    expect(await etagOf(page(1))).toBe(await etagOf(page(1)))
  })
})

describe('ETags across instances', () => {
  let second: Instance

  beforeAll(async () => {
    // Instances behind one load balancer share SERVER_URL (docs/operations.md), so they write the same URLs.
    second = await startSecondInstance({
      SERVER_URL: BASE_URL,
      QUERY_COUNT_HEADER: 'true',
      ...WITHOUT_RATE_LIMITS,
    })
  }, 180_000)

  afterAll(async () => {
    await second?.stop()
  })

  it('gives the same anonymous URL the same ETag on two instances, which each revalidate', async () => {
    for (const path of [
      page(1),
      `/fr${page(1)}`,
      `${NS}/events/${ids[0]}`,
      `${NS}/events.ics?${qs({ search: tag, ...window })}`,
    ]) {
      const here = await etagOf(path)
      expect(await etagOf(path, {}, second.base), path).toBe(here)
      const revalidated = await get(path, { 'If-None-Match': here }, second.base)
      expect(revalidated.status, path).toBe(304)
    }
  })
})
