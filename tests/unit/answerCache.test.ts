/** The namespace's answer cache counts the bytes its answers hold (src/rest/answerCache.ts). */
import { describe, expect, it } from 'vitest'
import { AnswerCache, type Answer } from '../../src/rest/answerCache'
import { metrics } from '../../src/server/metrics'
import { ownedBytes } from '../../src/server/sent'

const answer = (text: string): Answer => ({ status: 200, headers: {}, body: ownedBytes([text]) })

/** What `calendar_answer_cache_bytes` says the namespace's cache holds. */
async function held(): Promise<number> {
  const { values } = await metrics().answerCacheBytes.get()
  return values.find((value) => value.labels.layer === 'namespace')?.value ?? 0
}

describe('the answer cache', () => {
  it('counts the UTF-8 bytes it keeps: one for each ASCII character, three for an apostrophe', async () => {
    const cache = new AnswerCache(8 * 1024 * 1024)
    const english = `${'a'.repeat(100_000)}’`
    await cache.get('1', 'english', async () => answer(english))
    expect(await held()).toBeGreaterThanOrEqual(100_003)
    expect(await held()).toBeLessThan(100_003 + 1024)
  })

  it('counts two bytes for each accented letter, and keeps within its budget', async () => {
    const budget = 8 * 1024 * 1024
    const cache = new AnswerCache(budget)
    const french = 'é'.repeat(100_000)
    await cache.get('1', 'french', async () => answer(french))
    expect(await held()).toBeGreaterThanOrEqual(2 * french.length)
    expect(await held()).toBeLessThan(2 * french.length + 1024)
    for (let n = 0; n < 20; n++)
      await cache.get('1', `page ${n}`, async () => answer(`${'b'.repeat(300_000)}—${n}`))
    expect(await held()).toBeGreaterThan(budget / 2)
    expect(await held()).toBeLessThanOrEqual(budget)
  })
})
