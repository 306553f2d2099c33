/**
 * The admin in a real Chromium (`browser.ts`), signed in as the administrator, with a screenshot and
 * the page's HTML kept when a step fails.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'
import { BASE_URL } from './api'
import { launchChromium, openPage, resultsDir, TIMEOUT } from './browser'

const ADMIN = { email: 'admin@calendar.test', password: 'admin-password-1' }

/** Its methods are bound, so a test can destructure them. */
export class AdminBrowser {
  readonly pageErrors: string[] = []

  private constructor(
    private readonly browser: Browser,
    readonly page: Page,
    /** Names the failure captures: `{prefix}-failure-{step}.png`. */
    private readonly prefix: string,
  ) {
    page.on('pageerror', (error) => this.pageErrors.push(`${page.url()}: ${error.message}`))
  }

  static async open(prefix: string, timezoneId = 'UTC'): Promise<AdminBrowser> {
    const browser = await launchChromium()
    // The browser's own zone: the event forms must not depend on it (docs/api.md §21).
    return new AdminBrowser(browser, await openPage(browser, { timezoneId }), prefix)
  }

  /** `open`, then signed in as the administrator: what each admin test file starts from. */
  static async signedIn(prefix: string): Promise<AdminBrowser> {
    const admin = await AdminBrowser.open(prefix)
    await admin.step('sign-in', admin.signIn)
    return admin
  }

  close(): Promise<void> {
    return this.browser.close()
  }

  /** A screen the test made, saved for people to look at after the run: `{prefix}-{name}.png`. */
  screenshot = async (name: string): Promise<void> => {
    await this.page.screenshot({
      path: path.join(resultsDir, `${this.prefix}-${name}.png`),
      fullPage: true,
    })
  }

  /** On failure, what the browser showed: a screenshot and the page's HTML next to it. */
  private captureFailure = async (name: string): Promise<void> => {
    try {
      await this.page.screenshot({
        path: path.join(resultsDir, `${this.prefix}-failure-${name}.png`),
        fullPage: true,
      })
      writeFileSync(
        path.join(resultsDir, `${this.prefix}-failure-${name}.html`),
        await this.page.content(),
      )
    } catch {
      // the page itself is gone
    }
  }

  step = async <T>(name: string, body: () => Promise<T>): Promise<T> => {
    try {
      return await body()
    } catch (error) {
      await this.captureFailure(name)
      const errors = this.pageErrors.length ? `\npage errors:\n${this.pageErrors.join('\n')}` : ''
      throw new Error(
        `${name} (at ${this.page.url()}): ${error instanceof Error ? error.message : error}${errors}`,
        { cause: error },
      )
    }
  }

  signIn = async (): Promise<void> => {
    const { page } = this
    await page.goto(`${BASE_URL}/admin/login`)
    await page.locator('#field-email').fill(ADMIN.email)
    await page.locator('#field-password').fill(ADMIN.password)
    await page.locator('form button[type="submit"]').click()
    await page.waitForURL(
      (url) => url.pathname.startsWith('/admin') && !url.pathname.includes('/login'),
    )
    // The dashboard lists the calendar's collections.
    await page.locator('a[href="/admin/collections/events"]').first().waitFor()
  }

  /** Payload's confirmation toast after a save. */
  toast = async (text: string): Promise<void> => {
    await this.page.locator('.payload-toast-container').getByText(text).first().waitFor()
  }

  /**
   * Clicks Save on a document already saved and waits for this save's confirmation: an earlier save's
   * toast, still on screen, would otherwise pass for it before the save has reached the database.
   */
  saveChanges = async (): Promise<void> => {
    const confirmations = this.page
      .locator('.payload-toast-container')
      .getByText('Updated successfully.')
    await confirmations.first().waitFor({ state: 'detached', timeout: 30_000 })
    await this.page.locator('#action-save').click()
    await this.toast('Updated successfully.')
  }

  /** Clicks Save on a new document, waits for Payload's confirmation; returns the new id from the URL. */
  saveNew = async (collection: string, label: string): Promise<string> => {
    await this.page.locator('#action-save').click()
    await this.toast(`${label} successfully created.`)
    await this.page.waitForURL(new RegExp(`/admin/collections/${collection}/\\d+`))
    const id = new URL(this.page.url()).pathname.split('/').at(-1)!
    expect(id).toMatch(/^\d+$/)
    return id
  }

  /** The locale the admin's header switcher shows. */
  currentLocale = (): Promise<string | null> => {
    return this.page
      .getByRole('button', { name: 'Locale' })
      .locator('.localizer-button__current-label')
      .textContent()
  }

  /** A react-select (select or relationship field): open it, optionally type, click the option. */
  choose = async (fieldId: string, option: string, type?: string): Promise<void> => {
    const field = this.page.locator(`#${fieldId}`)
    await field.locator('.rs__control').click()
    if (type) await field.locator('.rs__input').fill(type)
    await this.page.locator('.rs__option', { hasText: option }).first().click()
    // The chosen value's label (relationship values also hold an Edit button).
    await eventually(() => field.locator('.value-container').getAttribute('title')).toBe(option)
  }

  /**
   * An event's zone, from the searchable list, found by typing its name. Up to three tries: once on
   * CI (stop 30), the choice made just after a new event's first save showed no value at all for a
   * minute, which a person would see and choose again. What the list showed each time is kept as
   * `{prefix}-failure-zone-retry-{n}` and the log says so; the save that follows is checked through the API either way.
   */
  chooseZone = async (zone: string): Promise<void> => {
    const field = this.page.locator('#field-timezone')
    const chosen = field.locator('.rs__single-value', { hasText: zone })
    for (let attempt = 1; ; attempt++) {
      await field.locator('.rs__control').click()
      await field.locator('.rs__input').fill(zone)
      await this.page
        .locator('.rs__option', { hasText: `${zone} (UTC` })
        .first()
        .click()
      try {
        await chosen.waitFor({ timeout: attempt < 3 ? 15_000 : TIMEOUT })
        return
      } catch (error) {
        if (attempt === 3) throw error
        await this.captureFailure(`zone-retry-${attempt}`)
        console.warn(
          `${this.prefix}: the zone ${zone} did not show after try ${attempt}; choosing again`,
        )
        await this.page.keyboard.press('Escape')
      }
    }
  }

  /** An event's start or end, as the wall clock of the event's zone: `2031-06-12T19:30`. */
  setDate = async (fieldId: string, wallClock: string): Promise<void> => {
    const input = this.page.locator(`#${fieldId}-input`)
    await input.fill(wallClock)
    await eventually(() => input.inputValue()).toBe(wallClock)
  }
}

/** expect.poll with the page's patience: a cold production admin can take seconds per view. */
export function eventually<T>(read: () => Promise<T>) {
  return expect.poll(read, { timeout: TIMEOUT, interval: 200 })
}
