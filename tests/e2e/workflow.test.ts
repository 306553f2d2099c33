/**
 * The editors' workflow in a real Chromium (docs/api.md §21), each step checked through the answers
 * of the namespace: SEO suggestions from the event and its permalink, duplicating an event, bulk
 * actions on the events list, and restoring a version.
 */
import { DateTime } from 'luxon'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser, eventually } from '../support/admin'
import { afterQueueRuns, asAdmin, BASE_URL, call, unique } from '../support/api'
import { api, createEventAs, createVenueAs } from '../support/writeFixtures'

let admin: AdminBrowser
let token: string

beforeAll(async () => {
  token = await asAdmin()
  admin = await AdminBrowser.signedIn('workflow')
}, 120_000)

afterAll(() => admin?.close())

const served = async (id: number) => (await api(`/events/${id}`, { token })).body

describe('the editors’ workflow', () => {
  it('SEO: the preview is the event’s permalink, and title and description are suggested from the event', async () => {
    const { page, step, toast } = admin
    const excerpt = `An evening of chamber music in the old cloister, with works by Haydn, Mozart and Schubert, played on period instruments by the ${unique('ensemble')} and friends.`
    const event = await createEventAs(token, {
      status: 'publish',
      title: unique('Cloister concert '),
      excerpt,
    })
    await step('seo', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/${event.id}?locale=en`)
      await page.locator('a', { hasText: event.url }).waitFor()
      await page.locator('#field-meta').getByText('Auto-generate').nth(0).click()
      await eventually(() => page.locator('#field-meta__title').inputValue()).toBe(event.title)
      await page.locator('#field-meta').getByText('Auto-generate').nth(1).click()
      await eventually(() => page.locator('#field-meta__description').inputValue()).toMatch(
        /^An evening of chamber music .*…$/,
      )
      await admin.screenshot('seo')
      await page.locator('#action-save').click()
      await toast('Updated successfully.')
    })
    const description = await page.locator('#field-meta__description').inputValue()
    expect(description.length).toBeLessThanOrEqual(155)
    expect(excerpt.startsWith(description.slice(0, -1))).toBe(true)
    const stored = (await api(`/events/${event.id}`, { token })).body
    expect(stored.url).toBe(event.url)
  }, 120_000)

  it('duplicates an event: relations kept, a slug of its own, a draft', async () => {
    const { page, step } = admin
    const venue = await createVenueAs(token, { status: 'publish' })
    const original = await createEventAs(token, {
      status: 'publish',
      title: unique('Duplicated fair '),
      venue: venue.id,
      categories: [unique('Fairs')],
    })
    const copyId = await step('duplicate', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/${original.id}?locale=en`)
      await page.locator('.doc-controls__popup button').first().click()
      await page.locator('#action-duplicate').click()
      await page.waitForURL(
        (url) =>
          /\/admin\/collections\/events\/\d+/.test(url.pathname) &&
          !url.pathname.endsWith(`/${original.id}`),
      )
      await admin.screenshot('duplicate')
      return Number(new URL(page.url()).pathname.split('/').at(-1))
    })
    const copy = await served(copyId)
    expect(copy.status).toBe('draft')
    expect(copy.slug).not.toBe(original.slug)
    expect(copy.slug.startsWith(original.slug)).toBe(true)
    expect(copy.venue.id).toBe(venue.id)
    expect(copy.categories.map((term: { id: number }) => term.id)).toEqual(
      original.categories.map((term: { id: number }) => term.id),
    )
    expect(copy.start_date).toBe(original.start_date)
  }, 120_000)

  it('bulk actions on the list: publish, set a category, trash', async () => {
    const { page, step } = admin
    const prefix = unique('Bulk market ')
    const events = await Promise.all(
      [1, 2, 3].map((n) => createEventAs(token, { status: 'draft', title: `${prefix} ${n}` })),
    )
    const category = (
      await api('/categories', { method: 'POST', token, json: { name: unique('Markets ') } })
    ).body

    /** Selects the three events in the list and sets one field on all of them through the bulk edit drawer. */
    const bulkEdit = async (field: string, fill: () => Promise<void>) => {
      await page.goto(
        `${BASE_URL}/admin/collections/events?locale=en&search=${encodeURIComponent(prefix)}`,
      )
      await eventually(() => page.locator('table tbody tr').count()).toBe(3)
      await page.locator('#select-all').check()
      await page
        .locator('.list-selection')
        .getByRole('button', { name: 'Edit', exact: true })
        .click()
      const drawer = page.locator('.edit-many__main')
      await drawer.locator('.field-select .rs__control').click()
      await page
        .locator('.rs__option', { hasText: new RegExp(`^${field}$`) })
        .first()
        .click()
      await fill()
      await admin.screenshot(`bulk-${field.toLowerCase()}`)
      await drawer.locator('.edit-many__publish').click()
      await admin.toast('Updated 3 Events successfully.')
    }

    await step('bulk-publish', () =>
      bulkEdit('Status', () => admin.choose('field-status', 'Published')),
    )
    for (const event of events)
      expect((await api(`/events/${event.id}`)).body.status).toBe('publish')

    await step('bulk-category', () =>
      bulkEdit('Categories', async () => {
        const field = page.locator('.edit-many__main #field-categories')
        await field.locator('.rs__control').click()
        await field.locator('.rs__input').fill(category.name)
        await page.locator('.rs__option', { hasText: category.name }).first().click()
        await field.locator('.rs__multi-value', { hasText: category.name }).waitFor()
      }),
    )
    for (const event of events)
      expect(
        (await api(`/events/${event.id}`)).body.categories.map((term: { id: number }) => term.id),
      ).toEqual([category.id])

    await step('bulk-trash', () => bulkEdit('Status', () => admin.choose('field-status', 'Trash')))
    for (const event of events)
      expect((await call(`/api/events/${event.id}?depth=0`, { token })).body.status).toBe('trash')
    expect((await api(`/events?search=${encodeURIComponent(prefix)}`)).body.events).toEqual([])
  }, 180_000)

  it('restores an earlier version, and the namespace serves it', async () => {
    const { page, step, toast } = admin
    const event = await createEventAs(token, { status: 'publish', title: unique('First name ') })
    const renamed = unique('Second name ')
    await step('rename', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/${event.id}?locale=en`)
      await page.locator('#field-title').fill(renamed)
      await page.locator('#action-save').click()
      await toast('Updated successfully.')
    })
    expect((await api(`/events/${event.id}`)).body.title).toBe(renamed)
    await step('restore', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/${event.id}/versions?locale=en`)
      const rows = page.locator('table tbody tr')
      await eventually(() => rows.count()).toBe(2)
      await admin.screenshot('versions')
      // The oldest version, listed last.
      await rows.last().locator('a').first().click()
      await page.waitForURL(/\/versions\/\d+/)
      await page.getByText(event.title).first().waitFor()
      await admin.screenshot('version-compare')
      await page
        .getByRole('button', { name: /Restore/ })
        .first()
        .click()
      await page.getByRole('button', { name: 'Confirm' }).click()
      await toast('Restored successfully.')
    })
    await eventually(async () => (await api(`/events/${event.id}`)).body.title).toBe(event.title)
  }, 120_000)

  it('schedules an event: hidden until its publication date, then published by the jobs queue', async () => {
    const { page, step, toast } = admin
    const event = await createEventAs(token, { status: 'draft', title: unique('Scheduled gala ') })
    // The picker takes minutes: a whole minute 30 to 90 s away, time enough for the steps before the save (the browser runs in UTC).
    const due = DateTime.utc().plus({ seconds: 90 }).startOf('minute')
    await step('schedule', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/${event.id}?locale=en`)
      const picker = page.locator('#field-publishedAt .date-time-picker input')
      await picker.click()
      await picker.fill(due.setLocale('en-US').toFormat('LLL d, yyyy h:mm a'))
      await picker.press('Enter')
      await page.keyboard.press('Escape')
      await admin.choose('field-status', 'Scheduled')
      await admin.screenshot('scheduled')
      await page.locator('#action-save').click()
      await toast('Updated successfully.')
    })
    expect((await call(`/api/events/${event.id}?depth=0`, { token })).body).toMatchObject({
      status: 'future',
      publishedAt: due.toISO({ suppressMilliseconds: false }),
    })
    expect((await api(`/events/${event.id}`)).status).toBe(403)
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, due.toMillis() - Date.now()) + 500),
    )
    await afterQueueRuns(token, async () => (await api(`/events/${event.id}`)).body.status).toBe(
      'publish',
    )
  }, 180_000)
})
