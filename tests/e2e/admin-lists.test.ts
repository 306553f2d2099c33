/**
 * A list's sort or filter the server refuses (through a link the caller may not read, or a value its
 * field cannot hold) leaves the admin's list on screen, empty, with its columns: any error but the
 * one Payload's list view knows blanked the page, and the sort, saved in the user's preferences
 * before the query ran, kept it blank on every later visit. A date filter whose value is no date is
 * dropped from the address: Payload's date picker threw on it and blanked the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser } from '../support/admin'
import { asAdmin, BASE_URL, call, userWithRole } from '../support/api'
import { TIMEOUT } from '../support/browser'

let browser: AdminBrowser | undefined

beforeAll(async () => {
  // The administrator the browser signs in as is registered by the first caller.
  await asAdmin()
  browser = await AdminBrowser.signedIn('admin-lists')
}, TIMEOUT)

afterAll(async () => {
  await browser?.close()
})

describe("the admin's lists", () => {
  it(
    'stay on screen when a sort or a filter is refused, and on the visits after it',
    async () => {
      const { page, step } = browser!
      const listShown = async (path: string) => {
        await page.goto(`${BASE_URL}${path}`)
        // The list's own frame, with its search and columns control, and its heading.
        await page.locator('.collection-list .list-header').first().waitFor({ timeout: 30_000 })
        await page.locator('.collection-list .list-controls').first().waitFor({ timeout: 30_000 })
      }
      await step('administrator, an id no row can hold', () =>
        listShown('/admin/collections/events?where[id][equals]=1.5'),
      )
      // A date filter whose value is no date is dropped; a date's stays, and the other conditions too.
      const redirected = await call('/admin/collections/events?where[start][equals]=abc&limit=5', {
        token: await asAdmin(),
      })
      expect([redirected.status, redirected.headers.get('location')]).toEqual([
        307,
        '/admin/collections/events?limit=5',
      ])
      for (const [where, kept] of [
        ['where[start][equals]=abc', []],
        [
          'where[or][0][and][0][publishedAt][greater_than]=abc&where[or][0][and][1][title][like]=x',
          ['where[or][][and][][title][like]'],
        ],
        ['where[end][greater_than]=2027-03-01', ['where[end][greater_than]']],
      ] as const)
        await step(`administrator, a date filter (${where})`, async () => {
          await listShown(`/admin/collections/events?${where}`)
          // Payload's router may number the conditions afresh.
          const shown = [...new URL(page.url()).searchParams.keys()]
            .filter((key) => key.startsWith('where'))
            .map((key) => key.replace(/\[\d+\]/g, '[]'))
          expect(shown).toEqual(kept)
          expect(browser!.pageErrors).toEqual([])
        })
      const author = await userWithRole('author')
      await page.context().clearCookies()
      await page
        .context()
        .addCookies([{ name: 'payload-token', value: author.token, url: BASE_URL }])
      await step("author, sorted by a venue's name", () =>
        listShown('/admin/collections/events?sort=venue.name'),
      )
      // The refused sort is the author's saved one now: the sidebar's link opens the list with it.
      await step('author, the list again', () => listShown('/admin/collections/events'))
      await step("author, venues filtered by their editor's email", () =>
        listShown('/admin/collections/venues?where[editedBy.email][equals]=x'),
      )
    },
    TIMEOUT * 2,
  )
})
