/**
 * The interactive API reference in a real Chromium: the page renders /doc with Swagger UI
 * served by this server, the events list operation opens and shows its parameters, and no request
 * leaves the machine (no CDN, no validator badge, no telemetry).
 */
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser } from '../support/admin'
import { asAdmin, BASE_URL, NS } from '../support/api'
import { resultsDir, TIMEOUT } from '../support/browser'

let browser: AdminBrowser
let page: Page
/** Every request the page made that was not for this machine (each one is refused). */
const outside: string[] = []
const requested: string[] = []

beforeAll(async () => {
  browser = await AdminBrowser.open('reference')
  page = browser.page
  await page.context().route('**/*', (route) => {
    const url = new URL(route.request().url())
    requested.push(url.href)
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1') {
      outside.push(url.href)
      return route.abort()
    }
    return route.continue()
  })
})

afterAll(async () => {
  await browser?.close()
})

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

    await browser.step('open', async () => {
      await page.goto(`${BASE_URL}${NS}/reference`)
      await page
        .locator('.swagger-ui .info .title', { hasText: 'Events Calendar REST API' })
        .waitFor()
    })

    const operation = page.locator('#operations-Events-getEvents')
    await browser.step('expand-events-list', async () => {
      await operation.waitFor()
      expect((await operation.locator('.opblock-summary-path').textContent())?.trim()).toBe(
        '/events',
      )
      await operation.locator('.opblock-summary-control').click()
      await operation.locator('.parameters-container').waitFor()
    })

    await browser.step('parameters', async () => {
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

    await browser.step('server', async () => {
      const server = page.locator('.servers select option').first()
      expect(await server.getAttribute('value')).toBe(`${BASE_URL}${NS}`)
    })
    await page.screenshot({ path: path.join(resultsDir, 'reference-events.png'), fullPage: false })

    await browser.step('french-root', async () => {
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
    expect(browser.pageErrors, 'uncaught errors in the page').toEqual([])
  }, 180_000)

  it('is linked from the admin’s navigation', async () => {
    await asAdmin()
    await browser.step('sign-in', browser.signIn)
    await browser.step('admin-link', async () => {
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
