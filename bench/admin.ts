/**
 * The admin in Chromium (v): how long the events list and an event's edit page take to open, signed
 * in, from the navigation's start to a settled page (no network traffic for 500 ms, and the list's
 * rows or the edit form's title field visible). One opening of each first, unmeasured (the server's
 * first render of a route), then five; the median is reported, and the slowest.
 */
import { chromium, type Page } from 'playwright-core'

const CHROMIUM = '/usr/bin/chromium'
const OPENINGS = 5

export type AdminFigure = { page: string; medianMs: number; slowestMs: number }

async function settled(page: Page, url: string, visible: string): Promise<number> {
  const started = performance.now()
  await page.goto(url, { waitUntil: 'networkidle' })
  await page.locator(visible).first().waitFor({ state: 'visible' })
  return performance.now() - started
}

/** The list and the edit page of `eventId`, opened by the administrator `credentials` on the app at `base`. */
export async function adminOpenings(
  base: string,
  credentials: { email: string; password: string },
  eventId: number,
): Promise<AdminFigure[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    const context = await browser.newContext({
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
    })
    context.setDefaultTimeout(120_000)
    const page = await context.newPage()
    await page.goto(`${base}/admin/login`)
    await page.locator('#field-email').fill(credentials.email)
    await page.locator('#field-password').fill(credentials.password)
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
      const times: number[] = []
      for (let n = 0; n < OPENINGS; n++) times.push(await settled(page, url, visible))
      times.sort((a, b) => a - b)
      figures.push({
        page: name,
        medianMs: Math.round(times[Math.floor(OPENINGS / 2)]!),
        slowestMs: Math.round(times.at(-1)!),
      })
    }
    return figures
  } finally {
    await browser.close()
  }
}
