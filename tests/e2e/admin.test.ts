/**
 * An editor's day in the admin, in a real Chromium: sign in, create a published venue, create an
 * event at that venue, give it a French title through the locale switcher, and find it in the
 * events list; then import a CSV file through the Imports screen. What the browser saved is then
 * checked through the REST API.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, call, unique } from '../support/api'

const CHROMIUM = '/usr/bin/chromium'
const ADMIN = { email: 'admin@calendar.test', password: 'admin-password-1' }
const TIMEOUT = 60_000
const resultsDir = path.resolve(import.meta.dirname, '..', '..', 'test-results')

let browser: Browser | undefined
let page: Page
let token: string
const pageErrors: string[] = []

beforeAll(async () => {
  token = await asAdmin()
  mkdirSync(resultsDir, { recursive: true })
})

/** Headless Chromium, as CI has it; a missing browser fails the test rather than skipping it. */
async function openBrowser(): Promise<void> {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install it (apt-get install -y chromium), as .ci/run does`).toBe(true)
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  // UTC, so that what is typed into the date pickers is the instant the API returns.
  const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-US', viewport: { width: 1280, height: 900 } })
  context.setDefaultTimeout(TIMEOUT)
  context.setDefaultNavigationTimeout(TIMEOUT)
  page = await context.newPage()
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`))
}

afterAll(async () => {
  await browser?.close()
})

/** On failure, what the browser showed: a screenshot and the page's HTML next to it. */
async function captureFailure(name: string): Promise<void> {
  try {
    await page.screenshot({ path: path.join(resultsDir, `${name}.png`), fullPage: true })
    writeFileSync(path.join(resultsDir, `${name}.html`), await page.content())
  } catch {
    // the page itself is gone
  }
}

async function step<T>(name: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body()
  } catch (error) {
    await captureFailure(`admin-failure-${name}`)
    const errors = pageErrors.length ? `\npage errors:\n${pageErrors.join('\n')}` : ''
    throw new Error(`${name} (at ${page.url()}): ${error instanceof Error ? error.message : error}${errors}`, { cause: error })
  }
}

/** Payload's confirmation toast after a save. */
async function toast(text: string): Promise<void> {
  await page.locator('.payload-toast-container').getByText(text).first().waitFor()
}

/** Clicks Save on a new document, waits for Payload's confirmation; returns the new id from the URL. */
async function saveNew(collection: string, label: string): Promise<string> {
  await page.locator('#action-save').click()
  await toast(`${label} successfully created.`)
  await page.waitForURL(new RegExp(`/admin/collections/${collection}/\\d+`))
  const id = new URL(page.url()).pathname.split('/').at(-1)!
  expect(id).toMatch(/^\d+$/)
  return id
}

/** expect.poll with the page's patience: a cold production admin can take seconds per view. */
function eventually<T>(read: () => Promise<T>) {
  return expect.poll(read, { timeout: TIMEOUT, interval: 200 })
}

/** The locale the admin's header switcher shows. */
function currentLocale(): Promise<string | null> {
  return page.getByRole('button', { name: 'Locale' }).locator('.localizer-button__current-label').textContent()
}

/** A react-select (select or relationship field): open it, optionally type, click the option. */
async function choose(fieldId: string, option: string, type?: string): Promise<void> {
  const field = page.locator(`#${fieldId}`)
  await field.locator('.rs__control').click()
  if (type) await field.locator('.rs__input').fill(type)
  await page.locator('.rs__option', { hasText: option }).first().click()
  // The chosen value's label (relationship values also hold an Edit button).
  await eventually(() => field.locator('.value-container').getAttribute('title')).toBe(option)
}

/** A Payload date field with time: typed in its picker's display format, then confirmed. */
async function setDate(fieldId: string, display: string): Promise<void> {
  const input = page.locator(`#${fieldId} .date-time-picker input`)
  await input.click()
  await input.fill(display)
  await input.press('Enter')
  await page.keyboard.press('Escape')
  await eventually(() => input.inputValue()).toBe(display)
}

