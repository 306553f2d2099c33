/**
 * Load shedding (docs/operations.md): an instance with more requests in flight than it serves in its
 * queue bound answers new ones 503 rest_overloaded with Retry-After at once; health checks and
 * signed-in writes still get through. Run on a second instance with a tiny bound, so the flood does
 * not slow the other tests' server. Its metrics count the refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, NS, unique } from '../support/api'
import { scrape, total } from '../support/metrics'
import { startSecondInstance, type Instance } from '../support/secondInstance'

let instance: Instance
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
  instance = await startSecondInstance({ SHED_QUEUE_MS: '1', SHED_MIN_IN_FLIGHT: '4' })
}, 150_000)

afterAll(async () => {
  await instance?.stop()
})

describe('an overloaded instance', () => {
  it('sheds reads at once with 503 rest_overloaded, and still answers health checks and signed-in writes', async () => {
    const started = Date.now()
    const reads = Array.from({ length: 150 }, () =>
      fetch(`${instance.base}${NS}/events?per_page=20`).then(async (response) => ({
        status: response.status,
        retryAfter: response.headers.get('Retry-After'),
        body: await response.json(),
        ms: Date.now() - started,
      })),
    )
    const health = fetch(`${instance.base}/api/health`).then((response) => response.status)
    const writes = Array.from({ length: 3 }, () =>
      fetch(`${instance.base}${NS}/events`, {
        method: 'POST',
        headers: { Authorization: `JWT ${admin}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: unique('Busy '), start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' }),
      }).then((response) => response.status),
    )
    const answers = await Promise.all(reads)
    const shed = answers.filter((answer) => answer.status === 503)
    expect(shed.length).toBeGreaterThan(0)
    for (const answer of shed) {
      expect(answer.body.code).toBe('rest_overloaded')
      expect(answer.body.data.status).toBe(503)
      expect(Number(answer.retryAfter)).toBeGreaterThan(0)
    }
    expect(answers.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true)
    expect(answers.some((answer) => answer.status === 200)).toBe(true)
    expect(await health).toBe(200)
    expect(await Promise.all(writes)).toEqual([201, 201, 201])

    // Once the flood is over, the instance serves again.
    const after = await fetch(`${instance.base}${NS}/events?per_page=1`)
    expect(after.status).toBe(200)

    // Its metrics count every refusal, as shed and as 503s of the route.
    const samples = await scrape(instance.base)
    expect(total(samples, 'calendar_shed_requests_total')).toBe(shed.length)
    expect(total(samples, 'calendar_http_requests_total', { method: 'GET', route: '/events', status: '503' })).toBe(shed.length)
  })
})
