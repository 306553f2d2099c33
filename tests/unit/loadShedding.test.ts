import { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadGate, sheddingSettings } from '../../src/server/loadShedding'
import { metrics } from '../../src/server/metrics'

/** A namespace GET as the server hands it to the gate: what the gate reads of it, and what it writes. */
function exchange() {
  const request = {
    method: 'GET',
    url: '/api/cal/events/v1/events?page=2',
    headers: {},
    resume: () => undefined,
  } as unknown as IncomingMessage
  const written: { status?: number; headers?: Record<string, string>; body?: string } = {}
  const response = Object.assign(new EventEmitter(), {
    writeHead(status: number, headers: Record<string, string>) {
      Object.assign(written, { status, headers })
    },
    end(body: string) {
      written.body = body
      response.emit('close')
    },
  })
  return { request, response: response as unknown as ServerResponse & EventEmitter, written }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

async function shedMade(): Promise<number> {
  const { values } = await metrics().shed.get()
  return values.find((value) => value.labels.lane === 'made')?.value ?? 0
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
})

afterEach(() => {
  vi.useRealTimers()
})

describe('the load-shedding gate', () => {
  it('refuses a request its measured rate let in once it has waited past its deadline, never one let in under the floor', async () => {
    const gate = loadGate({ queueMs: 100, minInFlight: 2 })
    // Measured: 50 answers in a busy second, two at a time, so 5 may be in flight within 100 ms.
    for (let round = 0; round < 25; round++) {
      const pair = [exchange(), exchange()].map(({ request, response }) => ({
        response,
        admission: gate.admit(request, response)!,
      }))
      vi.advanceTimersByTime(40)
      for (const { response, admission } of pair) {
        response.emit('close')
        admission.ended()
      }
    }
    const waiting = Array.from({ length: 5 }, () => exchange())
    const admissions = waiting.map(({ request, response }) => gate.admit(request, response))
    expect(admissions.every(Boolean)).toBe(true)
    const shedBefore = await shedMade()

    const sixth = exchange()
    expect(gate.admit(sixth.request, sixth.response)).toBeUndefined()
    await settle()
    expect(sixth.written.status).toBe(503)

    vi.advanceTimersByTime(101)
    expect(admissions.map((admission) => admission!.late())).toEqual([
      false,
      false,
      true,
      true,
      true,
    ])
    admissions[2]!.refuse()
    await settle()
    const late = waiting[2]!.written
    expect(late.status).toBe(503)
    expect(Number(late.headers!['retry-after'])).toBeGreaterThan(0)
    expect(JSON.parse(late.body!)).toMatchObject({ code: 'rest_overloaded', data: { status: 503 } })
    expect(await shedMade()).toBe(shedBefore + 2)
  })

  it('gives a request let in under the floor a deadline while the lane is shedding, and none once it has stopped', () => {
    const gate = loadGate({ queueMs: 100, minInFlight: 2 })
    const first = exchange()
    const beforeShedding = gate.admit(first.request, first.response)!
    const second = exchange()
    gate.admit(second.request, second.response)
    // No rate measured yet: past the floor, refused.
    const third = exchange()
    expect(gate.admit(third.request, third.response)).toBeUndefined()
    beforeShedding.ended()
    first.response.emit('close')
    const during = exchange()
    const whileShedding = gate.admit(during.request, during.response)!
    vi.advanceTimersByTime(101)
    expect(beforeShedding.late()).toBe(false)
    expect(whileShedding.late()).toBe(true)

    // Ten seconds after the last refusal, the floor waits without a deadline again.
    vi.advanceTimersByTime(10_000)
    whileShedding.ended()
    during.response.emit('close')
    const after = exchange()
    const calm = gate.admit(after.request, after.response)!
    vi.advanceTimersByTime(101)
    expect(calm.late()).toBe(false)
  })

  it('gives no deadline to a request that finds its lane empty, even while the lane is shedding', () => {
    const gate = loadGate({ queueMs: 100, minInFlight: 1 })
    const first = exchange()
    const admitted = gate.admit(first.request, first.response)!
    // No rate measured yet: past the floor, refused. The lane is shedding for ten seconds.
    const second = exchange()
    expect(gate.admit(second.request, second.response)).toBeUndefined()
    admitted.ended()
    first.response.emit('close')
    // Nothing in flight: whatever delays its turn (a busy event loop), it waits behind nobody.
    const alone = exchange()
    const lone = gate.admit(alone.request, alone.response)!
    vi.advanceTimersByTime(101)
    expect(lone.late()).toBe(false)
  })

  it('counts a request whose caller left until the server is done with its work', () => {
    const gate = loadGate({ queueMs: 100, minInFlight: 1 })
    const first = exchange()
    const admission = gate.admit(first.request, first.response)!
    // The caller is gone; its write goes on, holding the database.
    first.response.emit('close')
    const second = exchange()
    expect(gate.admit(second.request, second.response)).toBeUndefined()
    admission.ended()
    const third = exchange()
    expect(gate.admit(third.request, third.response)).toBeDefined()
  })

  it('lets everything through when shedding is off', () => {
    const gate = loadGate({ queueMs: 0, minInFlight: 0 })
    const admissions = Array.from({ length: 50 }, () => exchange()).map(({ request, response }) =>
      gate.admit(request, response),
    )
    expect(admissions.every((admission) => admission && !admission.late())).toBe(true)
  })
})

describe('SHED_QUEUE_MS and SHED_MIN_IN_FLIGHT', () => {
  it('default, and take whole numbers: 0 ms turns shedding off', () => {
    expect(sheddingSettings({})).toEqual({ queueMs: 500, minInFlight: 32 })
    expect(sheddingSettings({ SHED_QUEUE_MS: '0', SHED_MIN_IN_FLIGHT: '4' })).toEqual({
      queueMs: 0,
      minInFlight: 4,
    })
  })

  it.each([
    ['SHED_QUEUE_MS', '-1', 'at least 0 and at most 2147483647'],
    ['SHED_QUEUE_MS', 'soon', 'at least 0 and at most 2147483647'],
    ['SHED_MIN_IN_FLIGHT', '0', 'at least 1'],
    ['SHED_MIN_IN_FLIGHT', '2.5', 'at least 1'],
  ])('refuses %s=%j with the reason', (name, value, bounds) => {
    expect(() => sheddingSettings({ [name]: value })).toThrow(
      `${name} must be a whole number, ${bounds} (got ${value})`,
    )
  })
})
