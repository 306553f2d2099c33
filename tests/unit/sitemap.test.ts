/** How `/sitemap.xml` cuts the namespace's lists into parts of at most 50,000 URLs (docs/public-face.md "Public pages"). */
import { describe, expect, it } from 'vitest'
import { partSlices } from '../../src/site/sitemap'

/** The (source, index) of every item a part holds, from its slices. */
function items(totals: number[], part: number, limit: number, perPage: number): string[] {
  return partSlices(totals, part, limit, perPage).flatMap((slice) =>
    Array.from(
      { length: slice.to - slice.from },
      (_, i) => `${slice.source}:${(slice.page - 1) * perPage + slice.from + i}`,
    ),
  )
}

describe('sitemap parts', () => {
  it('hold every item once, in order, each part at most the limit, across sources and pages', () => {
    const totals = [23, 0, 7, 11]
    const all = totals.flatMap((total, source) =>
      Array.from({ length: total }, (_, i) => `${source}:${i}`),
    )
    const parts = Array.from({ length: Math.ceil(all.length / 10) }, (_, part) =>
      items(totals, part, 10, 4),
    )
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(10)
    expect(parts.flat()).toEqual(all)
  })

  it('read only the pages a part needs', () => {
    expect(partSlices([120], 1, 50, 50)).toEqual([{ source: 0, page: 2, from: 0, to: 50 }])
    expect(partSlices([30, 30], 0, 50, 25)).toEqual([
      { source: 0, page: 1, from: 0, to: 25 },
      { source: 0, page: 2, from: 0, to: 5 },
      { source: 1, page: 1, from: 0, to: 20 },
    ])
  })
})
