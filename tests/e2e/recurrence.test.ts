/**
 * A weekly series made in the admin's recurrence editor, in a real Chromium: the editor writes the
 * rule and shows its summary as it is built, the save materializes the occurrences (read back through
 * the namespace), and the series panel lists them on the first event and names the series on an
 * occurrence.
 */
import { DateTime } from 'luxon'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser, eventually } from '../support/admin'
import { resultsDir } from '../support/browser'
import { asAdmin, BASE_URL, call, NS, unique } from '../support/api'

let admin: AdminBrowser | undefined
let token: string

/**
 * A Tuesday at 19:00 UTC two months ahead: occurrences are made up to the horizon (24 months by
 * default), so the series must start within it whenever the test runs.
 */
const START = DateTime.utc()
  .plus({ months: 2 })
  .startOf('week')
  .plus({ days: 1 })
  .set({ hour: 19 })
  .setLocale('en-US')
/** The four later events of "Tuesdays and Thursdays, 5 times". */
const LATER = [2, 7, 9, 14].map((days) => START.plus({ days }))
/** What the admin's start and end inputs take: the event zone's wall clock. */
const picker = (date: DateTime) => date.toFormat("yyyy-MM-dd'T'HH:mm")
const wallClock = (date: DateTime) => date.toFormat('yyyy-MM-dd HH:mm:ss')

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
    const { page, step, choose, chooseZone, setDate, saveNew } = admin
    const summary = page.locator('#recurrence-summary')

    await step('sign-in', admin.signIn)

    const id = await step('build-rule', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/create?locale=en`)
      await page.locator('#field-title').fill(title)
      // In UTC whatever the site's zone.
      await setDate('field-start', picker(START))
      await setDate('field-end', picker(START.plus({ hours: 2 })))
      await chooseZone('UTC')
      await choose('field-status', 'Published')
      await eventually(() => summary.textContent()).toBe('Does not repeat')

      // A monthly rule by position, with an excluded day.
      await page.locator('#recurrence-frequency').selectOption('MONTHLY')
      await page.locator('#recurrence-monthly input[value="position"]').check()
      await page.locator('#recurrence-position').selectOption('-1')
      await page.locator('#recurrence-position-weekday').selectOption('FR')
      await eventually(() => summary.textContent()).toBe('Every month on the last Friday')
      const excluded = START.plus({ months: 1 })
      await page.locator('#recurrence-exdates input[type="date"]').fill(excluded.toISODate()!)
      await page.locator('#recurrence-exdates').getByRole('button', { name: 'Add' }).click()
      await eventually(() => summary.textContent()).toBe(
        `Every month on the last Friday; except ${excluded.toFormat('LLLL d, yyyy')}`,
      )

      // A rule the form cannot hold is edited as text, and read all the same.
      await page.locator('#recurrence-mode').click()
      await eventually(() => page.locator('#recurrence-text').inputValue()).toBe(
        `RRULE:FREQ=MONTHLY;BYDAY=-1FR\nEXDATE:${excluded.toFormat('yyyyMMdd')}`,
      )
      await page.locator('#recurrence-text').fill('RRULE:FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=14')
      await eventually(() => summary.textContent()).toBe('Every year on July 14')
      await page.locator('#recurrence-mode').click()
      await page.getByText('This rule has parts the form cannot show').waitFor()
      await page.locator('#recurrence-text').fill('')
      await page.locator('#recurrence-mode').click()
      await eventually(() => page.locator('#recurrence-frequency').inputValue()).toBe('')

      await page.locator('#recurrence-frequency').selectOption('WEEKLY')
      // A new weekly rule starts on the start's weekday.
      await eventually(() =>
        page.locator('#recurrence-weekdays input[value="TU"]').isChecked(),
      ).toBe(true)
      await eventually(() => summary.textContent()).toBe('Every week on Tuesday')
      await page.locator('#recurrence-weekdays input[value="TH"]').check()
      await page.locator('#recurrence-end input[value="count"]').check()
      await page.locator('#recurrence-count').fill('5')
      await eventually(() => summary.textContent()).toBe(
        'Every week on Tuesday and Thursday, 5 times',
      )

      // The text view holds what the form wrote.
      await page.locator('#recurrence-mode').click()
      await eventually(() => page.locator('#recurrence-text').inputValue()).toBe(
        'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=5',
      )
      await page.locator('#recurrence-mode').click()
      await eventually(() => page.locator('#recurrence-count').inputValue()).toBe('5')
      return saveNew('events', 'Event')
    })

    const occurrences = await step('series-panel', async () => {
      await eventually(() => page.locator('#series-count').textContent()).toBe(
        '4 later occurrences:',
      )
      const links = page.locator('#series-occurrences a')
      // ICU puts a narrow no-break space before PM.
      await eventually(async () =>
        (await links.allTextContents()).map((text) => text.replace(/\s/g, ' ')),
      ).toEqual(LATER.map((date) => date.toFormat('ccc, LLL d, yyyy, h:mm a')))
      // After the save, the form reads the stored rule back.
      await eventually(() => summary.textContent()).toBe(
        'Every week on Tuesday and Thursday, 5 times',
      )
      // Tall enough for the whole sidebar, which scrolls on its own.
      await page.setViewportSize({ width: 1280, height: 2400 })
      await page.screenshot({ path: path.join(resultsDir, 'admin-recurrence.png') })
      return links.evaluateAll((anchors) =>
        anchors.map((anchor) => new URL((anchor as HTMLAnchorElement).href).pathname),
      )
    })

    await step('occurrence', async () => {
      await page.goto(`${BASE_URL}${occurrences[0]}`)
      await eventually(() => page.locator('#series-parent').textContent()).toBe(title)
      expect(await page.locator('#series-parent').getAttribute('href')).toBe(
        `/admin/collections/events/${id}`,
      )
      await eventually(() => page.locator('#series-exception').textContent()).toMatch(
        /^Follows its series/,
      )
      // An occurrence has no rule of its own: the editor says what giving it one would do.
      await eventually(() => summary.textContent()).toBe('Does not repeat')
      await page.getByText('a rule here splits the series at this event').waitFor()
    })

    // What the save made, as the namespace serves it.
    const stored = await call(`/api/events/${id}`, { token })
    expect(stored.body.recurrence).toBe('RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=5')
    const range = `start_date=${START.toISODate()}&end_date=${START.plus({ months: 1 }).toISODate()}`
    const series = await call(`${NS}/events?post_parent=${id}&${range}&per_page=50`, { token })
    expect(series.status).toBe(200)
    expect(series.body.total).toBe(4)
    expect(series.body.events.map((event: any) => [event.start_date, event.end_date])).toEqual(
      LATER.map((date) => [wallClock(date), wallClock(date.plus({ hours: 2 }))]),
    )
    expect(
      series.body.events.map((event: any) => `${BASE_URL}/admin/collections/events/${event.id}`),
    ).toEqual(occurrences.map((href) => `${BASE_URL}${href}`))
    expect(admin.pageErrors, 'uncaught errors in the admin').toEqual([])
  }, 240_000)
})
