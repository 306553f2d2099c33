/**
 * A weekly series made in the admin's recurrence editor, in a real Chromium: the editor writes the
 * rule and shows its summary as it is built, the save materializes the occurrences (read back through
 * the namespace), and the series panel lists them on the first event and names the series on an
 * occurrence.
 */
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser, eventually, resultsDir } from '../support/admin'
import { asAdmin, BASE_URL, call, NS, unique } from '../support/api'

let admin: AdminBrowser | undefined
let token: string

beforeAll(async () => {
  token = await asAdmin()
})

afterAll(async () => {
  await admin?.close()
})

describe('the recurrence editor in a browser', () => {
  it('creates a weekly series on two weekdays ending after five events, and shows it', async () => {
    const title = unique('Rehearsal ')
    admin = await AdminBrowser.open('recurrence')
    const { page, step, choose, setDate, saveNew } = admin
    const summary = page.locator('#recurrence-summary')

    await step('sign-in', admin.signIn)

    const id = await step('build-rule', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/create?locale=en`)
      await page.locator('#field-title').fill(title)
      // Tuesday 3 June 2031, in UTC whatever the site's zone.
      await setDate('field-start', '2031-06-03T19:00')
      await setDate('field-end', '2031-06-03T21:00')
      await page.locator('#field-timezone').fill('UTC')
      await choose('field-status', 'Published')
      await eventually(() => summary.textContent()).toBe('Does not repeat')

      await page.locator('#recurrence-frequency').selectOption('WEEKLY')
      // A new weekly rule starts on the start's weekday.
      await eventually(() => page.locator('#recurrence-weekdays input[value="TU"]').isChecked()).toBe(true)
      await eventually(() => summary.textContent()).toBe('Every week on Tuesday')
      await page.locator('#recurrence-weekdays input[value="TH"]').check()
      await page.locator('#recurrence-end input[value="count"]').check()
      await page.locator('#recurrence-count').fill('5')
      await eventually(() => summary.textContent()).toBe('Every week on Tuesday and Thursday, 5 times')

      // The text view holds what the form wrote.
      await page.locator('#recurrence-mode').click()
      await eventually(() => page.locator('#recurrence-text').inputValue()).toBe('RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=5')
      await page.locator('#recurrence-mode').click()
      await eventually(() => page.locator('#recurrence-count').inputValue()).toBe('5')
      return saveNew('events', 'Event')
    })

    const occurrences = await step('series-panel', async () => {
      await eventually(() => page.locator('#series-count').textContent()).toBe('4 later occurrences:')
      const links = page.locator('#series-occurrences a')
      // ICU puts a narrow no-break space before PM.
      await eventually(async () => (await links.allTextContents()).map((text) => text.replace(/\s/g, ' '))).toEqual([
        'Thu, Jun 5, 2031, 7:00 PM',
        'Tue, Jun 10, 2031, 7:00 PM',
        'Thu, Jun 12, 2031, 7:00 PM',
        'Tue, Jun 17, 2031, 7:00 PM',
      ])
      // After the save, the form reads the stored rule back.
      await eventually(() => summary.textContent()).toBe('Every week on Tuesday and Thursday, 5 times')
      await page.screenshot({ path: path.join(resultsDir, 'admin-recurrence.png'), fullPage: true })
      return links.evaluateAll((anchors) => anchors.map((anchor) => new URL((anchor as HTMLAnchorElement).href).pathname))
    })

    await step('occurrence', async () => {
      await page.goto(`${BASE_URL}${occurrences[0]}`)
      await eventually(() => page.locator('#series-parent').textContent()).toBe(title)
      expect(await page.locator('#series-parent').getAttribute('href')).toBe(`/admin/collections/events/${id}`)
      await eventually(() => page.locator('#series-exception').textContent()).toMatch(/^Follows its series/)
      // An occurrence has no rule of its own: the editor says what giving it one would do.
      await eventually(() => summary.textContent()).toBe('Does not repeat')
      await page.getByText('a rule here splits the series at this event').waitFor()
    })

    // What the save made, as the namespace serves it.
    const stored = await call(`/api/events/${id}`, { token })
    expect(stored.body.recurrence).toBe('RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=5')
    const series = await call(`${NS}/events?post_parent=${id}&start_date=2031-06-01&end_date=2031-12-31&per_page=50`, { token })
    expect(series.status).toBe(200)
    expect(series.body.total).toBe(4)
    expect(series.body.events.map((event: any) => [event.start_date, event.end_date])).toEqual([
      ['2031-06-05 19:00:00', '2031-06-05 21:00:00'],
      ['2031-06-10 19:00:00', '2031-06-10 21:00:00'],
      ['2031-06-12 19:00:00', '2031-06-12 21:00:00'],
      ['2031-06-17 19:00:00', '2031-06-17 21:00:00'],
    ])
    expect(series.body.events.map((event: any) => `${BASE_URL}/admin/collections/events/${event.id}`)).toEqual(occurrences.map((href) => `${BASE_URL}${href}`))
    expect(admin.pageErrors, 'uncaught errors in the admin').toEqual([])
  }, 240_000)
})
