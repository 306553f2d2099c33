/**
 * The editors' workflow in a real Chromium (docs/api.md §21), each step checked through the answers
 * of the namespace: SEO suggestions from the event and its permalink, duplicating an event, bulk
 * actions on the events list, and restoring a version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser, eventually } from '../support/admin'
import { asAdmin, BASE_URL, unique } from '../support/api'
import { api, createEventAs, createVenueAs } from '../support/writeFixtures'

let admin: AdminBrowser
let token: string

beforeAll(async () => {
  token = await asAdmin()
  admin = await AdminBrowser.open('workflow')
  await admin.step('sign-in', admin.signIn)
}, 120_000)

afterAll(async () => {
  await admin?.close()
})

const served = async (id: number) => (await api(`/events/${id}`, { token })).body

describe('the editors’ workflow', () => {
  it('SEO: the preview is the event’s permalink, and title and description are suggested from the event', async () => {
    const { page, step, toast } = admin
    const excerpt = `An evening of chamber music in the old cloister, with works by Haydn, Mozart and Schubert, played on period instruments by the ${unique('ensemble')} and friends.`
    const event = await createEventAs(token, { status: 'publish', title: unique('Cloister concert '), excerpt })
    await step('seo', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/${event.id}?locale=en`)
      await page.locator('a', { hasText: event.url }).waitFor()
      await page.locator('#field-meta').getByText('Auto-generate').nth(0).click()
      await eventually(() => page.locator('#field-meta__title').inputValue()).toBe(event.title)
      await page.locator('#field-meta').getByText('Auto-generate').nth(1).click()
      await eventually(() => page.locator('#field-meta__description').inputValue()).toMatch(/^An evening of chamber music .*…$/)
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
    const original = await createEventAs(token, { status: 'publish', title: unique('Duplicated fair '), venue: venue.id, categories: [unique('Fairs')] })
    const copyId = await step('duplicate', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/${original.id}?locale=en`)
      await page.locator('.doc-controls__popup button').first().click()
      await page.locator('#action-duplicate').click()
      await page.waitForURL((url) => /\/admin\/collections\/events\/\d+/.test(url.pathname) && !url.pathname.endsWith(`/${original.id}`))
      await admin.screenshot('duplicate')
      return Number(new URL(page.url()).pathname.split('/').at(-1))
    })
    const copy = await served(copyId)
    expect(copy.status).toBe('draft')
    expect(copy.slug).not.toBe(original.slug)
    expect(copy.slug.startsWith(original.slug)).toBe(true)
    expect(copy.venue.id).toBe(venue.id)
    expect(copy.categories.map((term: { id: number }) => term.id)).toEqual(original.categories.map((term: { id: number }) => term.id))
    expect(copy.start_date).toBe(original.start_date)
  }, 120_000)
})
