/**
 * The `<cal-events>` widget in Debian's Chromium, embedded as a site would: a page on another origin
 * (a tiny server of the test's own, under a strict Content-Security-Policy) loads
 * `/calendar/widget.js` from the test server and reads its namespace across origins. Each view,
 * navigation, filters, the detail panel and its links, the keyboard, Arabic right to left, a phone's
 * width, axe-core's WCAG 2.1 AA rules, and an upstream site's answer served by the page's own server.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openPage, resultsDir } from '../support/browser'
import { asAdmin, BASE_URL, ROOT, unique } from '../support/api'
import { api } from '../support/writeFixtures'

const repository = path.resolve(import.meta.dirname, '..', '..')
const AXE = readFileSync(path.join(repository, 'node_modules', 'axe-core', 'axe.min.js'))
const UPSTREAM_EVENTS = readFileSync(
  path.join(repository, 'tests', 'fixtures', 'upstream-events.json'),
)

let browser: Browser
let site: Server
let siteUrl: string
let token: string
const word = unique('widget')
const fixtures = {} as {
  concert: { id: number; title: string }
  fair: { id: number; title: string }
  series: { id: number; title: string }
  music: { id: number; slug: string; name: string }
  crafts: { id: number; slug: string; name: string }
  venue: string
  organizer: string
}

/**
 * The embedding page: its query string becomes the element's attributes; the element holds the
 * fallback a server-rendered page would put there. Scripts and styles only from known origins, no
 * inline anything: what the widget needs must pass this policy.
 */
function embeddingPage(query: URLSearchParams): string {
  const attributes = [...query]
    .map(([name, value]) => ` ${name}="${value.replace(/"/g, '&quot;')}"`)
    .join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Events</title><script src="${BASE_URL}/calendar/widget.js" defer></script></head>
<body><main><h1>What's on</h1><cal-events${attributes}><p class="fallback">Server-rendered fallback</p></cal-events></main></body></html>`
}

function startSite(): Promise<string> {
  site = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site.test')
    if (url.pathname === '/embed') {
      response.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': `default-src 'none'; script-src 'self' ${BASE_URL}; style-src 'self'; connect-src 'self' ${BASE_URL}; img-src 'self'; base-uri 'none'`,
      })
      return response.end(embeddingPage(url.searchParams))
    }
    if (url.pathname === '/axe.min.js')
      return response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(AXE)
    // An upstream WordPress site's namespace: the same answer whatever the query, hand-written in the shape of
    // upstream's recorded answers, since no upstream site can be reached from here (docs/public-face.md).
    if (url.pathname === '/wp-json/site-events/v1/events')
      return response.writeHead(200, { 'Content-Type': 'application/json' }).end(UPSTREAM_EVENTS)
    // A hostile site: the upstream answer with markup where its events' ids are.
    if (url.pathname === '/wp-json/hostile/v1/events') {
      const answer = JSON.parse(UPSTREAM_EVENTS.toString()) as { events: { id: unknown }[] }
      for (const event of answer.events)
        event.id = `${String(event.id)}"><img src="x" id="injected">`
      return response
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify(answer))
    }
    if (/^\/wp-json\/(site-events|hostile)\/v1\/categories$/.test(url.pathname))
      return response
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end('{"categories":[]}')
    if (url.pathname === '/favicon.ico') return response.writeHead(204).end()
    response
      .writeHead(404, { 'Content-Type': 'application/json' })
      .end('{"code":"rest_no_route","message":"No route","data":{"status":404}}')
  })
  return new Promise((resolve) =>
    site.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(site.address() as AddressInfo).port}`),
    ),
  )
}

type Opened = { page: Page; problems: string[]; requests: string[] }

/** A fresh page embedding the widget with these attributes, once it has rendered its first view. */
async function open(
  attributes: Record<string, string>,
  options: { width?: number; timezoneId?: string } = {},
): Promise<Opened> {
  const page = await openPage(browser, {
    timezoneId: options.timezoneId ?? 'America/New_York',
    width: options.width,
  })
  const problems: string[] = []
  const requests: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  await page.goto(`${siteUrl}/embed?${new URLSearchParams(attributes)}`)
  await rendered(page)
  return { page, problems, requests }
}

async function rendered(page: Page): Promise<void> {
  await page.locator('cal-events[aria-busy="false"]').waitFor()
}

/** Clicks and waits for the view it brings. */
async function act(page: Page, click: () => Promise<void>): Promise<void> {
  await page.evaluate(() =>
    document.querySelector('cal-events')!.setAttribute('aria-busy', 'pending'),
  )
  await click()
  await rendered(page)
}

const month = { root: '', view: 'month', date: '2027-10-12' }

/** axe-core over the page, the widget's shadow root included: no WCAG 2.1 A or AA violation. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ url: `${siteUrl}/axe.min.js` })
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: unknown,
            options: unknown,
          ) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }>
        }
      }
    ).axe
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })
    return result.violations.map(
      (violation) =>
        `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    )
  })
  expect(violations, what).toEqual([])
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(resultsDir, `widget-${name}.png`), fullPage: true })
const eventButton = (page: Page, title: string) =>
  page.locator('cal-events .body [data-event]', { hasText: title })
