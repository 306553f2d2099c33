/** Which page a path is under the configured permalink patterns (docs/public-face.md "Public pages"). */
import { describe, expect, it } from 'vitest'
import { DEFAULT_PERMALINKS } from '../../src/options'
import { permalinkAt } from '../../src/site/permalinkPaths'

describe('the pages at the permalink patterns', () => {
  it('answer at the default patterns, a category at its ancestors’ path', () => {
    expect(permalinkAt(DEFAULT_PERMALINKS, ['event', 'gala'])).toEqual({
      kind: 'event',
      slug: ['gala'],
    })
    expect(permalinkAt(DEFAULT_PERMALINKS, ['events', 'category', 'music', 'jazz'])).toEqual({
      kind: 'category',
      slug: ['music', 'jazz'],
    })
    expect(permalinkAt(DEFAULT_PERMALINKS, ['events', 'tag', 'free'])).toEqual({
      kind: 'tag',
      slug: ['free'],
    })
    expect(permalinkAt(DEFAULT_PERMALINKS, ['event', 'gala', 'extra'])).toBeUndefined()
    expect(permalinkAt(DEFAULT_PERMALINKS, ['events', 'tag', 'free', 'extra'])).toBeUndefined()
  })

  it('answer at configured patterns, and no longer at the defaults they replace', () => {
    const patterns = {
      ...DEFAULT_PERMALINKS,
      event: '/events/{slug}/',
      venue: '/places/{slug}/map/',
      category: '/topics/{slug}/',
    }
    expect(permalinkAt(patterns, ['events', 'gala'])).toEqual({ kind: 'event', slug: ['gala'] })
    // The tag's pattern has more fixed segments than the event's: it wins where both could match.
    expect(permalinkAt(patterns, ['events', 'tag', 'free'])).toEqual({
      kind: 'tag',
      slug: ['free'],
    })
    expect(permalinkAt(patterns, ['places', 'hall', 'map'])).toEqual({
      kind: 'venue',
      slug: ['hall'],
    })
    expect(permalinkAt(patterns, ['places', 'hall'])).toBeUndefined()
    expect(permalinkAt(patterns, ['topics', 'music', 'jazz'])).toEqual({
      kind: 'category',
      slug: ['music', 'jazz'],
    })
    expect(permalinkAt(patterns, ['event', 'gala'])).toBeUndefined()
    expect(permalinkAt(patterns, ['venue', 'hall'])).toBeUndefined()
  })
})
