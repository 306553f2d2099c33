/**
 * Autosave in a real Chromium (docs/api.md §21): an editor's unsaved edits of a published event are
 * kept and found again after a reload, while every door (the namespace, anonymous or signed in; the
 * admin's list; Payload's REST, with or without `draft`) serves the saved event until the editor
 * saves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser, eventually } from '../support/admin'
import { asAdmin, BASE_URL, call, unique } from '../support/api'
import { api, createEventAs } from '../support/writeFixtures'

let admin: AdminBrowser
let token: string

beforeAll(async () => {
  token = await asAdmin()
  admin = await AdminBrowser.signedIn('autosave')
}, 120_000)

afterAll(() => admin?.close())

const payloadTitle = async (id: number, query: string, as?: string) =>
  (await call(`/api/events/${id}?depth=0&locale=en${query}`, { token: as })).body.title

describe('autosave', () => {
  it('keeps an editor’s unsaved edits, and every door serves the saved event until Save', async () => {
    const { page, step, toast } = admin
    const mark = unique('recital')
    const event = await createEventAs(token, { status: 'publish', title: `Organ ${mark}` })
    const edited = `Harpsichord ${mark}`

    await step('edit', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/${event.id}?locale=en`)
      await page.locator('#field-title').fill(edited)
      // The autosave reaches the server without any click.
      await eventually(() => payloadTitle(event.id, '&draft=true', token)).toBe(edited)
      await eventually(() => page.locator('.doc-controls .autosave').textContent()).toMatch(
        /^Autosaved .* ago$/,
      )
      await expect(page.locator('#action-save').textContent()).resolves.toBe('Save')
      await admin.screenshot('autosaved')
    })

    for (const as of [undefined, token])
      expect((await api(`/events/${event.id}`, { token: as })).body.title).toBe(event.title)
    expect(await payloadTitle(event.id, '')).toBe(event.title)
    expect(await payloadTitle(event.id, '&draft=true')).toBe(event.title)

    await step('reload', async () => {
      await page.reload()
      await eventually(() => page.locator('#field-title').inputValue()).toBe(edited)
      await eventually(() => page.locator('.doc-controls .status__value').textContent()).toBe(
        'Autosaved, not saved',
      )
      // The publication state is still the saved one.
      await eventually(() =>
        page.locator('#field-status .value-container').getAttribute('title'),
      ).toBe('Published')
      await admin.screenshot('reloaded')
    })

    await step('list', async () => {
      await page.goto(
        `${BASE_URL}/admin/collections/events?locale=en&search=${encodeURIComponent(mark)}`,
      )
      await eventually(() => page.locator('table tbody tr').count()).toBe(1)
      await eventually(() => page.locator('table tbody tr').first().textContent()).toContain(
        event.title,
      )
      expect(await page.locator('table tbody tr').first().textContent()).not.toContain(edited)
      // Payload's bulk Publish and Unpublish would change its draft state, not the events' status: not offered.
      await page.locator('table tbody tr').first().locator('input[type="checkbox"]').check()
      await eventually(() =>
        page.locator('.list-selection__button:visible').allTextContents(),
      ).toEqual(['Edit', 'Delete'])
      await admin.screenshot('list')
    })
    expect((await api(`/events/${event.id}`)).body.title).toBe(event.title)

    await step('create', async () => {
      // A new event is created by its first Save: there is no "Save draft" beside it.
      await page.goto(`${BASE_URL}/admin/collections/events/create?locale=en`)
      await page.locator('#action-save').waitFor()
      expect(await page.locator('#action-save').textContent()).toBe('Save')
      expect(await page.locator('#action-save-draft').count()).toBe(1)
      expect(await page.locator('#action-save-draft').isVisible()).toBe(false)
      await admin.screenshot('create')
    })

    await step('save', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events/${event.id}?locale=en`)
      await eventually(() => page.locator('#field-title').inputValue()).toBe(edited)
      await page.locator('#action-save').click()
      await toast('Updated successfully.')
      await eventually(() => page.locator('.doc-controls .status__value').textContent()).toBe(
        'Saved',
      )
      await admin.screenshot('saved')
    })
    for (const as of [undefined, token])
      expect((await api(`/events/${event.id}`, { token: as })).body.title).toBe(edited)
    expect(await payloadTitle(event.id, '')).toBe(edited)
  }, 180_000)
})
