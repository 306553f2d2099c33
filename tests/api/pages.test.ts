/**
 * The public pages at the namespace's permalinks (docs/public-face.md "Public pages"), over HTTP:
 * what each shows of a public item, what they hide (drafts, private, trashed, locked content), their
 * head (JSON-LD, canonical, hreflang, cards), the password form and the sitemap.
 */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, call, NS, unique, uploadImage } from '../support/api'
import { startSecondInstance } from '../support/secondInstance'
import { createEvent, ns } from '../support/fixtures'
import { createPageFixtures, page, pathOf, type PageFixtures } from '../support/pages'
import { failUntilWaitOf } from '../support/throttle'

let f: PageFixtures

beforeAll(async () => {
  f = await createPageFixtures(unique('pg'))
})

/** A visitor's address of its own, so that the password throttle of one test does not reach another. */
const visitor = () => `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`

function jsonLdOf(document: Document): any[] {
  return [...document.querySelectorAll('script[type="application/ld+json"]')].map((script) =>
    JSON.parse(script.textContent ?? ''),
  )
}

function expectStrictPolicy(headers: Headers): void {
  const policy = headers.get('content-security-policy') ?? ''
  expect(policy).toContain("script-src 'self'")
  expect(policy).toContain("default-src 'none'")
  // Inline only for style attributes (a description's alignment): no script, no <style> element.
  const inline = policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive.includes('unsafe-inline'))
  expect(inline).toEqual(["style-src-attr 'unsafe-inline'"])
}

