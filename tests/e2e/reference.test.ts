/**
 * The interactive API reference in a real Chromium: the page renders /doc with Swagger UI
 * served by this server, the events list operation opens and shows its parameters, and no request
 * leaves the machine (no CDN, no validator badge, no telemetry).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, NS } from '../support/api'

const CHROMIUM = '/usr/bin/chromium'
const TIMEOUT = 60_000
const ADMIN = { email: 'admin@calendar.test', password: 'admin-password-1' }
const resultsDir = path.resolve(import.meta.dirname, '..', '..', 'test-results')

let browser: Browser | undefined
let page: Page
const pageErrors: string[] = []
/** Every request the page made that was not for this machine (each one is refused). */
const outside: string[] = []
const requested: string[] = []

beforeAll(async () => {
  mkdirSync(resultsDir, { recursive: true })
  expect(
    existsSync(CHROMIUM),
    `${CHROMIUM} is missing: install it (apt-get install -y chromium), as .ci/run does`,
  ).toBe(true)
  browser = await chromium.launch({
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
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
  })
  context.setDefaultTimeout(TIMEOUT)
  context.setDefaultNavigationTimeout(TIMEOUT)
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url())
    requested.push(url.href)
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1') {
      outside.push(url.href)
      return route.abort()
    }
    return route.continue()
  })
  page = await context.newPage()
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`))
})

afterAll(async () => {
  await browser?.close()
})

async function step<T>(name: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body()
  } catch (error) {
    try {
      await page.screenshot({
        path: path.join(resultsDir, `reference-failure-${name}.png`),
        fullPage: true,
      })
      writeFileSync(path.join(resultsDir, `reference-failure-${name}.html`), await page.content())
    } catch {
      // the page itself is gone
    }
    const errors = pageErrors.length ? `\npage errors:\n${pageErrors.join('\n')}` : ''
    throw new Error(
      `${name} (at ${page.url()}): ${error instanceof Error ? error.message : error}${errors}`,
      { cause: error },
    )
  }
}

/** Waits until the element lies inside the viewport (the navigation slides in). */
async function eventuallyInView(locator: ReturnType<Page['locator']>): Promise<void> {
  const deadline = Date.now() + TIMEOUT
  for (;;) {
    const box = await locator.boundingBox()
    if (box && box.x >= 0 && box.x + box.width <= 1280) return
    if (Date.now() > deadline) throw new Error(`not in view: ${JSON.stringify(box)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('the API reference in a browser', () => {
  it('renders /doc and shows the parameters of GET /events, with nothing fetched from elsewhere', async () => {
    expect(new URL(BASE_URL).hostname, 'the test server must be on 127.0.0.1').toBe('127.0.0.1')

    await step('open', async () => {
      await page.goto(`${BASE_URL}${NS}/reference`)
      await page
        .locator('.swagger-ui .info .title', { hasText: 'Events Calendar REST API' })
        .waitFor()
    })

    const operation = page.locator('#operations-Events-getEvents')
    await step('expand-events-list', async () => {
      await operation.waitFor()
      expect((await operation.locator('.opblock-summary-path').textContent())?.trim()).toBe(
        '/events',
      )
      await operation.locator('.opblock-summary-control').click()
      await operation.locator('.parameters-container').waitFor()
    })

    await step('parameters', async () => {
      for (const name of [
        'per_page',
        'page',
        'start_date',
        'end_date',
        'categories',
        'i18n_language',
      ]) {
        await operation.locator(`tr[data-param-name="${name}"]`).waitFor()
      }
      expect(
        await operation.locator('tr[data-param-name="start_date"] .parameter__in').textContent(),
      ).toMatch(/query/)
      // The success answer is documented with its schema.
      await operation.locator('.responses-table .response[data-code="200"]').waitFor()
    })

    await step('server', async () => {
      const server = page.locator('.servers select option').first()
      expect(await server.getAttribute('value')).toBe(`${BASE_URL}${NS}`)
    })
    await page.screenshot({ path: path.join(resultsDir, 'reference-events.png'), fullPage: false })

    await step('french-root', async () => {
      await page.goto(`${BASE_URL}/fr${NS}/reference`)
      await page.locator('#operations-Events-getEvents').waitFor()
      expect(await page.locator('.servers select option').first().getAttribute('value')).toBe(
        `${BASE_URL}/fr${NS}`,
      )
    })

    expect(
      requested.some((url) => url.startsWith(`${BASE_URL}${NS}/reference/swagger-ui-bundle.js`)),
    ).toBe(true)
    expect(requested.some((url) => url.startsWith(`${BASE_URL}${NS}/doc`))).toBe(true)
    expect(outside, 'requests that left the machine').toEqual([])
    expect(pageErrors, 'uncaught errors in the page').toEqual([])
  }, 180_000)

  it('is linked from the admin’s navigation', async () => {
    await asAdmin()
    await step('admin-link', async () => {
      await page.goto(`${BASE_URL}/admin/login`)
      await page.locator('#field-email').fill(ADMIN.email)
      await page.locator('#field-password').fill(ADMIN.password)
      await page.locator('form button[type="submit"]').click()
      await page.waitForURL(
        (url) => url.pathname.startsWith('/admin') && !url.pathname.includes('/login'),
      )
      const link = page.locator('#nav-api-reference')
      await link.waitFor({ state: 'attached' })
      // The navigation may start closed (a preference Payload keeps per user): open it as an editor would.
      if (!(await page.locator('.nav-toggler--is-open').count()))
        await page.locator('.nav-toggler').first().click()
      await page.locator('.nav-toggler--is-open').first().waitFor()
      await link.waitFor({ state: 'visible' })
      await eventuallyInView(link)
      expect(await link.getAttribute('href')).toBe(`${NS}/reference`)
      expect((await link.textContent())?.trim()).toBe('API reference')
      await page.screenshot({
        path: path.join(resultsDir, 'reference-admin-nav.png'),
        fullPage: false,
      })
    })
    expect(outside, 'requests that left the machine').toEqual([])
  }, 180_000)
})
