/**
 * Fixtures for the `cal/events/v1` black-box tests: records are made through Payload's own REST API as
 * the administrator, and the namespace is read over HTTP as a website would.
 */
import { asAdmin, call, NS, type Reply } from './api'

type Doc = { id: number; [key: string]: unknown }

async function create(collection: string, data: Record<string, unknown>): Promise<Doc> {
  const reply = await call(`/api/${collection}`, {
    method: 'POST',
    token: await asAdmin(),
    json: data,
  })
  if (reply.status !== 201)
    throw new Error(`creating ${collection} failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body.doc as Doc
}

/** An hour after `instant`: the default length of fixture events. */
function hourAfter(iso: string): string {
  return new Date(new Date(iso).getTime() + 3_600_000).toISOString()
}

/** A published event; `start` defaults to tomorrow at noon (UTC), `end` to an hour after `start`. */
export async function createEvent(data: Record<string, unknown> & { title: string }): Promise<Doc> {
  const start = (data.start as string | undefined) ?? dayAt(1, 12)
  return create('events', { status: 'publish', start, end: hourAfter(start), ...data })
}

export async function createVenue(data: Record<string, unknown> & { name: string }): Promise<Doc> {
  return create('venues', { status: 'publish', ...data })
}

export async function createOrganizer(
  data: Record<string, unknown> & { name: string },
): Promise<Doc> {
  return create('organizers', { status: 'publish', ...data })
}

export async function createCategory(
  data: Record<string, unknown> & { name: string },
): Promise<Doc> {
  return create('event-categories', data)
}

export async function createTag(data: Record<string, unknown> & { name: string }): Promise<Doc> {
  return create('event-tags', data)
}

/** Sets localized values of an event in another language (Payload's `?locale=`). */
export async function translateEvent(
  id: number,
  locale: string,
  data: Record<string, unknown>,
): Promise<void> {
  const reply = await call(`/api/events/${id}?locale=${locale}`, {
    method: 'PATCH',
    token: await asAdmin(),
    json: data,
  })
  if (reply.status !== 200)
    throw new Error(`translating event ${id} failed: ${reply.status} ${JSON.stringify(reply.body)}`)
}

/** Changes the settings global and returns the previous values of the changed keys, to restore them. */
export async function changeSettings(
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const before = (await call('/api/globals/settings')).body as Record<string, unknown>
  const reply = await call('/api/globals/settings', {
    method: 'POST',
    token: await asAdmin(),
    json: values,
  })
  if (reply.status !== 200)
    throw new Error(`changing settings failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  return Object.fromEntries(Object.keys(values).map((key) => [key, before[key] ?? null]))
}

export async function restoreSettings(previous: Record<string, unknown>): Promise<void> {
  const reply = await call('/api/globals/settings', {
    method: 'POST',
    token: await asAdmin(),
    json: previous,
  })
  if (reply.status !== 200)
    throw new Error(`restoring settings failed: ${reply.status} ${JSON.stringify(reply.body)}`)
}

/** A Lexical rich-text value with one paragraph per text, as the admin stores a description. */
export function richText(...paragraphs: string[]) {
  return {
    root: {
      type: 'root',
      format: '',
      indent: 0,
      version: 1,
      direction: 'ltr',
      children: paragraphs.map((text) => ({
        type: 'paragraph',
        format: '',
        indent: 0,
        version: 1,
        direction: 'ltr',
        textFormat: 0,
        textStyle: '',
        children: [
          { type: 'text', text, format: 0, detail: 0, mode: 'normal', style: '', version: 1 },
        ],
      })),
    },
  }
}

/** GET under the namespace (`path` starts with `/`), optionally as a signed-in user. */
export function ns<T = any>(path: string, token?: string): Promise<Reply<T>> {
  return call<T>(`${NS}${path}`, { token })
}

/** A query string from pairs, encoded as a browser would (`+` in values becomes `%2B`). */
export function qs(params: Record<string, string | number | boolean | undefined>): string {
  const pairs = Object.entries(params).filter(([, value]) => value !== undefined) as [
    string,
    string,
  ][]
  return new URLSearchParams(pairs.map(([k, v]) => [k, String(v)])).toString()
}

/** Midnight UTC of today plus `days`, at `hour`:00 UTC, as an ISO instant. */
export function dayAt(days: number, hour = 12, minute = 0): string {
  const now = new Date()
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, hour, minute),
  ).toISOString()
}

/** `YYYY-MM-DD` of today plus `days`, plus `months`, in UTC. */
export function ymd(days: number, months = 0): string {
  const now = new Date()
  const date = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, now.getUTCDate() + days),
  )
  return date.toISOString().slice(0, 10)
}

/** `rest_url` and friends split into the list URL and its query arguments (order-insensitive comparison). */
export function splitUrl(url: string): { base: string; params: Record<string, string> } {
  const parsed = new URL(url)
  return {
    base: `${parsed.origin}${parsed.pathname}`,
    params: Object.fromEntries(parsed.searchParams.entries()),
  }
}

export function titles(reply: Reply): string[] {
  return (reply.body.events as { title: string }[]).map((event) => event.title)
}

/** GETs an absolute URL the API handed out, following redirects as a browser's fetch does. */
export async function follow(url: string, token?: string): Promise<Reply> {
  const response = await fetch(url, { headers: token ? { Authorization: `JWT ${token}` } : {} })
  const text = await response.text()
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body }
}
