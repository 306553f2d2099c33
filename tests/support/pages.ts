/**
 * What the public pages' tests show (docs/public-face.md "Public pages"): a published event with a
 * venue, an organizer, a child category, a tag, a cost and a French translation; a weekly series;
 * and events a visitor must not see (a draft, a private and a trashed one) or must unlock.
 */
import { JSDOM } from 'jsdom'
import { expect } from 'vitest'
import { asAdmin, BASE_URL, call, type Reply } from './api'
import { api } from './writeFixtures'

export type PageFixtures = Awaited<ReturnType<typeof createPageFixtures>>

const pad = (n: number) => String(n).padStart(2, '0')

/** The wall clock `days` from today (UTC) at `time`, as the namespace takes it. */
export function wallIn(days: number, time: string): string {
  const date = new Date(Date.now() + days * 86_400_000)
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${time}`
}

async function created(path: string, json: Record<string, unknown>, token: string): Promise<any> {
  const reply = await api(path, { method: 'POST', token, json })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

export async function createPageFixtures(tag: string) {
  const admin = await asAdmin()
  const venue = await created(
    '/venues',
    {
      venue: `${tag} Hall`,
      address: '1 Rue de la Paix',
      city: 'Paris',
      country: 'France',
      status: 'publish',
    },
    admin,
  )
  const organizer = await created(
    '/organizers',
    { organizer: `${tag} Society`, website: 'https://society.example.org', status: 'publish' },
    admin,
  )
  const parent = await created('/categories', { name: `${tag} Music` }, admin)
  const category = await created('/categories', { name: `${tag} Jazz`, parent: parent.id }, admin)
  const label = await created('/tags', { name: `${tag} Outdoors` }, admin)
  const start = wallIn(5, '19:30:00')
  const event = await created(
    '/events',
    {
      // A title that tries to end the JSON-LD script and start one of its own.
      title: `${tag} Night </script><script>alert(1)</script>`,
      slug: `${tag}-night`,
      description: '<p>An evening of <strong>jazz</strong> by the river.</p>',
      start_date: start,
      end_date: start.replace('19:30:00', '22:00:00'),
      timezone: 'Europe/Paris',
      cost: ['0$', '20$'],
      venue: venue.id,
      organizer: [organizer.id],
      categories: [category.id],
      tags: [label.id],
      status: 'publish',
    },
    admin,
  )
  const french = await api(`/events/${event.id}`, {
    method: 'PUT',
    token: admin,
    json: { i18n_language: 'fr', title: `${tag} Soirée`, slug: `${tag}-soiree` },
  })
  expect(french.status, JSON.stringify(french.body)).toBe(200)
  const series = await created(
    '/events',
    {
      title: `${tag} Weekly`,
      slug: `${tag}-weekly`,
      start_date: wallIn(2, '10:00:00'),
      end_date: wallIn(2, '11:00:00'),
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3',
      status: 'publish',
    },
    admin,
  )
  const hidden = async (title: string, extra: Record<string, unknown>) =>
    created(
      '/events',
      {
        title: `${tag} ${title}`,
        slug: `${tag}-${title}`,
        start_date: wallIn(6, '10:00:00'),
        end_date: wallIn(6, '11:00:00'),
        ...extra,
      },
      admin,
    )
  const draft = await hidden('draft', { status: 'draft' })
  const privateEvent = await hidden('private', { status: 'private' })
  const trashed = await hidden('trashed', { status: 'publish' })
  expect((await api(`/events/${trashed.id}`, { method: 'DELETE', token: admin })).status).toBe(200)
  const locked = await hidden('locked', {
    status: 'publish',
    password: 'open sesame',
    description: '<p>The secret programme.</p>',
    start_date: wallIn(7, '18:00:00'),
    end_date: wallIn(7, '20:00:00'),
    timezone: 'Europe/Paris',
  })
  const draftVenue = await created(
    '/venues',
    { venue: `${tag} Draft Hall`, status: 'draft' },
    admin,
  )
  return {
    admin,
    venue,
    organizer,
    parent,
    category,
    label,
    event,
    series,
    draft,
    privateEvent,
    trashed,
    locked,
    draftVenue,
  }
}

/** A page as a visitor's browser gets it, and its document. */
export async function page(
  path: string,
  init: { method?: string; form?: Record<string, string>; from?: string } = {},
): Promise<Reply<string> & { document: Document }> {
  const reply = await call<string>(path, {
    method: init.method,
    form: init.form,
    // The visitor's own address (the tests stand as the site's proxy): password throttles count per address.
    headers: init.from ? { 'X-Forwarded-For': init.from } : {},
  })
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
  return { ...reply, body: text, document: new JSDOM(text).window.document }
}

/** The path of a URL the namespace wrote (its permalinks start at the test server). */
export function pathOf(url: string): string {
  expect(url.startsWith(BASE_URL), url).toBe(true)
  return url.slice(BASE_URL.length)
}
