/**
 * The admin in Chromium (v): how long the events list and an event's edit page take to open, signed
 * in, from the navigation's start to a settled page: the latest of its last request's end, its last
 * long task's end (a task of the page's thread over 50 ms) and its largest contentful paint, from the
 * browser's own timings. The bench knows a page has settled once the network has then been quiet for
 * 500 ms and the list's rows or the edit form's title field are visible; those 500 ms are how it
 * knows, not part of the page's time. A render shorter than a long task after the last of these is
 * not seen, so the figure is the page's settling as the browser reports it. One opening of each
 * first, unmeasured (the server's first render of a route), then five; the median is reported, and
 * the slowest. Beside them, the medians of the server's part (the document's first byte), of the last
 * request's end, of the last long task's end and of the moment the quiet was seen.
 */
import { loadavg } from 'node:os'
import type { Page } from 'playwright-core'
import { launchChromium } from '../scripts/chromium'
import { adminToken, BENCH_ADMIN } from './app'

const OPENINGS = 5

export type AdminFigure = {
  page: string
  /** The settled page (the latest of the last request's end, the last long task's and the largest paint), median. */
  medianMs: number
  slowestMs: number
  /** When the bench saw it settled: 500 ms of quiet after it, and the page's element visible. Median. */
  seenMs: number
  /** The document's first byte (the server's render), median. */
  firstByteMs: number
  /** The end of the last request the page made, median. */
  lastRequestMs: number
  /** The end of the page's last long task or its largest contentful paint, whichever is later, median. */
  lastRenderMs: number
  /** The machine's load average over the last minute, after the openings: the machine is shared. */
  loadAverage: number
  /** The requests of the median opening after its document, in the order they started. */
  requests: RequestTiming[]
}

/** One request a page made, from the navigation's start: what it asked for, when it started and ended. */
export type RequestTiming = { name: string; startMs: number; endMs: number }

type Opening = {
  ms: number
  seenMs: number
  firstByteMs: number
  lastRequestMs: number
  lastRenderMs: number
  requests: RequestTiming[]
}

/** Where the page keeps the ends of its long tasks and paints (`recordRendering`). */
const RENDERING = '__benchRendering'

type Rendering = { ends: number[] }
type Recorded = Record<string, Rendering | undefined>

/**
 * Installed in every page before its own scripts: Chromium reports long tasks and the largest
 * contentful paint only to an observer. No function is named inside it: the page runs its source,
 * where the bench's TypeScript loader wraps named functions in a helper the page does not have.
 */
function recordRendering(key: string) {
  const rendering: Rendering = { ends: [] }
  ;(window as unknown as Recorded)[key] = rendering
  for (const type of ['longtask', 'largest-contentful-paint'])
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        rendering.ends.push(entry.startTime + (type === 'longtask' ? entry.duration : 0))
    }).observe({ type, buffered: true })
}

async function settled(page: Page, url: string, visible: string): Promise<Opening> {
  const started = performance.now()
  await page.goto(url, { waitUntil: 'networkidle' })
  await page.locator(visible).first().waitFor({ state: 'visible' })
  const seenMs = performance.now() - started
  const [firstByteMs, lastRequestMs, lastRenderMs, requests] = await page.evaluate((key) => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
      (entry) => {
        const url = new URL(entry.name)
        return {
          name: `${entry.initiatorType} ${url.pathname}${url.search}`,
          startMs: Math.round(entry.startTime),
          endMs: Math.round(entry.responseEnd),
        }
      },
    )
    return [
      navigation?.responseStart ?? 0,
      Math.max(navigation?.responseEnd ?? 0, ...resources.map((request) => request.endMs)),
      Math.round(Math.max(0, ...((window as unknown as Recorded)[key]?.ends ?? []))),
      resources,
    ] as const
  }, RENDERING)
  return {
    ms: Math.max(lastRequestMs, lastRenderMs),
    seenMs,
    firstByteMs,
    lastRequestMs,
    lastRenderMs,
    requests,
  }
}

const median = (values: number[]) =>
  Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!)

/**
 * The median opening's requests in a line: the static files (scripts, styles, images) counted with
 * the end of the last, then each request to the server's API or pages, from its start to its end.
 */
export function requestSummary(requests: RequestTiming[]): string {
  const isStatic = (request: RequestTiming) => request.name.includes('/_next/static/')
  const files = requests.filter(isStatic)
  const asked = requests
    .filter((request) => !isStatic(request))
    .map((request) => `${request.name.slice(0, 80)} ${request.startMs}–${request.endMs} ms`)
  return [
    `${files.length} static files, the last ending at ${Math.max(0, ...files.map((file) => file.endMs))} ms`,
    ...asked,
  ].join('; ')
}

const medianOpening = (openings: Opening[]) =>
  [...openings].sort((a, b) => a.ms - b.ms)[Math.floor(openings.length / 2)]!

/**
 * The list and the edit page of `eventId`, opened by the bench's administrator on the app at `base`,
 * registered first if the app has no user yet: a run of (v) alone signs no one else in.
 */
export async function adminOpenings(base: string, eventId: number): Promise<AdminFigure[]> {
  await adminToken(base)
  const browser = await launchChromium()
  try {
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
    })
    context.setDefaultTimeout(120_000)
    await context.addInitScript(recordRendering, RENDERING)
    const page = await context.newPage()
    await page.goto(`${base}/admin/login`)
    await page.locator('#field-email').fill(BENCH_ADMIN.email)
    await page.locator('#field-password').fill(BENCH_ADMIN.password)
    await page.locator('form button[type="submit"]').click()
    await page.waitForURL(
      (url) => url.pathname.startsWith('/admin') && !url.pathname.includes('/login'),
    )
    const figures: AdminFigure[] = []
    for (const [name, url, visible] of [
      ['events list', `${base}/admin/collections/events`, 'table tbody tr'],
      ['event edit page', `${base}/admin/collections/events/${eventId}`, '#field-title'],
    ] as const) {
      await settled(page, url, visible)
      const openings: Opening[] = []
      for (let n = 0; n < OPENINGS; n++) openings.push(await settled(page, url, visible))
      figures.push({
        page: name,
        medianMs: median(openings.map((o) => o.ms)),
        slowestMs: Math.round(Math.max(...openings.map((o) => o.ms))),
        seenMs: median(openings.map((o) => o.seenMs)),
        firstByteMs: median(openings.map((o) => o.firstByteMs)),
        lastRequestMs: median(openings.map((o) => o.lastRequestMs)),
        lastRenderMs: median(openings.map((o) => o.lastRenderMs)),
        loadAverage: loadavg()[0]!,
        requests: medianOpening(openings).requests,
      })
    }
    return figures
  } finally {
    await browser.close()
  }
}
