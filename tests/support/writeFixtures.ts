/**
 * Helpers for the write-side black-box tests (events, venues, organizers, categories, tags): every
 * namespace call goes through `api()`, which also checks the two rules that hold for every answer
 * (docs/api.md §11): no 5xx, and every error is `{ code, message, data: { status } }` with the HTTP
 * status equal to `data.status`.
 */
import { expect } from 'vitest'
import { asAdmin, call, NS, unique, type Call, type Reply } from './api'
import { expectEnvelope } from './expectations'

/** A namespace call (`path` starts with `/`), checked for the universal error rules. */
export async function api<T = any>(path: string, options: Call = {}): Promise<Reply<T>> {
  const reply = await call<T>(`${NS}${path}`, options)
  const where = `${options.method ?? 'GET'} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`
  expect(reply.status, `no 5xx: ${where}`).toBeLessThan(500)
  if (reply.status >= 400) expectEnvelope(reply, where)
  return reply
}

/** A form-urlencoded body from pairs, for repeated keys (`cost[]=0$&cost[]=20$`) and brackets. */
export function formPairs(pairs: [string, string][]): Pick<Call, 'body' | 'headers'> {
  return {
    body: pairs
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
      .join('&'),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }
}

/** The smallest valid event body: a unique title and fixed dates far in the future. */
export function eventBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: unique('ev'),
    start_date: '2030-01-01 10:00:00',
    end_date: '2030-01-01 12:00:00',
    ...extra,
  }
}

/** Creates an event through the namespace and returns its object (fails the test unless 201). */
export async function createEventAs(
  token: string | undefined,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const reply = await api('/events', { method: 'POST', token, json: eventBody(extra) })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

export async function createVenueAs(
  token: string | undefined,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const reply = await api('/venues', {
    method: 'POST',
    token,
    json: { venue: unique('venue'), ...extra },
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

export async function createOrganizerAs(
  token: string | undefined,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const reply = await api('/organizers', {
    method: 'POST',
    token,
    json: { organizer: unique('org'), ...extra },
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

/** The event as a signed-in reader (default: the administrator) gets it from `GET /events/{id}`. */
export async function readEvent(id: number, query = '', token?: string): Promise<any> {
  const reply = await api(`/events/${id}${query}`, { token: token ?? (await asAdmin()) })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body
}

/** Documents of a Payload collection matching `where` (bracket query string), read as the administrator. */
export async function payloadDocs(
  collection: string,
  where: string,
  locale?: string,
): Promise<any[]> {
  const reply = await call(
    `/api/${collection}?${where}&limit=100&depth=0${locale ? `&locale=${locale}` : ''}`,
    { token: await asAdmin() },
  )
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.docs
}

/** The site settings as they are now (other test files may change and restore them). */
export async function siteTimezone(): Promise<string> {
  const reply = await call('/api/globals/settings')
  return (reply.body?.timezone as string) || 'UTC'
}

export const EVENT_KEYS = [
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'title',
  'description',
  'excerpt',
  'slug',
  'image',
  'all_day',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  'custom_fields',
  'recurrence',
  'post_parent',
]

/** `{ year, month, day, hour, minutes, seconds }` of a `YYYY-MM-DD HH:MM:SS` string (docs/api.md §3.7). */
export function details(wallClock: string) {
  const [date = '', time = ''] = wallClock.split(' ')
  const [year, month, day] = date.split('-')
  const [hour, minutes, seconds] = time.split(':')
  return { year, month, day, hour, minutes, seconds }
}
