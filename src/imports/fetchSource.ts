/**
 * Reading another server for an import: every request goes through the import's address guard
 * (IMPORT_ALLOW_PRIVATE), and every way it can go wrong becomes a message that names the URL and
 * says what came back (docs/api.md §23.5).
 */
import { STATUS_CODES } from 'node:http'
import { FetchError, guardedGet, type GuardedAnswer } from '../network/guardedGet'
import { importGuard, namingTheSwitch } from './guard'

export { FetchError }

/**
 * The `Authorization` header for `--auth` credentials: a value with its scheme (`JWT …`, `Bearer …`,
 * `Basic …`, `users API-Key …`) as it is; `user:password` (a WordPress application password's spaces
 * included) as HTTP Basic; any other value as a bearer token.
 */
export function authorizationHeader(credentials: string): string {
  const value = credentials.trim()
  if (/^(JWT|Bearer|Basic|users API-Key) \S/i.test(value)) return value
  if (value.includes(':')) return `Basic ${Buffer.from(value).toString('base64')}`
  return `Bearer ${value}`
}

export type FetchOptions = { authorization?: string; accept?: string }

/** A GET that answered 2xx; any other status is a FetchError naming it (and the server's own message when it gave one). */
export async function fetchOk(url: string, options: FetchOptions = {}): Promise<GuardedAnswer> {
  const headers: Record<string, string> = { Accept: options.accept ?? '*/*', 'User-Agent': 'cal-events-import' }
  if (options.authorization) headers.Authorization = options.authorization
  const answer = await guardedGet(url, { guard: importGuard, headers }).catch((error: unknown) => {
    throw error instanceof FetchError ? new FetchError(namingTheSwitch(error.message)) : error
  })
  if (answer.status >= 200 && answer.status < 300) return answer
  if (answer.status >= 300 && answer.status < 400) throw new FetchError(`GET ${url}: HTTP ${answer.status} redirect without a Location`)
  const reason = STATUS_CODES[answer.status] ?? 'error'
  throw new FetchError(`GET ${url}: HTTP ${answer.status} ${reason}${serverMessage(answer.body)}`)
}

/** `{ code, message }` error bodies (WordPress's, ours) say what went wrong better than the status. */
function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown }
    if (typeof parsed.message === 'string') return `: ${parsed.message}${typeof parsed.code === 'string' ? ` (${parsed.code})` : ''}`
  } catch {
    // not JSON: the status says it all
  }
  return ''
}

export type JsonAnswer = { url: string; body: unknown; headers: GuardedAnswer['headers'] }

/** A GET whose answer must be JSON: an HTML page (a site's front page, a login form) is named as such. */
export async function fetchJson(url: string, options: FetchOptions = {}): Promise<JsonAnswer> {
  const answer = await fetchOk(url, { ...options, accept: 'application/json' })
  try {
    return { url: answer.url, body: JSON.parse(answer.body) as unknown, headers: answer.headers }
  } catch {
    const type = String(answer.headers['content-type'] ?? '').split(';')[0] ?? ''
    const html = /html/i.test(type) || /^\s*<(!doctype|html)/i.test(answer.body)
    throw new FetchError(
      html ? `GET ${url}: answered an HTML page, not JSON (is this the API's root?)` : `GET ${url}: the answer is not JSON (${type || 'no content type'})`,
    )
  }
}
