/**
 * Helpers for the write-side black-box tests (events, venues, organizers, categories, tags): every
 * namespace call goes through `api()`, which also checks the two rules that hold for every answer
 * (contract §9): no 5xx, and every error is `{ code, message, data: { status } }` with the HTTP
 * status equal to `data.status`.
 */
import { expect } from 'vitest'
import { asAdmin, BASE_URL, call, unique, type Call, type Reply } from './api'

export const NS = '/api/cal/events/v1'
export const ROOT = `${BASE_URL}${NS}`

/** A namespace call (`path` starts with `/`), checked for the universal error rules. */
export async function api<T = any>(path: string, options: Call = {}): Promise<Reply<T>> {
  const reply = await call<T>(`${NS}${path}`, options)
  const where = `${options.method ?? 'GET'} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`
  expect(reply.status, `no 5xx: ${where}`).toBeLessThan(500)
  if (reply.status >= 400) expectEnvelope(reply, where)
  return reply
}

/** The error envelope of contract §9. */
export function expectEnvelope(reply: Reply, where = ''): void {
  const body = reply.body as { code?: unknown; message?: unknown; data?: { status?: unknown } }
  expect(typeof body?.code, `error code: ${where}`).toBe('string')
  expect(typeof body?.message, `error message: ${where}`).toBe('string')
  expect(String(body.message).length, `error message: ${where}`).toBeGreaterThan(0)
  expect(body.data?.status, `data.status = HTTP status: ${where}`).toBe(reply.status)
}

/** Asserts status and code of an error reply (the envelope itself is checked by `api`). */
export function expectError(reply: Reply, status: number, code: string): void {
  expect({ status: reply.status, code: (reply.body as { code?: string })?.code }, JSON.stringify(reply.body)).toEqual({ status, code })
}

/** A 400 `rest_invalid_param` whose `data.params` names `param` (and, when given, only these). */
export function expectInvalidParam(reply: Reply, param: string): void {
  expectError(reply, 400, 'rest_invalid_param')
  expect(Object.keys(reply.body.data.params ?? {}), JSON.stringify(reply.body)).toContain(param)
  // WordPress's nested form of the same: one error object per parameter.
  expect(reply.body.data.details?.[param]).toEqual({ code: 'rest_invalid_param', message: reply.body.data.params[param], data: { param } })
}

/** A 400 `rest_missing_callback_param` listing exactly `names` (any order). */
export function expectMissing(reply: Reply, names: string[]): void {
  expectError(reply, 400, 'rest_missing_callback_param')
  expect([...(reply.body.data.params as string[])].sort(), JSON.stringify(reply.body)).toEqual([...names].sort())
}

/** A form-urlencoded body from pairs, for repeated keys (`cost[]=0$&cost[]=20$`) and brackets. */
export function formPairs(pairs: [string, string][]): Pick<Call, 'body' | 'headers'> {
  return {
    body: pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&'),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }
}

/** The smallest valid event body: a unique title and fixed dates far in the future. */
export function eventBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: unique('ev'), start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 12:00:00', ...extra }
}

/** Creates an event through the namespace and returns its object (fails the test unless 201). */
export async function createEventAs(token: string | undefined, extra: Record<string, unknown> = {}): Promise<any> {
  const reply = await api('/events', { method: 'POST', token, json: eventBody(extra) })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

export async function createVenueAs(token: string | undefined, extra: Record<string, unknown> = {}): Promise<any> {
  const reply = await api('/venues', { method: 'POST', token, json: { venue: unique('venue'), ...extra } })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body
}

export async function createOrganizerAs(token: string | undefined, extra: Record<string, unknown> = {}): Promise<any> {
  const reply = await api('/organizers', { method: 'POST', token, json: { organizer: unique('org'), ...extra } })
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
export async function payloadDocs(collection: string, where: string, locale?: string): Promise<any[]> {
  const reply = await call(`/api/${collection}?${where}&limit=100&depth=0${locale ? `&locale=${locale}` : ''}`, { token: await asAdmin() })
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
]

/** `{ year, month, day, hour, minutes, seconds }` of a `YYYY-MM-DD HH:MM:SS` string (upstream §4.5). */
export function details(wallClock: string) {
  const [date = '', time = ''] = wallClock.split(' ')
  const [year, month, day] = date.split('-')
  const [hour, minutes, seconds] = time.split(':')
  return { year, month, day, hour, minutes, seconds }
}

/** A 4×3 red PNG, small enough to inline. */
const PNG_4x3 =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWP4z8AARwgWOgcA9TEL9UV+YsgAAAAASUVORK5CYII='

/** Uploads an image into Payload's `media` collection as the administrator; returns the media document. */
export async function uploadImage(name = `${unique('img')}.png`): Promise<{ id: number; url: string; filename: string }> {
  const form = new FormData()
  form.append('file', new Blob([Buffer.from(PNG_4x3, 'base64')], { type: 'image/png' }), name)
  form.append('_payload', JSON.stringify({ alt: name }))
  const reply = await call('/api/media', { method: 'POST', token: await asAdmin(), body: form })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body.doc
}