describe('the event page', () => {
  it('shows a public event with the JSON-LD the namespace serves, safely escaped', async () => {
    const { status, headers, body, document } = await page(pathOf(f.event.url))
    expect(status, body).toBe(200)
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8')
    expectStrictPolicy(headers)
    expect(document.querySelector('h1')?.textContent).toBe(f.event.title)
    expect(document.querySelector('.description')?.innerHTML).toContain('<strong>jazz</strong>')
    // The title's `</script>` ended nothing: the only script is the JSON-LD, whole.
    expect(document.querySelectorAll('script')).toHaveLength(1)
    expect(body).not.toContain('</script><script>alert(1)')
    const [ld] = jsonLdOf(document)
    const served = (await ns(`/events/${f.event.id}`)).body.json_ld
    expect(ld).toEqual(served)
    expect(ld.name).toBe(f.event.title)
    expect(ld.startDate).toMatch(/^\d{4}-\d\d-\d\dT19:30:00[+-]\d\d:\d\d$/)
    expect(ld.endDate).toMatch(/T22:00:00[+-]\d\d:\d\d$/)
    expect(ld.location.name).toBe(f.venue.venue)
    expect(ld.organizer.name).toBe(f.organizer.organizer)
    expect(ld.eventStatus).toBe('https://schema.org/EventScheduled')
    expect(ld.eventAttendanceMode).toBe('https://schema.org/OfflineEventAttendanceMode')
    expect(ld.offers.price).toBe('Free – 20')
    expect(document.querySelector('.details')?.textContent).toContain(f.venue.venue)
    expect(document.querySelector(`a[href="${f.event.rest_url}.ics"]`)).not.toBeNull()
  })

  it('names its canonical URL, its translations and its cards', async () => {
    const { document } = await page(pathOf(f.event.url))
    const french = (await ns(`/events/${f.event.id}?i18n_language=fr`)).body
    expect(french.url).toMatch(/\/fr\/event\/.+-soiree\/$/)
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(f.event.url)
    const alternates = Object.fromEntries(
      [...document.querySelectorAll('link[rel="alternate"]')].map((link) => [
        link.getAttribute('hreflang'),
        link.getAttribute('href'),
      ]),
    )
    // English and the one translation; no language the event was not written in.
    expect(alternates).toEqual({ en: f.event.url, fr: french.url, 'x-default': f.event.url })
    expect(document.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe(
      f.event.title,
    )
    expect(document.querySelector('meta[property="og:url"]')?.getAttribute('content')).toBe(
      f.event.url,
    )
    expect(document.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe(
      'summary',
    )
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(
      'An evening of jazz by the river.',
    )
  })

  it('is served in French at its French permalink, and not under a language the calendar lacks', async () => {
    const french = (await ns(`/events/${f.event.id}?i18n_language=fr`)).body
    const { status, document } = await page(pathOf(french.url))
    expect(status).toBe(200)
    expect(document.documentElement.getAttribute('lang')).toBe('fr')
    expect(document.querySelector('h1')?.textContent).toBe(french.title)
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(french.url)
    expect((await page(`/en${pathOf(f.event.url)}`)).status).toBe(404)
    expect((await page(`/xx${pathOf(f.event.url)}`)).status).toBe(404)
  })

  it('describes its image as the media library does, and renders what the editor may put in a description', async () => {
    const alt = unique('A crowd by the river ')
    const image = await uploadImage(alt)
    const paragraph = (text: string, extra: Record<string, unknown> = {}) => ({
      type: 'paragraph',
      version: 1,
      format: '',
      indent: 0,
      direction: null,
      textFormat: 0,
      ...extra,
      children: [
        { type: 'text', text, format: 0, style: '', mode: 'normal', detail: 0, version: 1 },
      ],
    })
    const event = await createEvent({
      title: unique('Pictured '),
      image: image.id,
      description: {
        root: {
          type: 'root',
          version: 1,
          format: '',
          indent: 0,
          direction: null,
          children: [
            { type: 'relationship', relationTo: 'events', value: 1, format: '', version: 2 },
            paragraph('Centred', { format: 'center' }),
          ],
        },
      },
    })
    const read = (await ns(`/events/${event.id}`)).body
    const { document, headers } = await page(pathOf(read.url))
    expect(document.querySelector('article img')?.getAttribute('alt')).toBe(alt)
    expect(document.querySelector('meta[property="og:image:alt"]')?.getAttribute('content')).toBe(
      alt,
    )
    const description = document.querySelector('.description')!
    expect(description.textContent).not.toMatch(/unknown node/)
    expect(read.description).not.toMatch(/unknown node/)
    // The editor's alignment is a style attribute, which the policy lets through, and nothing else inline.
    expect(description.querySelector('p')?.getAttribute('style')).toMatch(/text-align: center/)
    expect(headers.get('content-security-policy')).toMatch(/style-src-attr 'unsafe-inline'/)
    expect(headers.get('content-security-policy')).toMatch(/style-src 'self'(;|$)/)
  })

  it('marks an item’s own words English where they fell back to English, right to left or not', async () => {
    // Written in English and French only: its German and Arabic pages show the English words.
    const ownLanguage = (document: Document) =>
      ['h1', '.description'].map((selector) => {
        const element = document.querySelector(selector)
        return [element?.getAttribute('lang') ?? null, element?.getAttribute('dir') ?? null]
      })
    const path = pathOf(f.event.url)
    expect(ownLanguage((await page(`/de${path}`)).document)).toEqual([
      ['en', null],
      ['en', null],
    ])
    const arabic = (await page(`/ar${path}`)).document
    expect(arabic.documentElement.getAttribute('dir')).toBe('rtl')
    expect(ownLanguage(arabic)).toEqual([
      ['en', 'ltr'],
      ['en', 'ltr'],
    ])
    const french = (await ns(`/events/${f.event.id}?i18n_language=fr`)).body
    expect(ownLanguage((await page(pathOf(french.url))).document)).toEqual([
      [null, null],
      [null, null],
    ])
    expect(ownLanguage((await page(path)).document)).toEqual([
      [null, null],
      [null, null],
    ])
    const tag = (await page(`/ar${pathOf(f.label.url)}`)).document
    expect(tag.querySelector('h1')?.getAttribute('lang')).toBe('en')
  })

  it("lists a series' other dates on its first event and on each later one", async () => {
    const members = (await ns(`/events?post_parent=${f.series.id}`)).body.events
    expect(members).toHaveLength(2)
    const first = await page(pathOf(f.series.url))
    const firstDates = [...first.document.querySelectorAll('#series ~ ol a')].map((link) =>
      link.getAttribute('href'),
    )
    expect(firstDates).toEqual(members.map((member: any) => member.url))
    const second = await page(pathOf(members[0].url))
    const secondDates = [...second.document.querySelectorAll('#series ~ ol a')].map((link) =>
      link.getAttribute('href'),
    )
    expect(secondDates).toEqual([f.series.url, members[1].url])
  })

  it('is not there for a draft, a private or a trashed event, nor for an unknown slug', async () => {
    for (const hidden of [f.draft, f.privateEvent, f.trashed]) {
      const { status, body } = await page(`/event/${hidden.slug}/`)
      expect(status, hidden.slug).toBe(404)
      expect(body).not.toContain(hidden.title)
    }
    expect((await page(`/event/${randomUUID()}/`)).status).toBe(404)
  })
})

describe('a password-protected event', () => {
  it('shows its title and times and a form, and nothing else', async () => {
    const { status, headers, body, document } = await page(pathOf(f.locked.url))
    expect(status).toBe(200)
    expect(headers.get('cache-control')).toBe('private, no-store')
    expect(document.querySelector('h1')?.textContent).toBe(f.locked.title)
    expect(document.querySelector('.when')?.textContent).toMatch(
      /6:00\sPM – 8:00\sPM Europe\/Paris$/,
    )
    expect(
      document.querySelector('form[method="post"] input[type="password"][name="password"]'),
    ).not.toBeNull()
    expect(body).not.toContain('secret programme')
    expect(jsonLdOf(document)).toEqual([])
  })

  it('unlocks with the password posted, answered privately; a wrong one keeps it locked', async () => {
    const from = visitor()
    const wrong = await page(pathOf(f.locked.url), {
      method: 'POST',
      form: { password: 'wrong' },
      from,
    })
    expect(wrong.status).toBe(403)
    expect(wrong.headers.get('cache-control')).toBe('private, no-store')
    expect(wrong.document.querySelector('[role="alert"]')?.textContent).toContain('not right')
    expect(wrong.body).not.toContain('secret programme')
    // A password no event can have (the namespace refuses NUL) is wrong too, not a page that is not there.
    const nul = await page(pathOf(f.locked.url), {
      method: 'POST',
      form: { password: 'a\0b' },
      from,
    })
    expect(nul.status).toBe(403)
    expect(nul.document.querySelector('[role="alert"]')?.textContent).toContain('not right')
    const right = await page(pathOf(f.locked.url), {
      method: 'POST',
      form: { password: 'open sesame' },
      from,
    })
    expect(right.status).toBe(200)
    expect(right.headers.get('cache-control')).toBe('private, no-store')
    expect(right.document.querySelector('.description')?.textContent).toBe('The secret programme.')
    const empty = await page(pathOf(f.locked.url), { method: 'POST', form: {}, from })
    expect(empty.status).toBe(400)
    // A form larger than the namespace reads a body is not read whole: 413, nothing unlocked.
    const huge = await page(pathOf(f.locked.url), {
      method: 'POST',
      form: { password: 'open sesame', filler: 'a'.repeat(3 * 1024 * 1024) },
      from,
    })
    expect(huge.status).toBe(413)
    expect(huge.body).not.toContain('secret programme')
  })

  it('is throttled as the namespace throttles wrong passwords', async () => {
    const from = visitor()
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(
        (
          await page(pathOf(f.locked.url), {
            method: 'POST',
            form: { password: `wrong ${attempt}` },
            from,
          })
        ).status,
      ).toBe(403)
    }
    // Then refused; each wait sat out until one is long enough for the right password to fall within it.
    const said = new Map<number, string | null | undefined>()
    await failUntilWaitOf(4, async (n) => {
      const wrong = await page(pathOf(f.locked.url), {
        method: 'POST',
        form: { password: `wrong ${6 + n}` },
        from,
      })
      if (wrong.status !== 429) {
        expect(wrong.status).toBe(403)
        return 0
      }
      const wait = Number(wrong.headers.get('retry-after'))
      said.set(wait, wrong.document.querySelector('.error')?.textContent)
      return wait
    })
    // The first waits are 1 and 2 s: the page says the one in the singular.
    expect(said.get(1)).toBe('Too many wrong passwords: try again in 1 second.')
    expect(said.get(2)).toBe('Too many wrong passwords: try again in 2 seconds.')
    const throttled = await page(pathOf(f.locked.url), {
      method: 'POST',
      form: { password: 'open sesame' },
      from,
    })
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(throttled.body).not.toContain('secret programme')
  })
})

describe('venue, organizer, category and tag pages', () => {
  it('show the item and its events, with its structured data', async () => {
    const venue = await page(pathOf(f.venue.url))
    expect(venue.status).toBe(200)
    expect(venue.document.querySelector('h1')?.textContent).toBe(f.venue.venue)
    expect(venue.document.querySelector('address')?.textContent).toContain('Paris')
    expect(venue.document.querySelector(`ol.events a[href="${f.event.url}"]`)).not.toBeNull()
    const [place] = jsonLdOf(venue.document)
    expect(place).toEqual({
      '@context': 'http://schema.org',
      ...(await ns(`/venues/${f.venue.id}`)).body.json_ld,
    })

    const organizer = await page(pathOf(f.organizer.url))
    expect(organizer.status).toBe(200)
    expect(organizer.document.querySelector('h1')?.textContent).toBe(f.organizer.organizer)
    expect(organizer.document.querySelector(`ol.events a[href="${f.event.url}"]`)).not.toBeNull()
    expect(jsonLdOf(organizer.document)[0]['@type']).toBe('Person')

    // A child category's page is at the path of its ancestors; the parent's lists its children's events.
    expect(pathOf(f.category.url)).toBe(`/events/category/${f.parent.slug}/${f.category.slug}/`)
    for (const term of [f.category, f.parent, f.label]) {
      const { status, document } = await page(pathOf(term.url))
      expect(status, term.url).toBe(200)
      expect(document.querySelector('h1')?.textContent).toBe(term.name)
      expect(document.querySelector(`ol.events a[href="${f.event.url}"]`), term.url).not.toBeNull()
    }
    expect((await page(`/events/category/${f.category.slug}/`)).status).toBe(404)
    // A slug of other letters, its escapes spelt in lower case: the same path.
    const arabic = (
      await call(`${NS}/categories`, {
        method: 'POST',
        token: await asAdmin(),
        json: { name: unique('أب '), parent: f.parent.id },
      })
    ).body
    const path = pathOf(arabic.url)
    expect(path).toMatch(/%[0-9A-F]{2}/)
    for (const spelt of [path, path.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())]) {
      const { status, document } = await page(spelt)
      expect(status, spelt).toBe(200)
      expect(document.querySelector('h1')?.textContent).toBe(arabic.name)
    }
  })

  it('is served for an item whose slug is api, which a language prefix would make the REST root', async () => {
    const venue = (
      await call(`${NS}/venues`, {
        method: 'POST',
        token: await asAdmin(),
        json: { venue: 'API', status: 'publish' },
      })
    ).body
    expect(pathOf(venue.url)).toBe('/venue/api/')
    const { status, document } = await page('/venue/api/')
    expect(status).toBe(200)
    expect(document.querySelector('h1')?.textContent).toBe('API')
    expect((await call('/fr/api/')).body).toMatchObject({ namespaces: ['cal/events/v1'] })
  })

  it('are not there for a draft venue or an unknown organizer', async () => {
    expect((await page(`/venue/${f.draftVenue.slug}/`)).status).toBe(404)
    expect((await page(`/organizer/${randomUUID()}/`)).status).toBe(404)
    expect((await page(`/events/tag/${randomUUID()}/`)).status).toBe(404)
  })
})

