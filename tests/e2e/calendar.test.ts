/**
 * The admin's calendar in a real Chromium: events made through the namespace in a month ahead appear
 * on the days the namespace gives them (their own zone's wall clock, not the browser's UTC), on
 * every day a long one covers, a weekly series marked as one; the category, status and language
 * filters and the week view come from the URL and the controls; a click opens the event. Whoever
 * is not signed in is sent to the sign-in page, a subscriber away from the admin.
 */
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminBrowser, eventually } from '../support/admin'
import { resultsDir } from '../support/browser'
import { asAdmin, BASE_URL, call, NS, unique, userWithRole } from '../support/api'
import { api, createEventAs, readEvent } from '../support/writeFixtures'

/**
 * A month 20 months ahead: far from other tests' events, and within the series horizon (24 months
 * from now by default), so the weekly series has its occurrences.
 */
const MONTH = (() => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 20, 1))
    .toISOString()
    .slice(0, 7)
})()

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

/** The Monday on or before a day. */
function monday(day: string): string {
  return addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7))
}

/** The days of `days` from `first` to `last`. */
function within(days: string[], first: string, last: string): string[] {
  return days.filter((day) => day >= first && day <= last)
}

let admin: AdminBrowser | undefined
let token: string

beforeAll(async () => {
  token = await asAdmin()
})

afterAll(async () => {
  await admin?.close()
})

/** An event made through the namespace, with the day its wall-clock start falls on there. */
async function created(
  fields: Record<string, unknown>,
): Promise<{ id: number; title: string; day: string }> {
  const title = unique('Calendar ')
  const event = await createEventAs(token, { title, status: 'publish', ...fields })
  return { id: event.id, title, day: (event.start_date as string).slice(0, 10) }
}

