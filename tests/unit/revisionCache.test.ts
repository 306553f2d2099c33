/**
 * Values kept per content revision (totals, term lookups, records a page embeds): computed once per
 * revision and key, recomputed after a write, and, when the cache is full, the value used longest
 * ago is the one let go (a busy calendar's most asked totals stay known).
 */
import { describe, expect, it } from 'vitest'
import { RevisionCache } from '../../src/calendar/revisionCache'

const counter = () => {
  const calls: string[] = []
  return { calls, compute: (value: string) => async () => (calls.push(value), value) }
}

describe('RevisionCache', () => {
  it('computes a key once per revision, and again at the next revision', async () => {
    const cache = new RevisionCache(100)
    const { calls, compute } = counter()
    expect(await cache.get('1', 'total', compute('a'))).toBe('a')
    expect(await cache.get('1', 'total', compute('b'))).toBe('a')
    expect(await cache.get('2', 'total', compute('c'))).toBe('c')
    expect(calls).toEqual(['a', 'c'])
  })

  it('lets go of the value used longest ago when full', async () => {
    const cache = new RevisionCache(2)
    const { calls, compute } = counter()
    await cache.get('1', 'x', compute('x'))
    await cache.get('1', 'y', compute('y'))
    await cache.get('1', 'x', compute('x again'))
    await cache.get('1', 'z', compute('z'))
    await cache.get('1', 'x', compute('x third'))
    await cache.get('1', 'y', compute('y again'))
    expect(calls).toEqual(['x', 'y', 'z', 'y again'])
  })

  it('lets go when told of a newer revision, and keeps nothing for a request at an older one', async () => {
    const cache = new RevisionCache(100)
    const { calls, compute } = counter()
    await cache.get('5', 'total', compute('a'))
    cache.advance('6')
    expect(await cache.get('6', 'total', compute('b'))).toBe('b')
    cache.advance('4')
    expect(await cache.get('6', 'total', compute('c'))).toBe('b')
    // A request that read revision 5 before the write: computed for it alone.
    expect(await cache.get('5', 'total', compute('late'))).toBe('late')
    expect(await cache.get('6', 'total', compute('d'))).toBe('b')
    expect(calls).toEqual(['a', 'b', 'late'])
  })

  it('does not keep a failure', async () => {
    const cache = new RevisionCache(100)
    await expect(cache.get('1', 'k', () => Promise.reject(new Error('lost')))).rejects.toThrow(
      'lost',
    )
    expect(await cache.get('1', 'k', async () => 'v')).toBe('v')
  })
})