describe('the permalink patterns', () => {
  it('answer each path a pattern names, and any other path with the pages’ own 404, in its prefix’s language', async () => {
    for (const item of [f.event, f.venue, f.organizer, f.category, f.label])
      expect((await page(pathOf(item.url))).status, item.url).toBe(200)
    for (const path of [
      `/fr/evenement/${f.event.slug}/`,
      `/fr${pathOf(f.event.url)}extra/`,
      `/fr/events/tag/${f.label.slug}/extra/`,
    ]) {
      const { status, document } = await page(path)
      expect(status, path).toBe(404)
      expect(document.querySelector('h1')?.textContent, path).toBe('Page introuvable')
    }
  })
})

describe('/events/', () => {
  it('renders the month in a <cal-events> element, complete without the widget', async () => {
    const month = f.event.start_date.slice(0, 7)
    const { status, headers, document } = await page(`/events/?month=${month}`)
    expect(status).toBe(200)
    expectStrictPolicy(headers)
    const widget = document.querySelector('cal-events')
    expect(widget?.getAttribute('view')).toBe('month')
    expect(widget?.getAttribute('date')).toBe(`${month}-01`)
    expect(widget?.querySelector('table.month caption')?.textContent).toMatch(/\d{4}/)
    const day = Number(f.event.start_date.slice(8, 10))
    const cell = [...(widget?.querySelectorAll('td') ?? [])].find(
      (td) => td.querySelector('.day')?.textContent === String(day),
    )
    expect(cell?.querySelector(`a[href="${f.event.url}"]`)?.textContent).toMatch(/^7:30\sPM /)
    expect(document.querySelector('script[type="module"]')?.getAttribute('src')).toBe(
      '/calendar/widget.js',
    )
    // Links between months, without JavaScript.
    expect(document.querySelector('a[rel="next"]')?.getAttribute('href')).toMatch(
      /^\/events\/\?view=month&month=\d{4}-\d\d$/,
    )
    for (const hidden of [f.draft, f.privateEvent, f.trashed])
      expect(document.body.textContent).not.toContain(hidden.title)
  })

  it('shows an event on every day of the month it covers, those crossing into or out of it included', async () => {
    const tag = unique('crossing')
    const across = await createEvent({
      title: `${tag} festival`,
      start: '2034-01-30T10:00:00.000Z',
      end: '2034-02-02T18:00:00.000Z',
      timezone: 'UTC',
    })
    const night = await createEvent({
      title: `${tag} new year`,
      start: '2033-12-31T22:00:00.000Z',
      end: '2034-01-01T02:00:00.000Z',
      timezone: 'UTC',
    })
    /** The days of the month whose cell links to `url`, with the time each shows. */
    const daysOf = async (month: string, url: string) => {
      const { status, document } = await page(`/events/?month=${month}`)
      expect(status).toBe(200)
      return [...document.querySelectorAll('table.month td')].flatMap((td) => {
        const link = td.querySelector(`a[href="${url}"]`)
        return link
          ? [[td.querySelector('.day')?.textContent, link.querySelector('time')?.textContent ?? '']]
          : []
      })
    }
    const [festival = '', newYear = ''] = await Promise.all(
      [across, night].map(async (event) => (await ns(`/events/${event.id}`)).body.url as string),
    )
    expect(await daysOf('2034-01', festival)).toEqual([
      ['30', expect.stringMatching(/^10:00\sAM$/)],
      ['31', ''],
    ])
    expect(await daysOf('2034-02', festival)).toEqual([
      ['1', ''],
      ['2', ''],
    ])
    expect(await daysOf('2033-12', newYear)).toEqual([['31', expect.stringMatching(/^10:00\sPM$/)]])
    expect(await daysOf('2034-01', newYear)).toEqual([['1', '']])
    // An evening in Los Angeles on the 31st is already the 1st on the site's clock (UTC).
    const evening = await createEvent({
      title: `${tag} west coast evening`,
      start: '2034-04-01T03:00:00.000Z',
      end: '2034-04-01T05:00:00.000Z',
      timezone: 'America/Los_Angeles',
    })
    const west = (await ns(`/events/${evening.id}`)).body.url as string
    expect(await daysOf('2034-03', west)).toEqual([['31', expect.stringMatching(/^8:00\sPM$/)]])
    expect(await daysOf('2034-04', west)).toEqual([])
  })

  it('links no month before the first or after the last there is', async () => {
    const first = await page('/events/?month=1000-01')
    expect(first.status).toBe(200)
    expect(first.document.querySelector('a[rel="prev"]')).toBeNull()
    expect(first.document.querySelector('a[rel="next"]')?.getAttribute('href')).toBe(
      '/events/?view=month&month=1000-02',
    )
    const last = await page('/events/?month=9999-12')
    expect(last.status).toBe(200)
    expect(last.document.querySelector('a[rel="next"]')).toBeNull()
    expect(last.document.querySelector('a[rel="prev"]')?.getAttribute('href')).toBe(
      '/events/?view=month&month=9999-11',
    )
    for (const month of ['0000-01', '0999-12'])
      expect((await page(`/events/?month=${month}`)).status, month).toBe(400)
  })

  it('renders the list of upcoming events, page by page, as the widget reads it', async () => {
    // The widget's list: from the server's day on, each series once, ten a page.
    const windowOf = (now: number) =>
      `ends_after=${new Date(now - 86_400_000).toISOString().slice(0, 10)}&hide_subsequent_recurrences=1&per_page=10`
    const pages = (await ns(`/events?${windowOf(Date.now())}`)).body.total_pages ?? 1
    // Page 2 when there is one (each series once: the fixtures may fit on one).
    for (const number of pages > 1 ? [1, 2] : [1]) {
      const before = Date.now()
      const { status, document } = await page(`/events/?view=list&page=${number}`)
      const after = Date.now()
      expect(status).toBe(200)
      const widget = document.querySelector('cal-events')
      expect(widget?.getAttribute('view')).toBe('list')
      expect(widget?.getAttribute('page')).toBe(String(number))
      // The reader's own day is the widget's: the page hands on no day.
      expect(widget?.hasAttribute('date')).toBe(false)
      const links = [...document.querySelectorAll('cal-events ol.events h3 a')].map((link) =>
        link.getAttribute('href'),
      )
      // The server's day is the one of the request's start or end (they differ only across midnight).
      const listed = await Promise.all(
        [...new Set([windowOf(before), windowOf(after)])].map(
          async (window) =>
            ((await ns(`/events?${window}&page=${number}`)).body.events ?? []).map(
              (event: any) => event.url,
            ) as string[],
        ),
      )
      expect(listed).toContainEqual(links)
      if (number === 1 && pages > 1)
        expect(document.querySelector('a[rel="next"]')?.getAttribute('href')).toBe(
          '/events/?view=list&page=2',
        )
    }
  })

  it('answers 400 to a month or page it cannot read, and is served under a language prefix', async () => {
    expect((await page('/events/?month=2031-13')).status).toBe(400)
    expect((await page('/events/?view=week')).status).toBe(400)
    expect((await page('/events/?view=list&page=0')).status).toBe(400)
    for (const path of ['/xx/events/', '/_next/events/', '/en/events/'])
      expect((await page(path)).status, path).toBe(404)
    const french = await page('/fr/events/?view=list')
    expect(french.status).toBe(200)
    expect(french.document.documentElement.getAttribute('lang')).toBe('fr')
    expect(french.document.querySelector('cal-events')?.getAttribute('lang')).toBe('fr')
    // HTML's tag on the element, as on the page: `uk`, not the namespace's `ua`.
    const ukrainian = await page('/ua/events/?view=list')
    expect(ukrainian.document.querySelector('cal-events')?.getAttribute('lang')).toBe('uk')
  })

  it('names each month and page as its canonical URL, and /events as /events/', async () => {
    const canonical = async (path: string) => {
      const href = (await page(path)).document
        .querySelector('link[rel="canonical"]')
        ?.getAttribute('href')
      return href && pathOf(href)
    }
    expect(await canonical('/events/?month=2031-01')).toBe('/events/?view=month&month=2031-01')
    expect(await canonical('/events/?view=list')).toBe('/events/?view=list')
    expect(await canonical('/events/?view=list&page=1')).toBe('/events/?view=list')
    expect(await canonical('/events/')).toBe('/events/')
    expect(await canonical('/events')).toBe('/events/')
    expect(await canonical('/fr/events/?month=2031-01')).toBe(
      '/fr/events/?view=month&month=2031-01',
    )
    // The page and its widget name the site's URL (SERVER_URL here), as the namespace's permalinks
    // do: they named the server's own, http://localhost:port, whatever the site was reached at.
    const origin = new URL(f.event.url).origin
    const { document } = await page('/events/?view=list')
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      `${origin}/events/?view=list`,
    )
    expect(document.querySelector('cal-events')?.getAttribute('root')).toBe(`${origin}${NS}`)
  })

  it("speaks its prefix's language in its own words, and links to /events/ in it", async () => {
    const month = f.event.start_date.slice(0, 7)
    const words = (document: Document) => ({
      heading: document.querySelector('h1')?.textContent,
      views: [...document.querySelectorAll('nav.views a')].map((link) => link.textContent),
      home: document.querySelector('header.site a')?.getAttribute('href'),
    })
    const english = await page(`/events/?month=${month}`)
    expect(words(english.document)).toEqual({
      heading: 'Events',
      views: ['Month', 'List'],
      home: '/events/',
    })
    expect(english.document.querySelector('a[rel="prev"]')?.textContent).toBe('Previous month')
    const german = await page(`/de/events/?month=${month}`)
    expect(german.status).toBe(200)
    expect(words(german.document)).toEqual({
      heading: 'Veranstaltungen',
      views: ['Monat', 'Liste'],
      home: '/de/events/',
    })
    expect(german.document.querySelector('a[rel="prev"]')?.textContent).toBe('Vorheriger Monat')
    const japanese = await page('/ja/events/?view=list')
    expect(japanese.status).toBe(200)
    expect(words(japanese.document)).toEqual({
      heading: 'イベント',
      views: ['月', 'リスト'],
      home: '/ja/events/',
    })
    const missing = await page(`/ja/event/${randomUUID()}/`)
    expect(missing.status).toBe(404)
    expect(missing.document.querySelector('h1')?.textContent).toBe('ページが見つかりません')
    const refused = await page('/ja/events/?view=week')
    expect(refused.status).toBe(400)
    expect(refused.document.querySelector('main p')?.textContent).toBe(
      '表示は month または list です。',
    )
  })
})

