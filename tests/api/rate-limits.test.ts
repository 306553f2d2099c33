/**
 * Per-client rate limits (docs/operations.md), shared by every instance through PostgreSQL: two
 * instances with a limit of 10 reads a minute let one client make 10 reads across both, then answer
 * 429 with Retry-After and the RateLimit headers; another client, and a signed-in user, have buckets
 * of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, NS } from '../support/api'
import { startSecondInstance, type Instance } from '../support/secondInstance'

const LIMITED = {
  RATE_LIMIT_READS_PER_MINUTE: '10',
  RATE_LIMIT_WRITES_PER_MINUTE: '0',
  RATE_LIMIT_LOGINS_PER_MINUTE: '0',
}
let one: Instance
let two: Instance
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
  ;[one, two] = await Promise.all([startSecondInstance(LIMITED), startSecondInstance(LIMITED)])
}, 180_000)

afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()])
})

const read = (instance: Instance, address: string, token?: string) =>
  fetch(`${instance.base}${NS}/categories`, {
    headers: { 'X-Forwarded-For': address, ...(token ? { Authorization: `JWT ${token}` } : {}) },
  })

describe('rate limits', () => {
  it('are shared by the instances: ten reads a minute across both, then 429 with Retry-After and RateLimit headers', async () => {
    const address = '192.0.2.10'
    const statuses: number[] = []
    const remaining: string[] = []
    for (let n = 0; n < 10; n++) {
      const response = await read(n % 2 ? two : one, address)
      statuses.push(response.status)
      remaining.push(response.headers.get('RateLimit-Remaining') ?? '')
      await response.arrayBuffer()
    }
    expect(statuses).toEqual(Array(10).fill(200))
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0'])
    const refused = await read(one, address)
    expect(refused.status).toBe(429)
    const body = await refused.json()
    expect(body.code).toBe('rest_too_many_requests')
    expect(body.data.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1)
    expect(refused.headers.get('RateLimit-Limit')).toBe('10')
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0')
    expect(Number(refused.headers.get('RateLimit-Reset'))).toBeGreaterThan(0)
    expect((await read(two, address)).status).toBe(429)

    // Another address, and a signed-in user on the same address, have buckets of their own.
    expect((await read(two, '192.0.2.11')).status).toBe(200)
    expect((await read(two, address, admin)).status).toBe(200)
    // An error answer took its token too, and says what is left.
    const missing = await fetch(`${one.base}${NS}/events/2147483000`, {
      headers: { 'X-Forwarded-For': '192.0.2.12' },
    })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('RateLimit-Remaining')).toBe('9')
  })
})