describe('the admin in a browser', () => {
  it('creates a venue and a bilingual event at it, and lists the event', async () => {
    const venueName = unique('Venue ')
    const englishTitle = unique('Harvest concert ')
    const frenchTitle = `Concert des vendanges ${englishTitle.split(' ').at(-1)}`
    await openBrowser()

    await step('sign-in', async () => {
      await page.goto(`${BASE_URL}/admin/login`)
      await page.locator('#field-email').fill(ADMIN.email)
      await page.locator('#field-password').fill(ADMIN.password)
      await page.locator('form button[type="submit"]').click()
      await page.waitForURL((url) => url.pathname.startsWith('/admin') && !url.pathname.includes('/login'))
      // The dashboard lists the calendar's collections.
      await page.locator('a[href="/admin/collections/events"]').first().waitFor()
    })

    const venueId = await step('create-venue', async () => {
      // In English whatever locale the admin last used (Payload remembers it per user).
      await page.goto(`${BASE_URL}/admin/collections/venues/create?locale=en`)
      await eventually(() => currentLocale()).toBe('English')
      await page.locator('#field-name').fill(venueName)
      await choose('field-status', 'Published')
      return saveNew('venues', 'Venue')
    })

    const eventId = await step('create-event', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/create?locale=en`)
      await eventually(() => currentLocale()).toBe('English')
      await page.locator('#field-title').fill(englishTitle)
      await setDate('field-start', 'Jun 12, 2031 7:30 PM')
      await setDate('field-end', 'Jun 12, 2031 10:00 PM')
      await choose('field-venue', venueName, venueName)
      await choose('field-status', 'Published')
      return saveNew('events', 'Event')
    })

    await step('translate-event', async () => {
      // The locale switcher in the header, as an editor would use it.
      await page.getByRole('button', { name: 'Locale' }).click()
      await page.locator('.popup-button-list__button', { hasText: 'Français' }).click()
      await page.waitForURL(/[?&]locale=fr/)
      await eventually(() => currentLocale()).toBe('Français')
      // The form now edits the French version of the event.
      await page.locator('label[for="field-title"]', { hasText: 'Français' }).waitFor()
      await page.locator('#field-title').fill(frenchTitle)
      await page.locator('#action-save').click()
      await toast('Updated successfully.')
    })

    await step('find-in-list', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events?locale=fr&search=${encodeURIComponent(frenchTitle)}`)
      const row = page.locator('table tbody tr', { hasText: frenchTitle })
      await row.waitFor()
      await eventually(() => row.count()).toBe(1)
      await eventually(() => row.locator(`a[href*="/admin/collections/events/${eventId}"]`).count()).toBeGreaterThan(0)
      // The venue column resolves the relationship (it shows "Loading..." first).
      await row.getByText(venueName).waitFor()
      await row.getByText('Published').waitFor()
      await page.screenshot({ path: path.join(resultsDir, 'admin-events-list.png'), fullPage: true })
    })

    // What the browser saved, as the API serves it.
    const french = await call(`/api/events/${eventId}?locale=fr&depth=1`, { token })
    expect(french.status).toBe(200)
    expect(french.body.title).toBe(frenchTitle)
    expect(french.body.venue?.id).toBe(Number(venueId))
    expect(french.body.venue?.name).toBe(venueName)
    expect(french.body.status).toBe('publish')
    expect(french.body.start).toBe('2031-06-12T19:30:00.000Z')
    expect(french.body.end).toBe('2031-06-12T22:00:00.000Z')
    const english = await call(`/api/events/${eventId}?locale=en`, { token })
    expect(english.body.title).toBe(englishTitle)
    const all = await call(`/api/events/${eventId}?locale=all`, { token })
    expect(all.body.title).toMatchObject({ en: englishTitle, fr: frenchTitle })
    // Published in the admin means public: an anonymous reader sees the venue too.
    const venue = await call(`/api/venues/${venueId}`)
    expect(venue.status).toBe(200)
    expect(venue.body.name).toBe(venueName)
    expect(pageErrors, 'uncaught errors in the admin').toEqual([])
  }, 240_000)

  it('imports a CSV file uploaded on the Imports screen', async () => {
    const word = unique('admincsv')
    const csv = `Event Name,Event Start Date,Event Start Time,Event Venue Name\n${word} one,2031-07-01,18:00,${word} Hall\n${word} two,07/02/2031,6:30 pm,${word} Hall\n`
    expect(browser, 'the first test opened the browser and signed in').toBeDefined()

    const importId = await step('upload-csv', async () => {
      await page.goto(`${BASE_URL}/admin/collections/imports/create`)
      await page.locator('input[type="file"]').setInputFiles({ name: `${word}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) })
      await choose('field-kind', 'Events')
      return saveNew('imports', 'Import')
    })

    // What the server's own polling of the jobs queue does within a minute, now.
    expect((await call('/api/payload-jobs/run?queue=calendar', { token })).status).toBe(200)

    await step('see-the-result', async () => {
      await page.reload()
      await eventually(() => page.locator('#field-status .value-container').getAttribute('title')).toBe('Done')
      await eventually(() => page.locator('#field-created').inputValue()).toBe('3')
      await eventually(() => page.locator('#field-failed').inputValue()).toBe('0')
      await page.screenshot({ path: path.join(resultsDir, 'admin-import.png'), fullPage: true })
    })

    const record = await call(`/api/imports/${importId}`, { token })
    expect(record.body).toMatchObject({ status: 'done', created: 3, total: 2, done: 2, sourceFile: `${word}.csv` })
    const events = await call(`/api/events?where[title][like]=${word}&sort=start&depth=1`, { token })
    expect(events.body.docs.map((event: any) => [event.title, event.start, event.venue?.name])).toEqual([
      [`${word} one`, '2031-07-01T18:00:00.000Z', `${word} Hall`],
      [`${word} two`, '2031-07-02T18:30:00.000Z', `${word} Hall`],
    ])
    expect(pageErrors, 'uncaught errors in the admin').toEqual([])
  }, 240_000)
})
