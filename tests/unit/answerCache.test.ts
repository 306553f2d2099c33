/** The namespace's answer cache counts the bytes its answers hold (src/rest/answerCache.ts). */
import { describe, expect, it } from 'vitest'
import { AnswerCache, type Answer } from '../../src/rest/answerCache'
import { metrics } from '../../src/server/metrics'
import { KEPT_ENTRY_BYTES } from '../../src/server/keptHeaders'
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
    expect(await held()).toBeLessThan(100_003 + KEPT_ENTRY_BYTES + 64)
  })

  it('counts two bytes for each accented letter, and keeps within its budget', async () => {
    const budget = 8 * 1024 * 1024
    const cache = new AnswerCache(budget)
    const french = 'é'.repeat(100_000)
    await cache.get('1', 'french', async () => answer(french))
    expect(await held()).toBeGreaterThanOrEqual(2 * french.length)
    expect(await held()).toBeLessThan(2 * french.length + KEPT_ENTRY_BYTES + 64)
    for (let n = 0; n < 20; n++)
      await cache.get('1', `page ${n}`, async () => answer(`${'b'.repeat(300_000)}—${n}`))
    expect(await held()).toBeGreaterThan(budget / 2)
    expect(await held()).toBeLessThanOrEqual(budget)
  })

  // A site import reads thousands of small items: their entries, not their bodies, were most of what
  // the cache held, and counted as a few hundred bytes the cache took twice its budget.
  it('counts what keeping an answer costs beyond its body, so that many small answers stay within the budget', async () => {
    const budget = 1024 * 1024
    const cache = new AnswerCache(budget)
    const small = (n: number): Answer => ({
      status: 200,
      headers: { 'Content-Type': 'application/json; charset=UTF-8', 'X-Total': String(n) },
      body: ownedBytes([`{"id":${n}}`]),
    })
    const made: number[] = []
    const ask = (n: number) => cache.get('1', `item ${n}`, async () => (made.push(n), small(n)))
    for (let n = 0; n < 2000; n++) await ask(n)
    expect(await held()).toBeLessThanOrEqual(budget)
    expect(await held()).toBeGreaterThan(budget - 2 * KEPT_ENTRY_BYTES)
    // The first were let go to make room: asked again, they are made again; the last are kept.
    await ask(0)
    await ask(1999)
    expect(made.filter((n) => n === 0 || n === 1999)).toEqual([0, 1999, 0])
    const again = await ask(1999)
    expect(again.headers['X-Total']).toBe('1999')
    expect(again.body.toString()).toBe('{"id":1999}')
  })

  it('counts an answer as its body, its tag, its header values and the entry', async () => {
    const cache = new AnswerCache(8 * 1024 * 1024)
    const body = ownedBytes(['{"id":7}'])
    await cache.get('1', 'item 7', async () => ({
      status: 200,
      headers: { 'Content-Type': 'application/json', 'X-Total': '12345' },
      body,
    }))
    const headerText = 'application/json'.length + '12345'.length
    expect(await held()).toBe(body.length + 'item 7'.length + headerText + KEPT_ENTRY_BYTES)
  })
})
