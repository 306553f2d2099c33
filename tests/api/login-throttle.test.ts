/**
 * Failed sign-ins are throttled per address and per account with growing waits, never by locking
 * the account (docs/operations.md): an attacker's wrong passwords cannot lock the administrator out.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { call, userWithRole, type TestUser } from '../support/api'

let victim: TestUser

beforeAll(async () => {
  victim = await userWithRole('editor')
})

const login = (email: string, password: string, address: string) =>
  call('/api/users/login', {
    method: 'POST',
    json: { email, password },
    headers: { 'X-Forwarded-For': address },
  })

describe('failed sign-ins', () => {
  it('slow the attacker down with a 429 and Retry-After, while the owner signs in from elsewhere', async () => {
    const attacker = '203.0.113.7'
    const statuses: number[] = []
    for (let n = 0; n < 8; n++)
      statuses.push((await login(victim.email, `wrong-${n}`, attacker)).status)
    // Three free failures for the account on that address, then waits that grow.
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401])
    expect(statuses).toContain(429)
    const throttled = await login(victim.email, victim.password, attacker)
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(JSON.stringify(throttled.body)).toContain('Too many failed sign-ins')

    // Payload's own lock would now refuse the right password for ten minutes, to everyone.
    const owner = await login(victim.email, victim.password, '198.51.100.20')
    expect(owner.status, JSON.stringify(owner.body)).toBe(200)
    expect(owner.body.token).toBeTruthy()
  })

  it('throttle an address that tries many accounts', async () => {
    const address = '203.0.113.99'
    const statuses: number[] = []
    for (let n = 0; n < 14; n++)
      statuses.push((await login(`nobody-${n}@calendar.test`, 'wrong', address)).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(statuses.slice(10)).toContain(429)
  })
})

describe('password resets', () => {
  it('take the same time whether an account has the address or not, through REST and GraphQL', async () => {
    const timed = async (ask: () => Promise<{ status: number }>) => {
      const started = performance.now()
      const reply = await ask()
      return { status: reply.status, ms: performance.now() - started }
    }
    const rest = (email: string) =>
      timed(() => call('/api/users/forgot-password', { method: 'POST', json: { email } }))
    const graphql = (email: string) =>
      timed(() =>
        call('/api/graphql', {
          method: 'POST',
          json: { query: `mutation { forgotPasswordUser(email: ${JSON.stringify(email)}) }` },
        }),
      )
    // Every answer waits out the same floor (1 s), which covers the account's token and mail.
    for (const ask of [rest, graphql])
      for (const email of [victim.email, `nobody-${Date.now()}@calendar.test`]) {
        const { status, ms } = await ask(email)
        expect({ status, atLeastTheFloor: ms >= 990 }).toEqual({
          status: 200,
          atLeastTheFloor: true,
        })
      }
  })
})
