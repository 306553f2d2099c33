/** The namespace's answer cache counts what its answers hold in the heap (src/rest/answerCache.ts). */
import { describe, expect, it } from 'vitest'
import { AnswerCache, type Answer } from '../../src/rest/answerCache'
import { metrics } from '../../src/server/metrics'

const answer = (text: string): Answer => ({ status: 200, headers: {}, text })

/** What `calendar_answer_cache_bytes` says the namespace's cache holds. */
async function held(): Promise<number> {
  const { values } = await metrics().answerCacheBytes.get()
  return values.find((value) => value.labels.layer === 'namespace')?.value ?? 0
}

describe('the answer cache', () => {
  it('counts two bytes a character for a text with any character past Latin-1, as V8 holds it', async () => {
    const cache = new AnswerCache(8 * 1024 * 1024)
    const english = `${'a'.repeat(100_000)}’`
    await cache.get('1', 'english', async () => answer(english))
    expect(await held()).toBeGreaterThanOrEqual(2 * english.length)
  })

  it('counts a byte a character for Latin-1 text, and keeps within its budget', async () => {
    const budget = 8 * 1024 * 1024
    const cache = new AnswerCache(budget)
    const french = 'é'.repeat(100_000)
    await cache.get('1', 'french', async () => answer(french))
    expect(await held()).toBeLessThan(french.length + 1024)
    for (let n = 0; n < 20; n++)
      await cache.get('1', `page ${n}`, async () => answer(`${'b'.repeat(300_000)}—${n}`))
    expect(await held()).toBeGreaterThan(budget / 2)
    expect(await held()).toBeLessThanOrEqual(budget)
  })
})
