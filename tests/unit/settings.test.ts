import { describe, expect, it } from 'vitest'
import {
  booleanSetting,
  logLevel,
  numberSetting,
  readSettingsAtStart,
} from '../../src/calendar/settings'

describe('number settings', () => {
  it('take their defaults when unset or empty, and the value given when it fits', () => {
    expect(numberSetting('MAX_BODY_BYTES', {})).toBe(2 * 1024 * 1024)
    expect(numberSetting('MAX_BODY_BYTES', { MAX_BODY_BYTES: '1048576' })).toBe(1048576)
    expect(numberSetting('LOGIN_FREE_FAILURES_PER_ADDRESS', {})).toBe(10)
    expect(
      numberSetting('LOGIN_FREE_FAILURES_PER_ADDRESS', { LOGIN_FREE_FAILURES_PER_ADDRESS: '0' }),
    ).toBe(0)
    expect(numberSetting('CACHE_MAX_AGE', { CACHE_MAX_AGE: '' })).toBe(0)
    expect(numberSetting('CACHE_MAX_AGE', { CACHE_MAX_AGE: '60' })).toBe(60)
    expect(numberSetting('ANSWER_CACHE_MB', { ANSWER_CACHE_MB: '0' })).toBe(0)
    expect(numberSetting('ANSWER_CACHE_MB', { ANSWER_CACHE_MB: '1.5' })).toBe(1.5)
    expect(numberSetting('RATE_LIMIT_READS_PER_MINUTE', {})).toBe(6000)
    expect(numberSetting('IMPORT_MAX_ANSWER_MB', { IMPORT_MAX_ANSWER_MB: '0.5' })).toBe(0.5)
    expect(numberSetting('WEBHOOK_RETRY_BASE_SECONDS', { WEBHOOK_RETRY_BASE_SECONDS: '1' })).toBe(1)
    expect(numberSetting('JOBS_ABANDONED_AFTER_SECONDS', {})).toBe(90)
    expect(numberSetting('ANSWER_CONCURRENCY', {})).toBe(8)
    expect(numberSetting('ANSWER_CONCURRENCY', { ANSWER_CONCURRENCY: '3' })).toBe(3)
    expect(numberSetting('WRITE_CONCURRENCY', {})).toBe(4)
    expect(numberSetting('DATABASE_POOL_MAX', {})).toBe(10)
    expect(numberSetting('TRUSTED_PROXY_HOPS', { TRUSTED_PROXY_HOPS: '2' })).toBe(2)
    expect(numberSetting('DATABASE_DEADLINE_MS', {})).toBe(30_000)
    expect(numberSetting('DATABASE_DEADLINE_MS', { DATABASE_DEADLINE_MS: '0' })).toBe(0)
    expect(numberSetting('DATABASE_DEADLINE_MS', { DATABASE_DEADLINE_MS: '5000' })).toBe(5000)
  })

  it.each([
    ['MAX_BODY_BYTES', '2MB', 'a whole number, at least 1'],
    ['MAX_BODY_BYTES', '0', 'a whole number, at least 1'],
    ['LOGIN_FREE_FAILURES_PER_ADDRESS', 'ten', 'a whole number, at least 0'],
    ['LOGIN_FREE_FAILURES_PER_ADDRESS', '-1', 'a whole number, at least 0'],
    ['CACHE_MAX_AGE', '1h', 'a whole number, at least 0'],
    // Each of these quietly became its default, or 0 (the cache off), before.
    ['ANSWER_CACHE_MB', '64MB', 'a number, at least 0'],
    ['RATE_LIMIT_WRITES_PER_MINUTE', 'lots', 'a number, at least 0'],
    ['RATE_LIMIT_LOGINS_PER_MINUTE', '-5', 'a number, at least 0'],
    ['IMPORT_MAX_RUN_MB', '1GB', 'a number above 0'],
    ['IMPORT_REQUEST_SECONDS', '0', 'a number above 0 and at most 2147483'],
    ['IMPORT_MAX_PAGES', '2.5', 'a whole number, at least 1'],
    ['IMPORT_SUBSCRIPTIONS_AT_ONCE', '0', 'a whole number, at least 1'],
    ['WEBHOOK_MAX_FAILURES', 'ten', 'a whole number, at least 1'],
    ['WEBHOOK_ENDPOINTS_AT_ONCE', '1.5', 'a whole number, at least 1'],
    ['JOBS_ABANDONED_AFTER_SECONDS', '90s', 'a number, at least 1 and at most 2147483'],
    // A heartbeat every quarter of it: every millisecond.
    ['JOBS_ABANDONED_AFTER_SECONDS', '0.001', 'a number, at least 1 and at most 2147483'],
    ['ANSWER_CONCURRENCY', '0', 'a whole number, at least 1'],
    ['ANSWER_CONCURRENCY', 'many', 'a whole number, at least 1'],
    ['WRITE_CONCURRENCY', '2.5', 'a whole number, at least 1'],
    ['DATABASE_POOL_MAX', '2', 'a whole number, at least 3'],
    ['TRUSTED_PROXY_HOPS', '-1', 'a whole number, at least 0'],
    ['SHED_MIN_IN_FLIGHT', '0', 'a whole number, at least 1'],
    // Meant as seconds, it would give up on every statement after 30 ms.
    ['DATABASE_DEADLINE_MS', '30', '0 or a whole number, at least 1000 and at most 2147483647'],
    ['DATABASE_DEADLINE_MS', '-1', '0 or a whole number, at least 1000 and at most 2147483647'],
    // Past what a Node timer holds, the timer fires after 1 ms: every statement given up on.
    [
      'DATABASE_DEADLINE_MS',
      '3000000000',
      '0 or a whole number, at least 1000 and at most 2147483647',
    ],
    ['SHED_QUEUE_MS', '2147483648', 'a whole number, at least 0 and at most 2147483647'],
  ] as const)('refuse %s=%j with the reason, at start too', (name, value, rule) => {
    const reason = `${name} must be ${rule} (got ${value})`
    expect(() => numberSetting(name, { [name]: value })).toThrow(reason)
    expect(() => readSettingsAtStart({ [name]: value })).toThrow(reason)
  })

  it('let a server start with none set', () => {
    expect(() => readSettingsAtStart({})).not.toThrow()
  })

  it('read an on-or-off setting in its usual spellings, any case, and refuse anything else', () => {
    expect(booleanSetting('PUBLIC_PAGES', {})).toBe(true)
    expect(booleanSetting('QUERY_COUNT_HEADER', {})).toBe(false)
    for (const off of ['false', '0', 'no', 'OFF', ' False '])
      expect(booleanSetting('PUBLIC_PAGES', { PUBLIC_PAGES: off }), off).toBe(false)
    for (const on of ['true', '1', 'YES', 'on'])
      expect(booleanSetting('WEBHOOK_ALLOW_PRIVATE', { WEBHOOK_ALLOW_PRIVATE: on }), on).toBe(true)
    const reason = 'JOBS_AUTORUN must be true or false (or 1, yes, on; 0, no, off) (got nope)'
    expect(() => booleanSetting('JOBS_AUTORUN', { JOBS_AUTORUN: 'nope' })).toThrow(reason)
    expect(() => readSettingsAtStart({ JOBS_AUTORUN: 'nope' })).toThrow(reason)
  })

  it('take a log level of pino’s, in any case, and refuse a word the logger would fail on', () => {
    expect(logLevel({})).toBe('info')
    expect(logLevel({ LOG_LEVEL: 'WARN' })).toBe('warn')
    expect(() => readSettingsAtStart({ LOG_LEVEL: 'verbose' })).toThrow(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got verbose)',
    )
  })
})
