import { describe, expect, it } from 'vitest'
import { ownedBytes } from '../../src/server/sent'
import { frontDoorServer, sharedTag } from '../support/frontDoor'

describe("the front door's kept answers", () => {
  // Node hands out buffers under 4 KB as slices of a shared 8 KB slab: a kept slice would hold all
  // of it for as long as the answer is kept, beyond what the cache's budget counts.
  it('hold their own bytes and no more, whatever their size', () => {
    for (const text of ['{}', '{"id":1,"title":"Été"}', 'x'.repeat(5000)]) {
      for (const chunks of [
        [Buffer.from(text.slice(0, 1)), Buffer.from(text.slice(1))],
        [Buffer.from(text)],
      ]) {
        const body = ownedBytes(chunks)
        expect(body.toString()).toBe(text)
        expect(body.buffer.byteLength).toBe(body.length)
      }
    }
  })

  // The namespace sends the bytes its own cache keeps: a copy would hold every answer twice.
  it('keep the bytes an answer was sent as, when they are whole, not a copy of them', () => {
    const sent = ownedBytes([JSON.stringify({ title: 'café ☕ — قهوة' })])
    expect(ownedBytes([sent])).toBe(sent)
    const view = new Uint8Array(sent.buffer)
    expect(ownedBytes([view]).buffer).toBe(sent.buffer)
  })

  // Through the server as production runs it: the namespace's answer (here, its bytes and the facts
  // it publishes for one shared ETag) is sent once, and kept.
  it('serve again the very bytes the namespace sent, not a copy', async () => {
    const sent = ownedBytes(['{"title":"café"}'])
    const { url } = await frontDoorServer((response, revision) => {
      response.setHeader('ETag', sharedTag(revision))
      response.setHeader('Cache-Control', 'public, max-age=0')
      response.end(sent)
    })
    expect(await (await fetch(url)).text()).toBe('{"title":"café"}')
    // What the namespace's cache holds changes only here, to tell one copy from two.
    sent.write('CAFÉ', sent.indexOf('café'))
    expect(await (await fetch(url)).text()).toBe('{"title":"CAFÉ"}')
  })

  // Kept as one list whose names and repeating values every kept answer shares (`keptHeaders.ts`).
  it('serve a kept answer with the headers it was sent with, one of several values included', async () => {
    let made = 0
    const { url } = await frontDoorServer((response, revision) => {
      made++
      response.setHeader('ETag', sharedTag(revision))
      response.setHeader('Cache-Control', 'public, max-age=0')
      response.setHeader('Content-Type', 'application/json; charset=UTF-8')
      response.setHeader('Link', [
        '<https://site.example/a>; rel="next"',
        '<https://site.example/b>; rel="last"',
      ])
      response.setHeader('X-Total', '12')
      response.end('[]')
    })
    const first = await fetch(url)
    const second = await fetch(url)
    expect(made).toBe(1)
    for (const name of ['etag', 'cache-control', 'content-type', 'link', 'x-total'])
      expect([name, second.headers.get(name)]).toEqual([name, first.headers.get(name)])
    expect(second.headers.get('link')).toBe(
      '<https://site.example/a>; rel="next", <https://site.example/b>; rel="last"',
    )
    expect(await second.text()).toBe('[]')
  })
})
