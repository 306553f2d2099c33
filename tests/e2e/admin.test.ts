/**
 * An editor's day in the admin, in a real Chromium: sign in, create a published venue, create an
 * event at that venue, give it a French title through the locale switcher, and find it in the
 * events list; then import a CSV file, and an iCalendar feed by its URL, through the Imports screen.
 * What the browser saved is then checked through the REST API.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser, eventually } from '../support/admin'
import { resultsDir } from '../support/browser'
import { asAdmin, BASE_URL, call, unique } from '../support/api'

let admin: AdminBrowser | undefined
let token: string

beforeAll(async () => {
  token = await asAdmin()
})

afterAll(async () => {
  await admin?.close()
})

/**
 * Runs the jobs queue now (what the server's own polling does within a minute), then reloads the
 * open import and waits for it to show the run done, with these counts.
 */
async function seeImportDone(
  name: string,
  counts: Record<string, string>,
  screenshot: string,
): Promise<void> {
  expect((await call('/api/payload-jobs/run?queue=calendar', { token })).status).toBe(200)
  const { page, step } = admin!
  await step(name, async () => {
    await page.reload()
    await eventually(() =>
      page.locator('#field-status .value-container').getAttribute('title'),
    ).toBe('Done')
    for (const [field, value] of Object.entries(counts))
      await eventually(() => page.locator(`#field-${field}`).inputValue()).toBe(value)
    await admin!.screenshot(screenshot)
  })
}

describe('the admin in a browser', () => {
  it('creates a venue and a bilingual event at it, and lists the event', async () => {
    const venueName = unique('Venue ')
    const englishTitle = unique('Harvest concert ')
    const frenchTitle = `Concert des vendanges ${englishTitle.split(' ').at(-1)}`
    admin = await AdminBrowser.open('admin')
    const { page, step, choose, setDate, saveNew, toast, currentLocale } = admin

    await step('sign-in', admin.signIn)

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
      await setDate('field-start', '2031-06-12T19:30')
      await setDate('field-end', '2031-06-12T22:00')
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
      await page.goto(
        `${BASE_URL}/admin/collections/events?locale=fr&search=${encodeURIComponent(frenchTitle)}`,
      )
      const row = page.locator('table tbody tr', { hasText: frenchTitle })
      await row.waitFor()
      await eventually(() => row.count()).toBe(1)
      await eventually(() =>
        row.locator(`a[href*="/admin/collections/events/${eventId}"]`).count(),
      ).toBeGreaterThan(0)
      // The venue column resolves the relationship (it shows "Loading..." first).
      await row.getByText(venueName).waitFor()
      await row.getByText('Published').waitFor()
      await page.screenshot({
        path: path.join(resultsDir, 'admin-events-list.png'),
        fullPage: true,
      })
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
    expect(admin.pageErrors, 'uncaught errors in the admin').toEqual([])
  }, 240_000)

  it('imports a CSV file uploaded on the Imports screen', async () => {
    const word = unique('admincsv')
    const csv = `Event Name,Event Start Date,Event Start Time,Event Venue Name\n${word} one,2031-07-01,18:00,${word} Hall\n${word} two,07/02/2031,6:30 pm,${word} Hall\n`
    expect(admin, 'the first test opened the browser and signed in').toBeDefined()
    const { page, step, choose, saveNew } = admin!

    const importId = await step('upload-csv', async () => {
      await page.goto(`${BASE_URL}/admin/collections/imports/create`)
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: `${word}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) })
      await choose('field-kind', 'Events')
      return saveNew('imports', 'Import')
    })

    await seeImportDone('see-the-result', { created: '3', failed: '0' }, 'import')

    const record = await call(`/api/imports/${importId}`, { token })
    expect(record.body).toMatchObject({
      status: 'done',
      created: 3,
      total: 2,
      done: 2,
      sourceFile: `${word}.csv`,
    })
    const events = await call(`/api/events?where[title][like]=${word}&sort=start&depth=1`, {
      token,
    })
    expect(
      events.body.docs.map((event: any) => [event.title, event.start, event.venue?.name]),
    ).toEqual([
      [`${word} one`, '2031-07-01T18:00:00.000Z', `${word} Hall`],
      [`${word} two`, '2031-07-02T18:30:00.000Z', `${word} Hall`],
    ])
    expect(admin!.pageErrors, 'uncaught errors in the admin').toEqual([])
  }, 240_000)

  it('imports an iCalendar feed by its URL on the Imports screen', async () => {
    const word = unique('adminics')
    const feed = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      ...[1, 2].flatMap((n) => [
        'BEGIN:VEVENT',
        `UID:${word}-${n}@feed.test`,
        `SUMMARY:${word} ${n}`,
        `DTSTART:2031080${n}T160000Z`,
        `DTEND:2031080${n}T180000Z`,
        'DTSTAMP:20261127T000000Z',
        'END:VEVENT',
      ]),
      'END:VCALENDAR',
      '',
    ].join('\r\n')
    const server = createServer((_request, response) =>
      response.writeHead(200, { 'Content-Type': 'text/calendar' }).end(feed),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${word}.ics`
    expect(admin, 'the first test opened the browser and signed in').toBeDefined()
    const { page, step, choose, saveNew } = admin!
    try {
      const importId = await step('import-feed-url', async () => {
        await page.goto(`${BASE_URL}/admin/collections/imports/create`)
        await choose('field-source', 'iCalendar file or feed')
        await page.locator('#field-sourceUrl').fill(url)
        return saveNew('imports', 'Import')
      })

      await seeImportDone('see-the-feed-result', { created: '2' }, 'import-feed')

      const record = await call(`/api/imports/${importId}`, { token })
      expect(record.body).toMatchObject({
        status: 'done',
        source: 'ical',
        sourceUrl: url,
        created: 2,
        failed: 0,
      })
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
    const events = await call(`/api/events?where[title][like]=${word}&sort=start`, { token })
    expect(events.body.docs.map((event: any) => [event.title, event.start])).toEqual([
      [`${word} 1`, '2031-08-01T16:00:00.000Z'],
      [`${word} 2`, '2031-08-02T16:00:00.000Z'],
    ])
    expect(admin!.pageErrors, 'uncaught errors in the admin').toEqual([])
  }, 240_000)
})
