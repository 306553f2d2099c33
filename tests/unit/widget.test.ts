/**
 * The widget's pure parts (src/widget/): its periods, its calendar links and its views, whose text
 * comes from whichever site `root` names and must never become markup.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { readCategories, type CalendarEvent } from '../../src/widget/api'
import { googleLink, outlookLink, plainText, subscriptionLink } from '../../src/widget/links'
import { languageOf } from '../../src/widget/locale'
import { widgetMessages } from '../../src/widget/messages'
import { periodOf, shift } from '../../src/widget/period'
import { detailView, listView, monthView } from '../../src/widget/views'

function event(extra: Partial<CalendarEvent> = {}): CalendarEvent {
  const base = {
    id: 7,
    title: 'Concert',
    url: 'https://site.test/event/concert/',
    rest_url: 'https://site.test/wp-json/site-events/v1/events/7',
    description: '',
    excerpt: '',
    slug: 'concert',
    image: false as const,
    all_day: false,
    start_date: '2027-10-12 19:00:00',
    end_date: '2027-10-12 22:00:00',
    utc_start_date: '2027-10-12 17:00:00',
    utc_end_date: '2027-10-12 20:00:00',
    timezone: 'Europe/Paris',
    timezone_abbr: 'CEST',
    cost: '',
    website: '',
    featured: false,
    categories: [],
    tags: [],
    venue: [] as [],
    organizer: [],
    ...extra,
  }
  return {
    ...base,
    startLocal: base.start_date,
    endLocal: base.end_date,
    allDay: Boolean(base.all_day),
  }
}

const context = { messages: widgetMessages('en'), locale: 'en-US' }
const links = { ics: 'https://cal.test/ics', google: 'https://g.test', outlook: 'https://o.test' }

describe('the widget', () => {
  it('starts weeks on the day asked, and moves by its view', () => {
    expect(periodOf('month', '2027-10-12', 0).first).toBe('2027-09-26')
    expect(periodOf('month', '2027-10-12', 1).first).toBe('2027-09-27')
    expect(periodOf('month', '2027-10-12', 1).last).toBe('2027-10-31')
    expect(periodOf('week', '2027-10-12', 6)).toMatchObject({
      first: '2027-10-09',
      last: '2027-10-15',
    })
    expect(shift('month', '2027-10-31', 1)).toBe('2027-11-01')
    expect(shift('week', '2027-10-12', -1)).toBe('2027-10-05')
    expect(shift('day', '2027-12-31', 1)).toBe('2028-01-01')
  })

  it('reads a language in the namespace’s spelling or HTML’s', () => {
    expect(['pt-BR', 'zh-Hans', 'uk', 'fa-AF', 'fr-CA', 'xx'].map(languageOf)).toEqual([
      'pt-br',
      'zh-hans',
      'ua',
      'prs',
      'fr',
      'en',
    ])
  })

  it('writes calendar links with UTC instants, and whole days for all-day events', () => {
    const google = new URL(googleLink(event()))
    expect(google.searchParams.get('dates')).toBe('20271012T170000Z/20271012T200000Z')
    const allDay = event({
      all_day: true,
      start_date: '2027-10-14 00:00:00',
      end_date: '2027-10-15 23:59:59',
    })
    expect(new URL(googleLink({ ...allDay, allDay: true })).searchParams.get('dates')).toBe(
      '20271014/20271016',
    )
    const outlook = new URL(outlookLink({ ...allDay, allDay: true }))
    expect([
      outlook.searchParams.get('startdt'),
      outlook.searchParams.get('enddt'),
      outlook.searchParams.get('allday'),
    ]).toEqual(['2027-10-14', '2027-10-16', 'true'])
    expect(
      subscriptionLink('https://cal.test/api/cal/events/v1/', { categories: 'music', lang: 'fr' }),
    ).toBe('webcal://cal.test/api/cal/events/v1/events.ics?categories=music&i18n_language=fr')
  })

  it('shows what a site sends as text, never as markup', () => {
    const hostile = event({
      title: 'Jazz &#038; <img src=x onerror=alert(1)>',
      excerpt: '<script>alert(2)</script><p>Bring &quot;friends&quot;</p>',
      website: 'javascript:alert(3)',
      venue: { id: 1, venue: '<b>Hall</b>" onmouseover="x' },
    })
    const html = [
      monthView(context, periodOf('month', '2027-10-12', 1), '2027-10-12', [hostile], '2027-10-01'),
      listView(context, { events: [hostile], total: 1, totalPages: 1 }, 1),
      detailView(context, hostile, links),
    ].join('')
    expect(html).not.toMatch(/<img|<script|<b>|" onmouseover|href="javascript:/)
    expect(html).toContain('<span class="name">Jazz &amp;</span>')
    expect(html).toContain('<dd>javascript:alert(3)</dd>')
    expect(plainText(hostile.excerpt)).toBe('alert(2)Bring "friends"')
  })
})

describe('the category filter', () => {
  it('offers every page of categories, not the first 50 by name', async () => {
    // A site's namespace on a real HTTP server: 120 categories, 50 a page.
    const all = Array.from({ length: 120 }, (_, n) => ({
      id: n + 1,
      name: `Category ${n + 1}`,
      slug: `category-${n + 1}`,
    }))
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://site.test')
      const page = Number(url.searchParams.get('page') ?? 1)
      const categories = all.slice((page - 1) * 50, page * 50)
      response
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ categories, total: all.length, total_pages: 3 }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/cal/events/v1`
      expect((await readCategories(root, undefined)).map((term) => term.id)).toEqual(
        all.map((term) => term.id),
      )
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
