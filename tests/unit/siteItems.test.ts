/**
 * REST API v1 objects as import items (src/imports/sources/siteItems.ts, docs/api.md §23.5), without a
 * site: upstream's shapes (entities in titles, `[]` names of protected venues and organizers) and ours.
 */
import { describe, expect, it } from 'vitest'
import { decodeEntities } from '../../src/calendar/escapeHtml'
import {
  eventItem,
  excerptText,
  organizerItem,
  termItem,
  venueItem,
  type ObjectContext,
} from '../../src/imports/sources/siteItems'
import { parentsFirst } from '../../src/imports/sources/site'

const ours: ObjectContext = { wordpress: false, translations: new Map() }
const upstream: ObjectContext = { wordpress: true, translations: new Map() }

const event = (extra: Record<string, unknown> = {}) => ({
  id: 12,
  status: 'publish',
  date_utc: '2026-01-02 03:04:05',
  url: 'https://site.example/event/jazz/',
  title: 'Jazz &amp; Blues &#8211; live',
  description: '<p>Live.</p>',
  excerpt: '<p>Line one<br />\nline two</p>\n<p>Second &amp; last</p>',
  slug: 'jazz',
  image: { url: 'https://site.example/wp-content/uploads/jazz.png' },
  all_day: false,
  start_date: '2031-06-12 19:30:00',
  end_date: '2031-06-12 23:00:00',
  timezone: 'Europe/Paris',
  cost_details: {
    currency_symbol: '€',
    currency_position: 'postfix',
    currency_code: 'EUR',
    values: ['10', '20'],
  },
  website: 'https://site.example/event/jazz/',
  show_map: true,
  show_map_link: false,
  hide_from_listings: false,
  sticky: false,
  featured: true,
  categories: [{ id: 3, name: 'Music' }],
  tags: [],
  venue: { id: 7, venue: 'Hall' },
  organizer: [{ id: 8, organizer: 'Band' }],
  ...extra,
})

