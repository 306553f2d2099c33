/**
 * One place for caches: every cache of the instance is listed in `src/calendar/caches.ts` and made
 * through it, so a new one cannot hide its budget or its invalidation at its call site.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { sourceFiles } from '../support/sourceFiles'
import { CACHES, cacheBudget } from '../../src/calendar/caches'

const src = path.resolve(import.meta.dirname, '..', '..', 'src')
const scripts = path.resolve(src, '..', 'scripts')
const MODULE = path.join(src, 'calendar', 'caches.ts')

const files = [...sourceFiles(src), ...sourceFiles(scripts)].filter((file) => file !== MODULE)
const text = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]))

/** Ways to make a cache without the module: its classes, or a cache kept per Payload instance by hand. */
const CONSTRUCTIONS = /new (BoundedMap|RevisionCache)\s*[<(]|new WeakMap<(Payload|object),/g

/**
 * Constructions that make no cache of their own: the revision's listener per Payload instance is a
 * connection, and a RevisionCache keeps its entries in a BoundedMap of the size the module gives it.
 */
const NOT_CACHES: Record<string, string> = {
  'database/revision.ts': 'new WeakMap<Payload,',
  'calendar/revisionCache.ts': 'new BoundedMap(',
}

describe('caches', () => {
  it('are made only through src/calendar/caches.ts', () => {
    const outside = files.flatMap((file) => {
      const relative = path.relative(src, file)
      return [...text.get(file)!.matchAll(CONSTRUCTIONS)]
        .map((match) => match[0])
        .filter((found) => NOT_CACHES[relative] !== found)
        .map((found) => `${relative}: ${found}`)
    })
    expect(outside).toEqual([])
  })

  it('listed are each made somewhere by their name', () => {
    const unused = Object.keys(CACHES).filter((name) => {
      const made = new RegExp(
        `\\b(boundedCache|revisionCacheOf|instanceCache|cacheBudget)\\b[^;]*'${name}'`,
      )
      return ![...text.values()].some((source) => made.test(source))
    })
    expect(unused).toEqual([])
  })

  it('have a budget: entries, or bytes from ANSWER_CACHE_MB, 0 turning the answer caches off', () => {
    for (const name of Object.keys(CACHES) as (keyof typeof CACHES)[])
      expect(cacheBudget(name), name).toBeGreaterThan(0)
    const before = process.env.ANSWER_CACHE_MB
    try {
      process.env.ANSWER_CACHE_MB = '8'
      expect(cacheBudget('answers')).toBe(4 * 1024 * 1024)
      process.env.ANSWER_CACHE_MB = '0'
      expect(cacheBudget('frontDoor')).toBe(0)
    } finally {
      if (before === undefined) delete process.env.ANSWER_CACHE_MB
      else process.env.ANSWER_CACHE_MB = before
    }
  })
})
