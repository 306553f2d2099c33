/**
 * A crowd at the front door (src/server/frontDoor.ts): requests that miss a URL while its answer is
 * being made wait for it. Through a real HTTP server, with the namespace's side played by the facts
 * it publishes and an answer that takes a while to make.
 */
import { describe, expect, it } from 'vitest'
import { frontDoorServer, sharedTag } from '../support/frontDoor'

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Once the namespace has begun to make an answer: a request's arrival, however busy the machine. */
async function begun(made: { count: number }): Promise<void> {
  for (const until = Date.now() + 10_000; made.count === 0; await pause(2))
    if (Date.now() > until) throw new Error('no request reached the namespace in 10 s')
}

/** A front door whose namespace takes `makingMs` to make each answer, shared (kept) or not. */
async function namespaceServer(makingMs: number, shared: boolean) {
  const made = { count: 0 }
  const { url, revision } = await frontDoorServer(async (response, at) => {
    made.count++
    await pause(makingMs)
    // As the namespace gives up an answer whose caller has gone (`passToNamespace`).
    if (response.destroyed) return
    response.setHeader('ETag', sharedTag(at))
    response.setHeader('Cache-Control', shared ? 'public, max-age=0' : 'private')
    response.end(`made at ${at}`)
  })
  const read = async (signal?: AbortSignal) => (await fetch(url, { signal })).text()
  return { revision, made, read }
}

describe('a crowd at the front door', () => {
  it('is served the one answer made for its URL', async () => {
    const { made, read } = await namespaceServer(100, true)
    expect(await Promise.all(Array.from({ length: 6 }, () => read()))).toEqual(
      Array.from({ length: 6 }, () => 'made at 1'),
    )
    expect(made.count).toBe(1)
  })

  it('does not wait for an answer asked before the revision moved: the next one made serves it', async () => {
    const { revision, made, read } = await namespaceServer(150, true)
    const before = read()
    await begun(made)
    revision.now = '2'
    const crowd = await Promise.all(Array.from({ length: 5 }, () => read()))
    expect(crowd).toEqual(Array.from({ length: 5 }, () => 'made at 2'))
    expect(await before).toBe('made at 1')
    expect(made.count).toBe(2)
  })

  it('still gathers behind a URL whose first caller left before its answer', async () => {
    const { made, read } = await namespaceServer(150, true)
    const leaving = new AbortController()
    const gone = read(leaving.signal).catch(() => 'gone')
    await begun(made)
    leaving.abort()
    expect(await gone).toBe('gone')
    await pause(200)
    expect(await Promise.all(Array.from({ length: 5 }, () => read()))).toEqual(
      Array.from({ length: 5 }, () => 'made at 1'),
    )
    expect(made.count).toBe(2)
  })

  it('answers nothing more for a waiter whose caller left, and lets the others through when the answer is not kept', async () => {
    const { made, read } = await namespaceServer(150, false)
    const first = read()
    await begun(made)
    const leaving = new AbortController()
    const gone = read(leaving.signal).catch(() => 'gone')
    const staying = read()
    await pause(30)
    leaving.abort()
    expect(await gone).toBe('gone')
    expect([await first, await staying]).toEqual(['made at 1', 'made at 1'])
    // The first, and the one that stayed once the first was not kept: never the one that left.
    expect(made.count).toBe(2)
  })
})
