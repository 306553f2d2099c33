/** The front door's kept headers and what they count against its budget (src/server/keptHeaders.ts). */
import { describe, expect, it } from 'vitest'
import { keptHeaders } from '../../src/server/keptHeaders'

describe("a kept answer's headers", () => {
  it('are listed flat, in order, with every value as sent', () => {
    const link = ['<https://site.example/a>; rel="next"', '<https://site.example/b>; rel="last"']
    const { list } = keptHeaders([
      ['content-type', 'application/json; charset=UTF-8'],
      ['link', link],
      ['ETag', '"7-abc"'],
    ])
    expect(list).toEqual([
      'content-type',
      'application/json; charset=UTF-8',
      'link',
      link,
      'ETag',
      '"7-abc"',
    ])
  })

  // The values that name one answer are its own, whatever the case of their names; the ones every
  // answer repeats are held once for all, so they are not counted again for each.
  it("count the text of the values that are the answer's own, and of long ones", () => {
    const long = `public, ${'x'.repeat(300)}`
    const { ownBytes } = keptHeaders([
      ['Content-Type', 'application/json; charset=UTF-8'],
      ['Cache-Control', 'public, max-age=0, must-revalidate'],
      ['Access-Control-Allow-Origin', '*'],
      ['ETag', '"7-abc"'],
      ['Link', ['<https://site.example/a>; rel="next"', '<https://site.example/b>; rel="last"']],
      ['X-Total', '120'],
      ['x-total-pages', '12'],
      ['Content-Disposition', 'attachment; filename="events.ics"'],
      ['X-Long', long],
    ])
    const own = [
      '"7-abc"',
      '<https://site.example/a>; rel="next"',
      '<https://site.example/b>; rel="last"',
      '120',
      '12',
      'attachment; filename="events.ics"',
      long,
    ]
    expect(ownBytes).toBe(own.reduce((sum, text) => sum + text.length, 0))
  })
})
