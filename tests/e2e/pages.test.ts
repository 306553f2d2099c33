/**
 * The public pages in a real Chromium (docs/public-face.md "Public pages"), under their own strict
 * Content-Security-Policy: each page reads right on a desktop and on a 360 px phone, axe-core finds no
 * WCAG 2.1 AA violation, the password form works with the keyboard, and `/events/` is whole without
 * the widget's script. Screenshots go to test-results/.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser } from '../support/admin'
import { BASE_URL, unique } from '../support/api'
import { createPageFixtures, pathOf, type PageFixtures } from '../support/pages'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

let browser: AdminBrowser
let f: PageFixtures
const policyViolations: string[] = []

beforeAll(async () => {
  f = await createPageFixtures(unique('e2e'))
  browser = await AdminBrowser.open('pages')
  browser.page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text()))
      policyViolations.push(`${browser.page.url()}: ${message.text()}`)
  })
  // The widget (built apart) replaces what the server rendered: these tests look at the pages without it.
  await browser.page.route('**/calendar/widget.js', (route) => route.abort())
})

afterAll(async () => {
  await browser?.close()
})

/**
 * axe-core's WCAG 2.1 A and AA rules on the page as shown. The page's policy would refuse axe as a
 * script tag (`addScriptTag` writes it inline), so its source is evaluated through the DevTools protocol,
 * which the policy does not govern (nor is it eval within the page, which the policy forbids).
 */
async function expectAccessible(name: string): Promise<void> {
  const { page } = browser
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE)
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: unknown,
          ): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>
        }
      }
    ).axe
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags } })
    return result.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    )
  }, WCAG_21_AA)
  expect(violations, `${name}: ${WCAG_21_AA.join(', ')}`).toEqual([])
}

/** The page at a desktop's width and a phone's, checked by axe at each and kept as screenshots. */
async function visit(path: string, name: string): Promise<void> {
  const { page, step, screenshot } = browser
  await step(name, async () => {
    for (const [width, label] of [
      [1280, 'desktop'],
      [360, '360'],
    ] as const) {
      await page.setViewportSize({ width, height: 800 })
      const response = await page.goto(`${BASE_URL}${path}`)
      expect(response?.status()).toBe(200)
      await expectAccessible(`${name} at ${width} px`)
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true)
      await screenshot(`${name}-${label}`)
    }
  })
}

describe('the public pages in a browser', () => {
  it('shows an event, its venue, organizer, category and tag, accessibly at 1280 and 360 px', async () => {
    await visit(pathOf(f.event.url), 'event')
    expect(await browser.page.locator('h1').textContent()).toBe(f.event.title)
    await visit(pathOf(f.venue.url), 'venue')
    await visit(pathOf(f.organizer.url), 'organizer')
    await visit(pathOf(f.category.url), 'category')
    await visit(pathOf(f.label.url), 'tag')
    expect(policyViolations).toEqual([])
  })

  it('shows the month and the list on /events/ without the widget, and Arabic right to left', async () => {
    await visit(`/events/?month=${f.event.start_date.slice(0, 7)}`, 'events-month')
    const { page } = browser
    await expect(page.locator(`cal-events td a[href="${f.event.url}"]`).count()).resolves.toBe(1)
    await visit('/events/?view=list', 'events-list')
    await visit('/ar/events/?view=list', 'events-list-ar')
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
    expect(policyViolations).toEqual([])
  })

  it('unlocks a protected event from its form, with the keyboard', async () => {
    const { page, step, screenshot } = browser
    await visit(pathOf(f.locked.url), 'locked')
    await step('unlock', async () => {
      await page.setViewportSize({ width: 360, height: 800 })
      await page.goto(`${BASE_URL}${pathOf(f.locked.url)}`)
      await page.keyboard.press('Tab')
      await page.keyboard.press('Tab')
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('password')
      await page.keyboard.type('not it')
      await page.keyboard.press('Enter')
      await page.locator('[role="alert"]').waitFor()
      await expectAccessible('wrong password')
      await page.locator('#password').fill('open sesame')
      await page.keyboard.press('Enter')
      await page.locator('.description').waitFor()
      expect(await page.locator('.description').textContent()).toBe('The secret programme.')
      await screenshot('unlocked-360')
    })
    expect(policyViolations).toEqual([])
  })
})
