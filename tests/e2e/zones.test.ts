/**
 * Times in the event's zone (docs/api.md §21), in a Chromium whose own zone is New York: an editor
 * enters 19:00 for a Paris event and the namespace serves 19:00 Paris time, 17:00 or 18:00 UTC by the
 * season; changing the zone keeps the wall clock; all-day events take dates; the list shows each
 * event's time in its own zone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser, eventually } from '../support/admin'
import { asAdmin, BASE_URL, unique } from '../support/api'
import { api } from '../support/writeFixtures'

let admin: AdminBrowser | undefined
let token: string

beforeAll(async () => {
  token = await asAdmin()
})

afterAll(async () => {
  await admin?.close()
})

describe('event times in the admin', () => {
  it('are the wall clock of the event zone, whatever the browser zone', async () => {
    admin = await AdminBrowser.open('zones', 'America/New_York')
    const { page, step, choose, chooseZone, setDate, saveNew, saveChanges } = admin
    const summer = unique('Paris summer concert ')
    const winter = unique('Paris winter concert ')
    await step('sign-in', admin.signIn)
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
      'America/New_York',
    )

    const create = async (title: string, start: string, end: string) => {
      await page.goto(`${BASE_URL}/admin/collections/events/create?locale=en`)
      await page.locator('#field-title').fill(title)
      // A new event starts in the site's zone.
      await eventually(() =>
        page.locator('#field-timezone .rs__single-value').textContent(),
      ).toContain('UTC')
      await chooseZone('Europe/Paris')
      await setDate('field-start', start)
      await setDate('field-end', end)
      await choose('field-status', 'Published')
      return Number(await saveNew('events', 'Event'))
    }

    const summerId = await step('create-summer', () =>
      create(summer, '2031-06-12T19:00', '2031-06-12T21:00'),
    )
    const winterId = await step('create-winter', () =>
      create(winter, '2031-01-15T19:00', '2031-01-15T21:00'),
    )
    await admin.screenshot('form')

    const served = async (id: number) => (await api(`/events/${id}`, { token })).body
    expect(await served(summerId)).toMatchObject({
      timezone: 'Europe/Paris',
      start_date: '2031-06-12 19:00:00',
      utc_start_date: '2031-06-12 17:00:00',
      utc_end_date: '2031-06-12 19:00:00',
    })
    expect(await served(winterId)).toMatchObject({
      timezone: 'Europe/Paris',
      start_date: '2031-01-15 19:00:00',
      utc_start_date: '2031-01-15 18:00:00',
    })

    await step('change-zone', async () => {
      // The form shows the Paris wall clock, not New York's 13:00.
      await eventually(() => page.locator('#field-start-input').inputValue()).toBe(
        '2031-01-15T19:00',
      )
      await chooseZone('America/New_York')
      await eventually(() => page.locator('#field-start-input').inputValue()).toBe(
        '2031-01-15T19:00',
      )
      await saveChanges()
    })
    expect(await served(winterId)).toMatchObject({
      timezone: 'America/New_York',
      start_date: '2031-01-15 19:00:00',
      utc_start_date: '2031-01-16 00:00:00',
    })

    await step('all-day', async () => {
      await page.locator('#field-allDay').check()
      await eventually(() => page.locator('#field-start-input').getAttribute('type')).toBe('date')
      await setDate('field-start', '2031-01-20')
      await setDate('field-end', '2031-01-21')
      await saveChanges()
    })
    expect(await served(winterId)).toMatchObject({
      all_day: true,
      start_date: '2031-01-20 00:00:00',
      end_date: '2031-01-21 23:59:59',
    })

    await step('list', async () => {
      await page.goto(
        `${BASE_URL}/admin/collections/events?locale=en&search=${encodeURIComponent(summer)}`,
      )
      const row = page.locator('table tbody tr', { hasText: summer })
      await row.getByText('Jun 12, 2031, 7:00 PM · Europe/Paris').waitFor()
      await admin!.screenshot('list')
    })
    expect(admin.pageErrors, 'uncaught errors in the admin').toEqual([])
  }, 240_000)
})