describe('/sitemap.xml', () => {
  it('lists the permalinks of public events, venues, organizers and terms only', async () => {
    const { status, headers, body } = await page('/sitemap.xml')
    expect(status).toBe(200)
    expect(headers.get('content-type')).toBe('application/xml; charset=utf-8')
    const locs = [...body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) =>
      match[1]!.replace(/&amp;/g, '&'),
    )
    for (const item of [
      f.event,
      f.series,
      f.locked,
      f.venue,
      f.organizer,
      f.category,
      f.parent,
      f.label,
    ])
      expect(locs, item.url).toContain(item.url)
    for (const hidden of [f.draft, f.privateEvent, f.trashed, f.draftVenue]) {
      expect(
        locs.some((loc) => loc.includes(`/${hidden.slug}/`)),
        hidden.slug,
      ).toBe(false)
    }
  })

  it('lists published events of every year, those before 1900 too', async () => {
    const tag = unique('oldtimes')
    const old = await Promise.all(
      ['1850-06-01T10:00:00.000Z', '1900-01-01T10:00:00.000Z'].map((start) =>
        createEvent({ title: `${tag} ${start.slice(0, 4)}`, start, timezone: 'UTC' }),
      ),
    )
    const urls = await Promise.all(
      old.map(async (event) => (await ns(`/events/${event.id}`)).body.url as string),
    )
    const { body } = await page('/sitemap.xml')
    for (const url of urls) expect(body, url).toContain(`<loc>${url}</loc>`)
  })

  it('names the pages of each item written in other languages, itself and English as the default, in Google’s hreflang form', async () => {
    const { body } = await page('/sitemap.xml')
    expect(body).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"')
    const unescape = (text: string) => text.replace(/&amp;/g, '&')
    const entries = new Map(
      [...body.matchAll(/<url><loc>([^<]*)<\/loc>(.*?)<\/url>/g)].map((match) => [
        unescape(match[1]!),
        Object.fromEntries(
          [
            ...match[2]!.matchAll(
              /<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]*)" \/>/g,
            ),
          ].map((link) => [link[1], unescape(link[2]!)]),
        ),
      ]),
    )
    const french = (await ns(`/events/${f.event.id}?i18n_language=fr`)).body
    expect(entries.get(f.event.url)).toEqual({
      en: f.event.url,
      fr: french.url,
      'x-default': f.event.url,
    })
    // Written in English only: no alternates.
    expect(entries.get(f.venue.url)).toEqual({})
  })
})

describe('turned off (PUBLIC_PAGES=false, the plugin option publicPages: false)', () => {
  it('answers every page with a 404, while the namespace serves as before', async () => {
    const instance = await startSecondInstance({ PUBLIC_PAGES: 'false' })
    try {
      for (const path of [pathOf(f.event.url), '/events/', '/sitemap.xml']) {
        expect((await fetch(`${instance.base}${path}`)).status, path).toBe(404)
        expect((await fetch(`${BASE_URL}${path}`)).status, path).toBe(200)
      }
      expect((await fetch(`${instance.base}/api/cal/events/v1/events/${f.event.id}`)).status).toBe(
        200,
      )
    } finally {
      await instance.stop()
    }
  }, 240_000)
})
