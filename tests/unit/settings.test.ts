import { describe, expect, it } from 'vitest'
import { bodyLimit, cacheMaxAge, loginFreeFailures } from '../../src/calendar/settings'

describe('settings read as whole numbers', () => {
  it('default, and take whole numbers', () => {
    expect(bodyLimit({})).toBe(2 * 1024 * 1024)
    expect(bodyLimit({ MAX_BODY_BYTES: '1048576' })).toBe(1048576)
    expect(loginFreeFailures({})).toBe(10)
    expect(loginFreeFailures({ LOGIN_FREE_FAILURES_PER_ADDRESS: '0' })).toBe(0)
    expect(cacheMaxAge({})).toBe(0)
    expect(cacheMaxAge({ CACHE_MAX_AGE: '60' })).toBe(60)
  })

  it.each([
    ['MAX_BODY_BYTES', '2MB', 1, bodyLimit],
    ['MAX_BODY_BYTES', '0', 1, bodyLimit],
    ['LOGIN_FREE_FAILURES_PER_ADDRESS', 'ten', 0, loginFreeFailures],
    ['LOGIN_FREE_FAILURES_PER_ADDRESS', '-1', 0, loginFreeFailures],
    ['CACHE_MAX_AGE', '1h', 0, cacheMaxAge],
  ] as const)('refuse %s=%j with the reason', (name, value, least, read) => {
    expect(() => read({ [name]: value })).toThrow(
      `${name} must be a whole number, at least ${least} (got ${value})`,
    )
  })
})
