import { describe, expect, it } from 'vitest'
import { ownedBody } from '../../src/server/frontDoor'

describe("the front door's kept answers", () => {
  // Node hands out buffers under 4 KB as slices of a shared 8 KB slab: a kept slice would hold all
  // of it for as long as the answer is kept, beyond what the cache's budget counts.
  it('hold their own bytes and no more, whatever their size', () => {
    for (const text of ['{}', '{"id":1,"title":"Été"}', 'x'.repeat(5000)]) {
      const chunks = [Buffer.from(text.slice(0, 1)), Buffer.from(text.slice(1))]
      const body = ownedBody(chunks)
      expect(body.toString()).toBe(text)
      expect(body.buffer.byteLength).toBe(body.length)
    }
  })
})
