import { describe, expect, it } from 'vitest'
import {
  DEFAULT_HEAP_GROWING_PERCENT,
  DEFAULT_HEAP_MB,
  DEFAULT_MALLOC_ARENAS,
  DEFAULT_MMAP_THRESHOLD,
  DEFAULT_SEMI_SPACE_MB,
  productionServerEnv,
} from '../../scripts/productionServer'

describe('the production server environment', () => {
  it('caps the heap by default and runs in production mode', () => {
    const env = productionServerEnv({ NODE_OPTIONS: '--enable-source-maps' })
    expect(env.NODE_ENV).toBe('production')
    expect(env.NODE_OPTIONS).toBe(
      `--enable-source-maps --max-semi-space-size=${DEFAULT_SEMI_SPACE_MB} --max-old-space-size=${DEFAULT_HEAP_MB}`,
    )
  })

  it("fixes glibc's mmap threshold unless MALLOC_MMAP_THRESHOLD_ is set", () => {
    expect(productionServerEnv({}).MALLOC_MMAP_THRESHOLD_).toBe(DEFAULT_MMAP_THRESHOLD)
    expect(productionServerEnv({ MALLOC_MMAP_THRESHOLD_: '65536' }).MALLOC_MMAP_THRESHOLD_).toBe(
      '65536',
    )
    expect(
      productionServerEnv({ NODE_OPTIONS: '--max-old-space-size=2048' }).MALLOC_MMAP_THRESHOLD_,
    ).toBe(DEFAULT_MMAP_THRESHOLD)
  })

  it("bounds glibc's malloc arenas unless MALLOC_ARENA_MAX is set", () => {
    expect(productionServerEnv({}).MALLOC_ARENA_MAX).toBe(DEFAULT_MALLOC_ARENAS)
    expect(productionServerEnv({ MALLOC_ARENA_MAX: '8' }).MALLOC_ARENA_MAX).toBe('8')
    expect(
      productionServerEnv({ NODE_OPTIONS: '--max-old-space-size=2048' }).MALLOC_ARENA_MAX,
    ).toBe(DEFAULT_MALLOC_ARENAS)
  })

  it('takes the ceiling from SERVER_HEAP_MB', () => {
    expect(productionServerEnv({ SERVER_HEAP_MB: '1024' }).NODE_OPTIONS).toBe(
      `--max-semi-space-size=${DEFAULT_SEMI_SPACE_MB} --max-old-space-size=1024`,
    )
  })

  it('leaves a ceiling or a young generation set in NODE_OPTIONS alone', () => {
    expect(
      productionServerEnv({
        NODE_OPTIONS: '--max-old-space-size=2048 --max-semi-space-size=32',
        SERVER_HEAP_MB: '256',
      }).NODE_OPTIONS,
    ).toBe('--max-old-space-size=2048 --max-semi-space-size=32')
  })

  it("sets V8's heap growing factor unless SERVER_HEAP_GROWING_PERCENT is given, 0 leaving V8's own", () => {
    expect(productionServerEnv({}).SERVER_HEAP_GROWING_PERCENT).toBe(
      String(DEFAULT_HEAP_GROWING_PERCENT),
    )
    expect(
      productionServerEnv({ SERVER_HEAP_GROWING_PERCENT: '0' }).SERVER_HEAP_GROWING_PERCENT,
    ).toBe('0')
    expect(
      productionServerEnv({ SERVER_HEAP_GROWING_PERCENT: '50' }).SERVER_HEAP_GROWING_PERCENT,
    ).toBe('50')
  })

  it.each(['-1', '301', '12.5', 'fast', ''])(
    'refuses SERVER_HEAP_GROWING_PERCENT=%j with the reason',
    (value) => {
      expect(() => productionServerEnv({ SERVER_HEAP_GROWING_PERCENT: value })).toThrow(
        /SERVER_HEAP_GROWING_PERCENT must be a whole number from 0 to 300/,
      )
    },
  )

  it.each(['lots', '64', '300.5', ''])('refuses SERVER_HEAP_MB=%j with the reason', (value) => {
    expect(() => productionServerEnv({ SERVER_HEAP_MB: value })).toThrow(
      /SERVER_HEAP_MB must be a whole number of megabytes, at least 128/,
    )
  })
})