describe('objects of the REST API v1 as items', () => {
  it('reads an upstream event: entities in its title, its excerpt as text, a permalink that is no website', () => {
    const item = eventItem(event(), upstream)
    expect(item).toMatchObject({
      kind: 'event',
      sourceId: '12',
      label: '12 (Jazz & Blues – live)',
      data: {
        title: 'Jazz & Blues – live',
        excerpt: 'Line one\nline two\n\nSecond & last',
        website: null,
        publishedAt: '2026-01-02T03:04:05.000Z',
        cost: ['10', '20'],
        currencyPosition: 'postfix',
        currencyCode: 'EUR',
        venue: { sourceId: '7', name: 'Hall' },
        organizers: [{ sourceId: '8', name: 'Band' }],
        categories: [{ sourceId: '3', name: 'Music' }],
        password: undefined,
      },
    })
    // Upstream has no series: nothing is said of a rule.
    expect((item as any).data.recurrence).toBeUndefined()
    expect(eventItem(event({ title: 'A &amp; B' }), ours)).toMatchObject({
      data: { title: 'A &amp; B' },
    })
  })

  it('refuses protected content it cannot read, and dates it cannot place', () => {
    expect(eventItem(event({ all_day: null, featured: null }), ours)).toMatchObject({
      sourceId: '12',
      error: expect.stringMatching(/^password-protected/),
    })
    expect(venueItem({ id: 4, venue: [], show_map: null }, upstream)).toMatchObject({
      error: expect.stringMatching(/^password-protected/),
    })
    expect(organizerItem({ id: 5, organizer: [] }, upstream)).toMatchObject({
      error: expect.stringMatching(/^password-protected/),
    })
    expect(eventItem(event({ start_date: 'tomorrow' }), ours)).toMatchObject({
      error: expect.stringContaining('YYYY-MM-DD HH:MM:SS'),
    })
  })

  it('keeps a password when the credentials read them, and none for the others', () => {
    const passwords = new Map([[12, 'sesame']])
    expect(eventItem(event(), { ...ours, passwords })).toMatchObject({
      data: { password: 'sesame' },
    })
    expect(eventItem(event({ id: 13 }), { ...ours, passwords })).toMatchObject({
      data: { password: null },
    })
  })

  it('makes a later event of a series its occurrence of the day its slug names', () => {
    const item = eventItem(
      event({
        id: 30,
        slug: 'weekly-2027-03-10',
        start_date: '2027-03-11 19:00:00',
        end_date: '2027-03-11 21:00:00',
        recurrence: '',
      }),
      {
        ...ours,
        parentOf: new Map([[30, 29]]),
      },
    )
    expect(item).toMatchObject({
      data: { occurrenceOf: { parent: { sourceId: '29' }, day: '2027-03-10' } },
    })
    expect((item as any).data.recurrence).toBeUndefined()
  })

  it('gives the languages whose values differ from the default’s', () => {
    const translations = new Map([
      ['fr', event({ title: 'Soirée jazz', slug: 'soiree-jazz' })],
      ['de', event()],
    ])
    const item = eventItem(event(), { ...ours, translations })
    expect((item as any).data.translations).toEqual({
      fr: {
        title: 'Soirée jazz',
        description: '<p>Live.</p>',
        excerpt: 'Line one\nline two\n\nSecond & last',
        slug: 'soiree-jazz',
      },
    })
  })

  it('reads venues that leave out empty fields, and categories with their parents', () => {
    expect(
      venueItem(
        {
          id: 4,
          venue: 'Hall',
          city: 'Lyon',
          geo_lat: 45.76,
          geo_lng: '4.83',
          show_map: true,
          show_map_link: true,
        },
        ours,
      ),
    ).toMatchObject({
      data: {
        name: 'Hall',
        city: 'Lyon',
        address: null,
        geoLat: 45.76,
        geoLng: 4.83,
        showMap: true,
      },
    })
    const categories = new Map([[1, { id: 1, name: 'Music' }]])
    expect(
      termItem(
        'category',
        { id: 2, name: 'Jazz', parent: 1, slug: 'jazz' },
        { ...ours, categories },
      ),
    ).toMatchObject({
      data: { name: 'Jazz', slug: 'jazz', parent: { sourceId: '1', name: 'Music' } },
    })
    expect(termItem('category', { id: 1, name: 'Music', parent: 0 }, ours)).toMatchObject({
      data: { parent: null },
    })
  })

  it('decodes the entities WordPress writes, and leaves others alone', () => {
    expect(decodeEntities('Rock &#038; Roll &#x2019;s &hellip; &unknown; &#0;')).toBe(
      'Rock & Roll ’s … &unknown; &#0;',
    )
    expect(excerptText('')).toBeNull()
  })
})

describe("a site's categories, parents first", () => {
  it('orders chains of tens of thousands, cycles and missing parents included, each parent before its children', () => {
    // Deeper than the stack allowed a walk that recursed per category (a chain of 8,000 overflowed it).
    const chain = Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, parent: i }))
    const cycle = [
      { id: 30_001, parent: 30_002 },
      { id: 30_002, parent: 30_001 },
    ]
    const orphan = { id: 40_001, parent: 99_999 }
    const all = [...chain].reverse().concat(cycle, [orphan])
    const byId = new Map(all.map((object) => [object.id, object]))
    const ordered = parentsFirst(
      all.map((object) => ({ object })),
      byId,
    ).map(({ object }) => object)
    expect(ordered).toHaveLength(all.length)
    const position = new Map(ordered.map((object, index) => [object.id, index]))
    const late = chain.filter(
      (object) => object.parent && position.get(object.parent)! > position.get(object.id)!,
    )
    expect(late).toEqual([])
    expect(new Set(ordered.map((object) => object.id)).size).toBe(all.length)
  })
})
