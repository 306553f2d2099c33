import { describe, expect, it } from 'vitest'
import { writeLane } from '../../src/server/writeLane'

/** A write that holds its turn until it is told to end. */
function held() {
  let end!: () => void
  const ended = new Promise<void>((resolve) => (end = resolve))
  return { work: () => ended, end }
}

const refusal = () => new Error('refused')

/** When `run` settles, in ms from now, and how. */
async function outcome(run: Promise<unknown>): Promise<{ ms: number; refused: boolean }> {
  const started = Date.now()
  const refused = await run.then(
    () => false,
    (error: Error) => error.message === 'refused',
  )
  return { ms: Date.now() - started, refused }
}

describe('the write lane', () => {
  it('counts a waiting write’s deadline from its arrival, not from when it asks for its turn', async () => {
    const lane = writeLane({ size: 1, queueMs: 400, shedding: () => true })
    const holder = held()
    const holding = lane.run(holder.work, refusal, 0)
    // Arrived 300 ms before it asks: 100 ms of its deadline are left.
    const late = await outcome(
      lane.arriving(Date.now() - 300, () => lane.run(async () => 'served', refusal, 0)),
    )
    expect(late.refused).toBe(true)
    expect(late.ms).toBeLessThan(300)
    holder.end()
    await holding
  })

  it('does not count the time its images took to download', async () => {
    const lane = writeLane({ size: 1, queueMs: 400, shedding: () => true })
    const holder = held()
    const holding = lane.run(holder.work, refusal, 0)
    // Arrived 1 s before it asks, 900 ms of it on the network: 300 ms of its deadline are left.
    const waiting = lane.arriving(Date.now() - 1_000, () =>
      lane.run(async () => 'served', refusal, 900),
    )
    setTimeout(() => holder.end(), 150)
    expect(await outcome(waiting)).toMatchObject({ refused: false })
    await holding
  })

  it('foresees the refusal of a write arriving when its deadline cannot be met, and none outside a flood', async () => {
    let shedding = true
    const lane = writeLane({ size: 1, queueMs: 400, shedding: () => shedding })
    const holder = held()
    const holding = lane.run(holder.work, refusal, 0)
    expect(lane.arriving(Date.now(), () => lane.foreseesRefusal())).toBe(false)
    expect(lane.arriving(Date.now() - 500, () => lane.foreseesRefusal())).toBe(true)
    shedding = false
    expect(lane.arriving(Date.now() - 500, () => lane.foreseesRefusal())).toBe(false)
    holder.end()
    await holding
    shedding = true
    expect(lane.arriving(Date.now() - 500, () => lane.foreseesRefusal())).toBe(false)
  })

  it('foresees the refusal of a write that finds the one turn held longer than its deadline, though turns were quick before', async () => {
    const lane = writeLane({ size: 1, queueMs: 400, shedding: () => true })
    for (let quick = 0; quick < 5; quick++) await lane.run(async () => 'quick', refusal, 0)
    const holder = held()
    const holding = lane.run(holder.work, refusal, 0)
    expect(lane.arriving(Date.now(), () => lane.foreseesRefusal())).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 450))
    expect(lane.arriving(Date.now(), () => lane.foreseesRefusal())).toBe(true)
    holder.end()
    await holding
    expect(lane.arriving(Date.now(), () => lane.foreseesRefusal())).toBe(false)
  })
})
