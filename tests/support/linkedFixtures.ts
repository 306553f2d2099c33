/**
 * Helpers of the venue, organizer and term read tests: records through Payload's own REST API as the
 * administrator, plus the values the namespace derives from them (wall-clock dates, global ids).
 */
import { expect } from 'vitest'
import { asAdmin, BASE_URL, call, type Reply } from './api'

export type Doc = {
  id: number
  slug: string
  publishedAt: string
  createdAt: string
  updatedAt: string
  [key: string]: unknown
}

/** `2031-03-04T09:05:07.123Z` → `2031-03-04 09:05:07`: the site zone is UTC out of the box. */
export function wallClock(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19).replace('T', ' ')
}

/** Upstream's `global_id` of a record of this site: host (and path) of the site URL, then `?id=`. */
export function globalId(id: number): string {
  return `${new URL(BASE_URL).host}?id=${id}`
}

let adminIdPromise: Promise<number> | undefined

/** The administrator's user id: the author of everything the fixtures create. */
export function adminId(): Promise<number> {
  adminIdPromise ??= (async () => {
    const me = await call('/api/users/me', { token: await asAdmin() })
    return me.body.user.id as number
  })()
  return adminIdPromise
}

/** Creates a record through Payload's REST API as the administrator (no default status). */
export async function createDoc(collection: string, data: Record<string, unknown>): Promise<Doc> {
  const reply = await call(`/api/${collection}`, {
    method: 'POST',
    token: await asAdmin(),
    json: data,
  })
  if (reply.status !== 201)
    throw new Error(`creating ${collection} failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body.doc as Doc
}

/** Changes a record through Payload's REST API as the administrator, optionally in one language. */
export async function patchDoc(
  collection: string,
  id: number,
  data: Record<string, unknown>,
  locale?: string,
): Promise<Doc> {
  const query = locale ? `?locale=${locale}` : ''
  const reply = await call(`/api/${collection}/${id}${query}`, {
    method: 'PATCH',
    token: await asAdmin(),
    json: data,
  })
  if (reply.status !== 200)
    throw new Error(
      `updating ${collection} ${id} failed: ${reply.status} ${JSON.stringify(reply.body)}`,
    )
  return reply.body.doc as Doc
}

/** The record as stored now (English values, depth 0), as the administrator sees it. */
export async function readDoc(collection: string, id: number): Promise<Doc> {
  const reply = await call(`/api/${collection}/${id}?depth=0`, { token: await asAdmin() })
  if (reply.status !== 200)
    throw new Error(
      `reading ${collection} ${id} failed: ${reply.status} ${JSON.stringify(reply.body)}`,
    )
  return reply.body as Doc
}

/** Asserts a list answer's totals in the body and in the `X-Total` / `X-Total-Pages` headers. */
export function expectTotals(reply: Reply, total: number, totalPages: number): void {
  expect(
    { status: reply.status, total: reply.body.total, total_pages: reply.body.total_pages },
    JSON.stringify(reply.body).slice(0, 500),
  ).toEqual({
    status: 200,
    total,
    total_pages: totalPages,
  })
  expect(reply.headers.get('X-Total')).toBe(String(total))
  expect(reply.headers.get('X-Total-Pages')).toBe(String(totalPages))
}

/** An RFC 8288 `Link` header as `{ rel: url }`; `{}` when there is none. */
export function links(header: string | null): Record<string, string> {
  if (!header) return {}
  const found: Record<string, string> = {}
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>\s*;\s*rel="?([a-z]+)"?$/.exec(part.trim())
    if (!match) throw new Error(`not an RFC 8288 link: ${part}`)
    found[match[2]!] = match[1]!
  }
  return found
}

/** Runs `make` for each index, `batch` at a time: many fixtures without flooding the server. */
export async function inBatches<T>(
  count: number,
  batch: number,
  make: (index: number) => Promise<T>,
): Promise<T[]> {
  const made: T[] = []
  for (let start = 0; start < count; start += batch) {
    const indexes = Array.from({ length: Math.min(batch, count - start) }, (_, n) => start + n)
    made.push(...(await Promise.all(indexes.map(make))))
  }
  return made
}

/** Fields of a protected venue or organizer that must not reach a reader who has not unlocked it. */
export function expectWithheld(
  item: Record<string, unknown>,
  keys: string[],
  secrets: string[],
): void {
  for (const key of keys) {
    const value = item[key]
    expect({
      key,
      withheld: value === undefined || value === '' || value === false || value === 0,
    }).toEqual({ key, withheld: true })
  }
  const text = JSON.stringify(item)
  for (const secret of secrets)
    expect(text, `protected value ${secret} leaked`).not.toContain(secret)
  expect(item).not.toHaveProperty('password')
}
