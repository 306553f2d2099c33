/**
 * What the admin's pages load as they open, in a real Chromium (docs/performance.md "The admin"):
 * the SEO preview's permalink comes with the edit view, not from a request after it has loaded, and
 * the events list loads none of the event form's scripts.
 */
import type { Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser } from '../support/admin'
import { asAdmin, BASE_URL, unique } from '../support/api'
import { createEventAs } from '../support/writeFixtures'

let admin: AdminBrowser
let token: string

beforeAll(async () => {
  token = await asAdmin()
  admin = await AdminBrowser.signedIn('opening')
}, 120_000)

afterAll(() => admin?.close())

/** The requests a navigation to `url` makes until the network is quiet. */
async function requestsOf(url: string, visible: string): Promise<Request[]> {
  const { page } = admin
  const requests: Request[] = []
  const record = (request: Request) => requests.push(request)
  page.on('request', record)
  try {
    await page.goto(url, { waitUntil: 'networkidle' })
    await page.locator(visible).first().waitFor({ state: 'visible' })
  } finally {
    page.off('request', record)
  }
  return requests
}

/** The text of the scripts among `requests`, each as the browser received it. */
async function scriptsOf(requests: Request[]): Promise<string[]> {
  const scripts = requests.filter((request) => request.resourceType() === 'script')
  return Promise.all(scripts.map(async (request) => (await request.response())?.text() ?? ''))
}

/** A string of the recurrence editor's own markup: its script holds it, no other does. */
const RECURRENCE_EDITOR_MARK = 'recurrence-mode'

describe('the admin as it opens', () => {
  it('draws the SEO preview with the event’s permalink and asks the server for no preview URL', async () => {
    const event = await createEventAs(token, { status: 'publish', title: unique('Preview fair ') })
    const requests = await admin.step('edit', () =>
      requestsOf(`${BASE_URL}/admin/collections/events/${event.id}?locale=en`, '#field-title'),
    )
    await admin.page.locator('a', { hasText: event.url }).waitFor()
    expect(await admin.page.locator('a', { hasText: event.url }).getAttribute('href')).toBe(
      event.url,
    )
    expect(
      requests.map((request) => request.url()).filter((url) => url.includes('/plugin-seo/')),
    ).toEqual([])
    expect((await scriptsOf(requests)).some((text) => text.includes(RECURRENCE_EDITOR_MARK))).toBe(
      true,
    )
  }, 120_000)

  it('opens the events list without the event form’s scripts', async () => {
    const requests = await admin.step('list', () =>
      requestsOf(`${BASE_URL}/admin/collections/events`, 'table tbody tr'),
    )
    const scripts = await scriptsOf(requests)
    expect(scripts.length).toBeGreaterThan(0)
    expect(scripts.filter((text) => text.includes(RECURRENCE_EDITOR_MARK))).toEqual([])
  }, 120_000)
})
