import { describe, expect, it } from 'vitest'
import { isDue } from '../../src/imports/subscriptions'

const now = Date.parse('2026-11-27T12:00:00Z')
const ranAgo = (ms: number) => new Date(now - ms).toISOString()
const HOUR = 3_600_000

describe('when a subscription is imported again (docs/api.md §23.7)', () => {
  it('is due when it never ran', () => {
    expect(isDue({ lastRunAt: null, intervalHours: 24 }, now)).toBe(true)
    expect(isDue({ lastRunAt: undefined, intervalHours: 0.25 }, now)).toBe(true)
  })

  it('is due once its last run is intervalHours old, not before', () => {
    expect(isDue({ lastRunAt: ranAgo(6 * HOUR - 1), intervalHours: 6 }, now)).toBe(false)
    expect(isDue({ lastRunAt: ranAgo(6 * HOUR), intervalHours: 6 }, now)).toBe(true)
    expect(isDue({ lastRunAt: ranAgo(30 * HOUR), intervalHours: 6 }, now)).toBe(true)
  })

  it('counts fractions of an hour', () => {
    expect(isDue({ lastRunAt: ranAgo(14 * 60_000), intervalHours: 0.25 }, now)).toBe(false)
    expect(isDue({ lastRunAt: ranAgo(15 * 60_000), intervalHours: 0.25 }, now)).toBe(true)
  })

  it('is not due when its last run is in the future (another instance with a clock ahead)', () => {
    expect(
      isDue({ lastRunAt: new Date(now + 5 * 60_000).toISOString(), intervalHours: 0.25 }, now),
    ).toBe(false)
  })
})