describe('the calendar view in a browser', () => {
  it('places, marks, filters and opens the events of a month and a week', async () => {
    const category = await api('/categories', {
      method: 'POST',
      token,
      json: { name: unique('Calendar category ') },
    })
    expect(category.status, JSON.stringify(category.body)).toBe(201)
    const concert = await created({
      start_date: `${MONTH}-12 19:00:00`,
      end_date: `${MONTH}-12 21:00:00`,
      timezone: 'Europe/Paris',
      categories: [category.body.id],
    })
    // 08:00 in Auckland is 19:00 UTC the day before: the calendar shows Auckland's day.
    const breakfast = await created({
      start_date: `${MONTH}-14 08:00:00`,
      end_date: `${MONTH}-14 09:30:00`,
      timezone: 'Pacific/Auckland',
    })
    const fair = await created({
      start_date: `${MONTH}-20 10:00:00`,
      end_date: `${MONTH}-22 18:00:00`,
      timezone: 'UTC',
    })
    const holiday = await created({
      start_date: `${MONTH}-25 00:00:00`,
      end_date: `${MONTH}-25 23:59:59`,
      all_day: true,
      timezone: 'UTC',
    })
    const rehearsal = await created({
      start_date: `${MONTH}-04 18:00:00`,
      end_date: `${MONTH}-04 20:00:00`,
      timezone: 'UTC',
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3',
    })
    const trashed = await created({
      start_date: `${MONTH}-13 10:00:00`,
      end_date: `${MONTH}-13 11:00:00`,
      timezone: 'UTC',
    })
    expect((await api(`/events/${trashed.id}`, { method: 'DELETE', token })).status).toBe(200)
    const frenchTitle = `Concert ${concert.title.split(' ').at(-1)} (fr)`
    expect(
      (
        await api(`/events/${concert.id}`, {
          method: 'PATCH',
          token,
          json: { i18n_language: 'fr', title: frenchTitle },
        })
      ).status,
    ).toBe(200)

    expect([concert.day, breakfast.day, fair.day, holiday.day, rehearsal.day]).toEqual([
      `${MONTH}-12`,
      `${MONTH}-14`,
      `${MONTH}-20`,
      `${MONTH}-25`,
      `${MONTH}-04`,
    ])
    // 19:00 or 20:00 UTC the day before, as New Zealand keeps summer time or not.
    expect((await readEvent(breakfast.id)).utc_start_date.slice(0, 10)).toBe(`${MONTH}-13`)
    const series = await call(
      `${NS}/events?post_parent=${rehearsal.id}&start_date=${MONTH}-01&end_date=${MONTH}-31`,
      { token },
    )
    expect(series.status).toBe(200)
    const occurrences = (series.body.events as { id: number; start_date: string }[]).map(
      (event) => ({ id: event.id, day: event.start_date.slice(0, 10) }),
    )
    expect(occurrences.map((occurrence) => occurrence.day)).toEqual([`${MONTH}-11`, `${MONTH}-18`])
    /** The days each event covers, as the namespace dates them. */
    const covered = new Map<number, string[]>([
      ...[concert, breakfast, holiday, rehearsal, ...occurrences].map(
        ({ id, day }) => [id, [day]] as [number, string[]],
      ),
      [fair.id, [`${MONTH}-20`, `${MONTH}-21`, `${MONTH}-22`]],
    ])
    const nextMonth = addDays(`${MONTH}-28`, 7).slice(0, 7)
    const monthName = new Intl.DateTimeFormat('en', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${MONTH}-01T00:00:00Z`))

    admin = await AdminBrowser.open('calendar')
    const { page, step } = admin
    const calendar = page.locator('#event-calendar')
    const ready = (attributes: Record<string, string>) =>
      page
        .locator(
          `#event-calendar[data-state="ready"]${Object.entries(attributes)
            .map(([name, value]) => `[data-${name}="${value}"]`)
            .join('')}`,
        )
        .waitFor()
    const event = (id: number) => page.locator(`.calendar-event[data-event-id="${id}"]`)
    const daysOf = (id: number) =>
      event(id).evaluateAll((links) =>
        links.map((link) => link.closest('[data-day]')!.getAttribute('data-day')),
      )

    await step('signed-out', async () => {
      await page.goto(`${BASE_URL}/admin/calendar?date=${MONTH}-01`)
      await page.waitForURL((url) => url.pathname === '/admin/login')
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(
        `/admin/calendar?date=${MONTH}-01`,
      )
    })

    await step('sign-in', admin.signIn)

    /** Every event of the test on the days of [first, last] it covers, and nowhere else. */
    const expectPlaced = async (first: string, last: string, ids = [...covered.keys()]) => {
      for (const id of ids)
        expect({ id, days: await daysOf(id) }).toEqual({
          id,
          days: within(covered.get(id)!, first, last),
        })
    }

    await step('month', async () => {
      await page.goto(`${BASE_URL}/admin/calendar?date=${MONTH}-01&locale=en`)
      const lastOfMonth = addDays(`${nextMonth}-01`, -1)
      const [first, last] = [monday(`${MONTH}-01`), addDays(monday(lastOfMonth), 6)]
      await ready({ view: 'month', first, last, locale: 'en' })
      await eventually(() => page.locator('#calendar-heading').textContent()).toBe(monthName)
      // The admin's own template: its navigation, with the calendar's link in it.
      await page.locator('nav #nav-calendar').waitFor()
      await expectPlaced(first, last)
      expect(await event(trashed.id).count()).toBe(0)
      expect((await event(concert.id).textContent())?.replace(/\s/g, ' ')).toBe(
        `7:00 PM${concert.title}`,
      )
      // All day: no time.
      expect(await event(holiday.id).textContent()).toBe(holiday.title)

      // The series: its first event and each occurrence, marked and named.
      for (const id of [rehearsal.id, ...occurrences.map((occurrence) => occurrence.id)]) {
        expect(await event(id).getAttribute('data-series')).toBe(String(rehearsal.id))
        expect(await event(id).locator('.calendar-event__series').textContent()).toBe('↻')
      }
      expect(await event(rehearsal.id).getAttribute('title')).toContain('First event of its series')
      expect(await event(occurrences[0]!.id).getAttribute('title')).toContain(
        `Part of the series “${rehearsal.title}”`,
      )
      expect(await event(concert.id).getAttribute('data-series')).toBeNull()
      await page.screenshot({
        path: path.join(resultsDir, 'admin-calendar-month.png'),
        fullPage: true,
      })
    })

    await step('category-filter', async () => {
      await page
        .locator(`#calendar-category option[value="${category.body.id}"]`)
        .waitFor({ state: 'attached' })
      await page.locator('#calendar-category').selectOption(String(category.body.id))
      await ready({ category: String(category.body.id) })
      expect(new URL(page.url()).searchParams.get('category')).toBe(String(category.body.id))
      expect(await daysOf(concert.id)).toEqual([concert.day])
      for (const other of [breakfast, fair, holiday, rehearsal])
        expect(await event(other.id).count()).toBe(0)
      await page.locator('#calendar-category').selectOption('')
      await ready({ category: '' })
      expect(await daysOf(fair.id)).toEqual(covered.get(fair.id))
    })

    await step('trash', async () => {
      await page.locator('#calendar-status').selectOption('trash')
      await ready({ status: 'trash' })
      expect(await daysOf(trashed.id)).toEqual([trashed.day])
      expect(await event(concert.id).count()).toBe(0)
      await page.locator('#calendar-status').selectOption('')
      await ready({ status: '' })
    })

    await step('language', async () => {
      await page.locator('#calendar-language').selectOption('fr')
      await ready({ locale: 'fr' })
      await eventually(() =>
        event(concert.id).locator('.calendar-event__title').textContent(),
      ).toBe(frenchTitle)
      expect(new URL(page.url()).searchParams.get('locale')).toBe('fr')
      await page.locator('#calendar-language').selectOption('en')
      await ready({ locale: 'en' })
    })

    await step('week', async () => {
      // The day of the series' first occurrence, then the week holding it.
      const first = monday(occurrences[0]!.day)
      const last = addDays(first, 6)
      await page.goto(`${BASE_URL}/admin/calendar?date=${occurrences[0]!.day}&locale=en`)
      await ready({ view: 'month' })
      await page.locator('#calendar-week').click()
      await ready({ view: 'week', first, last })
      expect(new URL(page.url()).searchParams.get('view')).toBe('week')
      expect(
        await calendar
          .locator('.calendar-day')
          .evaluateAll((days) => days.map((day) => day.getAttribute('data-day'))),
      ).toEqual([0, 1, 2, 3, 4, 5, 6].map((offset) => addDays(first, offset)))
      await expectPlaced(first, last)
      expect(
        await event(occurrences[0]!.id).locator('.calendar-event__series-name').textContent(),
      ).toBe(`↻ Part of the series “${rehearsal.title}”`)
      await page.screenshot({
        path: path.join(resultsDir, 'admin-calendar-week.png'),
        fullPage: true,
      })

      await page.locator('#calendar-next').click()
      await ready({ view: 'week', first: addDays(first, 7), last: addDays(last, 7) })
      await expectPlaced(addDays(first, 7), addDays(last, 7))
      await page.goBack()
      await ready({ view: 'week', first })

      // Loaded as a week, the server's text is the browser's: Node's ICU writes thin spaces around a
      // range's dash where Chromium's writes spaces, and React refused the page's text (error #418).
      const mismatches: string[] = []
      const heard = (text: string) => {
        if (/#418|hydrat/i.test(text)) mismatches.push(text)
      }
      page.on('console', (message) => heard(message.text()))
      page.on('pageerror', (error) => heard(error.message))
      await page.goto(`${BASE_URL}/admin/calendar?view=week&date=${first}&locale=en`)
      await ready({ view: 'week', first, last })
      await expectPlaced(first, last)
      expect(mismatches).toEqual([])
    })

    await step('open-event', async () => {
      await event(occurrences[0]!.id).click()
      await page.waitForURL(
        (url) => url.pathname === `/admin/collections/events/${occurrences[0]!.id}`,
      )
      await page.locator('#series-parent').waitFor()
    })

    await step('list-link', async () => {
      await page.goto(`${BASE_URL}/admin/collections/events`)
      await page.locator('#events-calendar-link').click()
      await page.waitForURL((url) => url.pathname === '/admin/calendar')
      await ready({ view: 'month' })
    })
    expect(admin.pageErrors, 'uncaught errors in the admin').toEqual([])
  }, 300_000)

  it('shows December 9999 and its last week, with no next period', async () => {
    for (const [query, first] of [
      ['date=9999-12-15', '9999-11-29'],
      ['view=week&date=9999-12-31', '9999-12-27'],
    ] as const) {
      const reply = await call(`/admin/calendar?${query}&locale=en`, { token })
      const page = String(reply.body)
      expect(reply.status, page.slice(0, 300)).toBe(200)
      expect(page).toContain(`data-first="${first}" data-last="9999-12-31"`)
      expect(page).toContain('data-day="9999-12-31"')
      expect(page).not.toContain('+010000')
      const button = (id: string) => page.match(new RegExp(`<button[^>]*id="${id}"[^>]*>`))?.[0]
      expect(button('calendar-next')).toMatch(/\sdisabled=""/)
      expect(button('calendar-previous')).toMatch(/aria-disabled="false"/)
      expect(button('calendar-previous')).not.toMatch(/\sdisabled=""/)
    }
  })

  it('sends a signed-in user who may not use the admin away', async () => {
    const subscriber = await userWithRole('subscriber')
    const reply = await call(`/admin/calendar?date=${MONTH}-01`, { token: subscriber.token })
    expect(reply.status, String(reply.body).slice(0, 300)).toBe(307)
    expect(reply.headers.get('location')).toBe('/admin/unauthorized')
  })
})