const detail = (page: Page) => page.locator('cal-events .detail')

beforeAll(async () => {
  token = await asAdmin()
  month.root = ROOT
  siteUrl = await startSite()
  browser = await launchChromium()
  const term = async (name: string) => {
    const reply = await api('/categories', { method: 'POST', token, json: { name } })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return { id: reply.body.id as number, slug: reply.body.slug as string, name }
  }
  fixtures.music = await term(`${word} music`)
  fixtures.crafts = await term(`${word} crafts`)
  fixtures.venue = `${word} Riverside Hall`
  fixtures.organizer = `${word} Jazz Society`
  const event = async (body: Record<string, unknown>) => {
    const reply = await api('/events', {
      method: 'POST',
      token,
      json: { status: 'publish', timezone: 'Europe/Paris', ...body },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return { id: reply.body.id as number, title: body.title as string }
  }
  fixtures.concert = await event({
    title: `${word} harbour concert`,
    start_date: '2027-10-12 19:00:00',
    end_date: '2027-10-12 22:00:00',
    cost: '25',
    website: 'https://tickets.example/harbour',
    venue: { venue: fixtures.venue, address: '1 Quai Rambaud', city: 'Lyon', country: 'France' },
    organizer: [{ organizer: fixtures.organizer, website: 'https://jazz.example/' }],
    categories: [fixtures.music.id],
    excerpt: 'Brass on the water.',
  })
  fixtures.fair = await event({
    title: `${word} craft fair`,
    start_date: '2027-10-14 00:00:00',
    end_date: '2027-10-14 23:59:59',
    all_day: true,
    categories: [fixtures.crafts.id],
  })
  fixtures.series = await event({
    title: `${word} choir rehearsal`,
    start_date: '2027-10-05 18:00:00',
    end_date: '2027-10-05 19:00:00',
    recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3',
    categories: [fixtures.music.id],
  })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => site?.close(resolve))
})

describe('the widget script', () => {
  it('is one script under 25 KB gzipped, served as JavaScript with a long cache and an ETag', async () => {
    const response = await fetch(`${BASE_URL}/calendar/widget.js`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=86400/)
    const etag = response.headers.get('etag')
    expect(etag).toMatch(/^"[\w-]+"$/)
    const body = Buffer.from(await response.arrayBuffer())
    expect(body.toString()).toContain('cal-events')
    expect(gzipSync(body, { level: 9 }).length).toBeLessThanOrEqual(25 * 1024)
    const again = await fetch(`${BASE_URL}/calendar/widget.js`, {
      headers: { 'If-None-Match': etag! },
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
  })

  it('lets another origin read the namespace', async () => {
    const response = await fetch(`${ROOT}/events?per_page=1`, {
      headers: { Origin: 'https://site.example' },
    })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('<cal-events> in a browser', () => {
  it('shows the month from another origin under a strict CSP, replacing the fallback', async () => {
    const { page, problems, requests } = await open(month)
    await expect(page.locator('cal-events .title').textContent()).resolves.toBe('October 2027')
    // Upgraded with its attributes, the element reads the month once, and each page of categories once.
    expect(requests.filter((url) => url.startsWith(`${ROOT}/events?`))).toHaveLength(1)
    const categoryPages = requests
      .filter((url) => url.startsWith(`${ROOT}/categories?`))
      .map((url) => new URL(url).searchParams.get('page'))
    expect(categoryPages[0]).toBe('1')
    expect(new Set(categoryPages).size).toBe(categoryPages.length)
    await eventButton(page, fixtures.concert.title).waitFor()
    await eventButton(page, fixtures.fair.title).waitFor()
    // The series: each of its three Tuesdays, the later occurrences too, marked as a series.
    await expect(eventButton(page, fixtures.series.title).count()).resolves.toBe(3)
    await expect(eventButton(page, fixtures.series.title).locator('.series').count()).resolves.toBe(
      3,
    )
    expect(await page.getByText('Server-rendered fallback').isVisible()).toBe(false)
    await expectAccessible(page, 'month')
    await shot(page, 'month')
    expect(problems, 'console errors (CSP violations among them)').toEqual([])
    await page.context().close()
  }, 120_000)

  it('shows the week, the day and the list, each accessible', async () => {
    const { page, problems } = await open({ ...month, view: 'week', 'week-start': 'monday' })
    await expect(page.locator('cal-events .title').textContent()).resolves.toBe(
      'October 11 – 17, 2027',
    )
    await expect(page.locator('cal-events .agenda-day h3').first().textContent()).resolves.toBe(
      'Monday, October 11, 2027',
    )
    for (const title of [fixtures.concert.title, fixtures.fair.title, fixtures.series.title])
      await eventButton(page, title).waitFor()
    await expectAccessible(page, 'week')
    await shot(page, 'week')

    await act(page, () => page.locator('cal-events [data-view="day"]').click())
    await expect(page.locator('cal-events .title').textContent()).resolves.toBe(
      'Tuesday, October 12, 2027',
    )
    await eventButton(page, fixtures.concert.title).waitFor()
    await expect(eventButton(page, fixtures.fair.title).count()).resolves.toBe(0)
    await expectAccessible(page, 'day')
    await shot(page, 'day')

    await act(page, () => page.locator('cal-events [data-view="list"]').click())
    await eventButton(page, fixtures.concert.title).waitFor()
    await expectAccessible(page, 'list')
    await shot(page, 'list')
    expect(problems).toEqual([])
    await page.context().close()
  }, 120_000)

  it('moves between months and days, and pages the list with the series once', async () => {
    const { page } = await open(month)
    await act(page, () => page.locator('cal-events [data-action="next"]').click())
    await expect(page.locator('cal-events .title').textContent()).resolves.toBe('November 2027')
    await expect(eventButton(page, fixtures.concert.title).count()).resolves.toBe(0)
    await act(page, () => page.locator('cal-events [data-action="previous"]').click())
    await expect(page.locator('cal-events .title').textContent()).resolves.toBe('October 2027')
    await eventButton(page, fixtures.concert.title).waitFor()
    await page.context().close()

    // Music from 5 October, one a page: the rehearsals once (a series), then the concert.
    const list = await open({
      root: ROOT,
      view: 'list',
      date: '2027-10-05',
      categories: fixtures.music.slug,
      'per-page': '1',
    })
    await expect(list.page.locator('cal-events .pager span').textContent()).resolves.toBe(
      'Page 1 of 2',
    )
    await eventButton(list.page, fixtures.series.title).waitFor()
    await act(list.page, () => list.page.locator('cal-events [data-action="page-next"]').click())
    await expect(list.page.locator('cal-events .pager span').textContent()).resolves.toBe(
      'Page 2 of 2',
    )
    await eventButton(list.page, fixtures.concert.title).waitFor()
    await expect(eventButton(list.page, fixtures.series.title).count()).resolves.toBe(0)
    await list.page.context().close()

    // Handed a page, as /events/?view=list&page=N hands its own on, it opens there.
    const second = await open({
      root: ROOT,
      view: 'list',
      date: '2027-10-05',
      categories: fixtures.music.slug,
      'per-page': '1',
      page: '2',
    })
    await expect(second.page.locator('cal-events .pager span').textContent()).resolves.toBe(
      'Page 2 of 2',
    )
    await eventButton(second.page, fixtures.concert.title).waitFor()
    await second.page.context().close()
  }, 120_000)

  it('filters by category, search and featured, and subscribes to what it shows', async () => {
    const { page } = await open(month)
    const select = page.locator('cal-events select[name="category"]')
    await select.waitFor()
    await act(page, () => select.selectOption(fixtures.crafts.slug).then(() => undefined))
    await eventButton(page, fixtures.fair.title).waitFor()
    await expect(eventButton(page, fixtures.concert.title).count()).resolves.toBe(0)

    await act(page, () => select.selectOption('').then(() => undefined))
    await page.locator('cal-events input[name="search"]').fill('harbour')
    await act(page, () => page.locator('cal-events form button[type="submit"]').click())
    await eventButton(page, fixtures.concert.title).waitFor()
    await expect(eventButton(page, fixtures.fair.title).count()).resolves.toBe(0)

    // The subscription follows the filter: the feed holds the concert, not the fair.
    const subscription = await page
      .locator('cal-events [data-link="subscribe"]')
      .getAttribute('href')
    expect(subscription).toMatch(/^webcal:\/\//)
    const feed = await fetch(subscription!.replace(/^webcal:/, 'http:'))
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    const text = await feed.text()
    expect(text).toContain(fixtures.concert.title)
    expect(text).not.toContain(fixtures.fair.title)

    await page.locator('cal-events input[name="search"]').fill('')
    await act(page, () => page.locator('cal-events input[name="featured"]').check())
    await expect(eventButton(page, word).count()).resolves.toBe(0)
    await page.context().close()
  }, 120_000)

  it('details an event in its zone and the reader’s, with links that add it to a calendar', async () => {
    const { page, problems } = await open(month)
    await eventButton(page, fixtures.concert.title).click()
    const panel = detail(page)
    await panel.waitFor()
    const text = (await panel.textContent())!
    expect(text).toContain('Tue, October 12, 2027, 7:00 – 10:00 PM (CEST, Europe/Paris)')
    expect(text).toContain('Tue, October 12, 2027, 1:00 – 4:00 PM EDT')
    expect(text).toContain(fixtures.venue)
    expect(text).toContain('1 Quai Rambaud, Lyon, France')
    expect(text).toContain(fixtures.organizer)
    expect(text).toContain('Brass on the water.')
    expect(text).toMatch(/25/)
    await expect(panel.getByRole('link', { name: 'Map' }).getAttribute('href')).resolves.toMatch(
      /^https:\/\/www\.openstreetmap\.org\/search\?query=.*Lyon/,
    )
    await expect(
      panel.getByRole('link', { name: 'https://tickets.example/harbour' }).count(),
    ).resolves.toBe(1)
    await expectAccessible(page, 'detail')
    await shot(page, 'detail')

    const ics = await panel.locator('[data-link="ics"]').getAttribute('href')
    expect(ics).toBe(`${ROOT}/events/${fixtures.concert.id}.ics`)
    const file = await fetch(ics!)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    const calendar = await file.text()
    expect(calendar).toContain(`SUMMARY:${fixtures.concert.title}`)
    expect(calendar).not.toContain(fixtures.fair.title)
    const google = new URL((await panel.locator('[data-link="google"]').getAttribute('href'))!)
    expect(google.origin).toBe('https://calendar.google.com')
    expect(google.searchParams.get('text')).toBe(fixtures.concert.title)
    expect(google.searchParams.get('dates')).toBe('20271012T170000Z/20271012T200000Z')
    expect(google.searchParams.get('ctz')).toBe('Europe/Paris')
    const outlook = new URL((await panel.locator('[data-link="outlook"]').getAttribute('href'))!)
    expect(outlook.origin).toBe('https://outlook.live.com')
    expect(outlook.searchParams.get('subject')).toBe(fixtures.concert.title)
    expect(outlook.searchParams.get('startdt')).toBe('2027-10-12T17:00:00Z')
    expect(outlook.searchParams.get('enddt')).toBe('2027-10-12T20:00:00Z')

    // A series' first event lists its other dates, each one a button to its own detail.
    await eventButton(page, fixtures.series.title).first().click()
    await panel.locator('.series-dates [data-event]').first().waitFor()
    await expect(panel.locator('.series-dates [data-event]').count()).resolves.toBe(2)
    await expect(panel.locator('h3').textContent()).resolves.toContain('Recurring series')

    // A later occurrence is a series too: its panel lists the dates after it.
    await panel.locator('[data-action="close"]').click()
    await eventButton(page, fixtures.series.title).nth(1).click()
    await expect(panel.locator('h3').textContent()).resolves.toContain('Recurring series')
    await panel.locator('.series-dates [data-event]').first().waitFor()
    await expect(panel.locator('.series-dates [data-event]').count()).resolves.toBe(1)
    expect(problems).toEqual([])
    await page.context().close()
  }, 120_000)

  it('is usable from the keyboard', async () => {
    const { page } = await open(month)
    await page.locator('cal-events [data-action="next"]').focus()
    await act(page, () => page.keyboard.press('Enter'))
    await expect(page.locator('cal-events .title').textContent()).resolves.toBe('November 2027')
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Shift+Tab')
    await act(page, () => page.keyboard.press('Enter'))
    await expect(page.locator('cal-events .title').textContent()).resolves.toBe('October 2027')

    await eventButton(page, fixtures.concert.title).focus()
    await page.keyboard.press('Enter')
    await detail(page).waitFor()
    const focused = () =>
      page.evaluate(
        () => document.querySelector('cal-events')!.shadowRoot!.activeElement?.className ?? '',
      )
    await expect(focused()).resolves.toBe('detail')
    await page.keyboard.press('Tab')
    await expect(focused()).resolves.toBe('close')
    await page.keyboard.press('Escape')
    await expect(detail(page).count()).resolves.toBe(0)
    await expect(
      page.evaluate(
        () =>
          (document.querySelector('cal-events')!.shadowRoot!.activeElement as HTMLElement | null)
            ?.dataset.event,
      ),
    ).resolves.toBe(String(fixtures.concert.id))
    await page.context().close()
  }, 120_000)

  it('reads Arabic and Urdu right to left, each in its own words', async () => {
    const { page, problems } = await open({ ...month, lang: 'ar' })
    await expect(page.locator('cal-events .calendar').getAttribute('dir')).resolves.toBe('rtl')
    await expect(page.locator('cal-events .calendar').getAttribute('lang')).resolves.toBe('ar')
    await expect(page.locator('cal-events [data-action="today"]').textContent()).resolves.toBe(
      'اليوم',
    )
    await expect(page.locator('cal-events .title').textContent()).resolves.toContain('أكتوبر')
    await eventButton(page, fixtures.concert.title).waitFor()
    const [nextLeft, previousLeft] = await Promise.all(
      ['next', 'previous'].map((action) =>
        page
          .locator(`cal-events [data-action="${action}"]`)
          .evaluate((button) => button.getBoundingClientRect().left),
      ),
    )
    expect(nextLeft, 'next is on the left in right-to-left').toBeLessThan(previousLeft!)
    await expectAccessible(page, 'Arabic month')
    await shot(page, 'month-ar')
    // A new `lang` re-renders the widget: Urdu has words of its own, and reads right to left too.
    await act(page, () =>
      page.locator('cal-events').evaluate((element) => element.setAttribute('lang', 'ur')),
    )
    await expect(page.locator('cal-events [data-action="today"]').textContent()).resolves.toBe('آج')
    await expect(page.locator('cal-events .calendar').getAttribute('dir')).resolves.toBe('rtl')
    expect(problems).toEqual([])
    await page.context().close()
  }, 120_000)

  it('fits a 360 px phone', async () => {
    // A category named at length widens the filter's list to its longest name, as other tests'
    // categories did: the filters keep to the widget's width all the same.
    const long = await api('/categories', {
      method: 'POST',
      token,
      json: { name: `${word} ${'Festival-of-the-long-riverside-evenings-'.repeat(3)}` },
    })
    expect(long.status, JSON.stringify(long.body)).toBe(201)
    const linked = await api(`/events/${fixtures.concert.id}`, {
      method: 'POST',
      token,
      json: { categories: [fixtures.music.id, long.body.id] },
    })
    expect(linked.status, JSON.stringify(linked.body)).toBe(200)
    // A series on the grid's last column: its events' hidden "Recurring series" label, placed after
    // the title in a line that does not wrap, once stretched the page sideways (453 px).
    const sunday = await api('/events', {
      method: 'POST',
      token,
      json: {
        title: unique(`${word} Sunday series `),
        start_date: '2027-10-31 01:30:00',
        end_date: '2027-10-31 01:45:00',
        timezone: 'America/New_York',
        status: 'publish',
        recurrence: 'RRULE:FREQ=WEEKLY;COUNT=2',
      },
    })
    expect(sunday.status, JSON.stringify(sunday.body)).toBe(201)
    const { page } = await open(month, { width: 360 })
    await eventButton(page, fixtures.concert.title).waitFor()
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth)
    await expect(overflow()).resolves.toBeLessThanOrEqual(360)
    await expectAccessible(page, 'month at 360 px')
    await shot(page, 'month-360')
    await eventButton(page, fixtures.concert.title).click()
    await detail(page).waitFor()
    await expect(overflow()).resolves.toBeLessThanOrEqual(360)
    await shot(page, 'detail-360')
    await page.context().close()
    await api(`/events/${fixtures.concert.id}`, {
      method: 'POST',
      token,
      json: { categories: [fixtures.music.id] },
    })
    await api(`/categories/${long.body.id}`, { method: 'DELETE', token })
  }, 120_000)

  it('reads an upstream WordPress site', async () => {
    const { page, problems } = await open({
      root: `${siteUrl}/wp-json/site-events/v1`,
      view: 'month',
      date: '2027-10-08',
    })
    const button = eventButton(page, 'Jazz & Blues Night')
    await button.waitFor()
    await button.click()
    const panel = detail(page)
    await panel.waitFor()
    const text = (await panel.textContent())!
    expect(text).toContain('Fri, October 8, 2027, 8:00 – 11:00 PM (EDT, America/New_York)')
    expect(text).toContain('Riverside Hall')
    expect(text).toContain('Hudson Jazz Society')
    await expect(panel.locator('[data-link="ics"]').getAttribute('href')).resolves.toBe(
      'https://wordpress.test/event/jazz-blues-night/?ical=1',
    )
    await expect(
      page.locator('cal-events [data-link="subscribe"]').getAttribute('href'),
    ).resolves.toBe('webcal://127.0.0.1:' + new URL(siteUrl).port + '/events/?ical=1')
    await expectAccessible(page, 'upstream detail')
    await shot(page, 'upstream')
    expect(problems).toEqual([])
    await page.context().close()
  }, 120_000)

  it('shows a signed-in editor on this app’s own /events/ only what an anonymous reader sees', async () => {
    const draft = `${word} draft rehearsal`
    const reply = await api('/events', {
      method: 'POST',
      token,
      json: {
        status: 'draft',
        timezone: 'Europe/Paris',
        title: draft,
        start_date: '2027-10-13 18:00:00',
        end_date: '2027-10-13 19:00:00',
      },
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    try {
      await expectAnonymousOnOwnPage(draft)
    } finally {
      await api(`/events/${reply.body.id}`, { method: 'DELETE', token })
    }
  }, 120_000)

  /** The page this app serves at /events/, read by the editor in a browser that carries their sign-in. */
  async function expectAnonymousOnOwnPage(draft: string): Promise<void> {
    // The editor's draft is theirs to see through the namespace, signed in...
    const signedIn = await api('/events?start_date=2027-10-13&end_date=2027-10-13&status=draft', {
      token,
    })
    expect(signedIn.body.events.map((event: { title: string }) => event.title)).toContain(draft)
    // ...and not on the public calendar, where their sign-in cookie goes with every same-origin request.
    // The page on the origin it names as the namespace's (SERVER_URL's), as a reader reaches it.
    const served = await (await fetch(`${BASE_URL}/events/?month=2027-10`)).text()
    const origin = new URL(/<cal-events[^>]* root="([^"]+)"/.exec(served)![1]!).origin
    const page = await openPage(browser, { timezoneId: 'Europe/Paris' })
    await page.context().addCookies([{ name: 'payload-token', value: token, url: origin }])
    await page.goto(`${origin}/events/?month=2027-10`)
    await eventButton(page, fixtures.concert.title).waitFor()
    await rendered(page)
    // The month the page was asked for, not the reader's.
    await expect(page.locator('cal-events .title').textContent()).resolves.toBe('October 2027')
    expect(await eventButton(page, draft).count()).toBe(0)
    await page.context().close()
  }

  it('puts nothing a site answers into the page as markup, its events’ ids included', async () => {
    const { page } = await open({
      root: `${siteUrl}/wp-json/hostile/v1`,
      view: 'month',
      date: '2027-10-08',
    })
    await eventButton(page, 'Jazz & Blues Night').waitFor()
    const shadow = await page.evaluate(() => {
      const root = document.querySelector('cal-events')!.shadowRoot!
      return {
        injected: root.querySelectorAll('img#injected').length,
        ids: [...root.querySelectorAll('[data-event]')].map((button) =>
          button.getAttribute('data-event'),
        ),
      }
    })
    expect(shadow.injected).toBe(0)
    expect(shadow.ids).toContain('4242"><img src="x" id="injected">')
    await page.context().close()
  }, 120_000)
})
