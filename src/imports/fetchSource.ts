/**
 * Reading another server for an import: every request goes through the import's address guard
 * (IMPORT_ALLOW_PRIVATE), and every way it can go wrong becomes a message that names the URL and
 * says what came back (docs/api.md §23.5).
 */
import { STATUS_CODES } from 'node:http'
import { AnswerTooLarge, FetchError, guardedGet, type GuardedAnswer } from '../network/guardedGet'
import { importGuard, REFUSED_NOTE } from './guard'
import { maxAnswerBytes, maxRunBytes, requestDeadlineMs, type ReadBudget } from './limits'

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

export type FetchOptions = { authorization?: string; accept?: string; budget?: ReadBudget }

const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10

/**
 * A GET that answered 2xx, within the import's limits (`limits.ts`): the answer's size, the run's
 * `budget` when given, the request's deadline. Any other status is a FetchError naming it (and the
 * server's own message when it gave one).
 */
export async function fetchOk(url: string, options: FetchOptions = {}): Promise<GuardedAnswer> {
  const headers: Record<string, string> = {
    Accept: options.accept ?? '*/*',
    'User-Agent': 'cal-events-import',
  }
  if (options.authorization) headers.Authorization = options.authorization
  const { budget } = options
  if (budget && budget.left <= 0)
    throw new FetchError(
      `GET ${url}: the run has read ${megabytes(maxRunBytes())} MB, all one run may read (IMPORT_MAX_RUN_MB)`,
    )
  const byRun = budget !== undefined && budget.left < maxAnswerBytes()
  const answer = await guardedGet(url, {
    guard: importGuard,
    headers,
    deadlineMs: requestDeadlineMs(),
    maxBytes: byRun ? budget.left : maxAnswerBytes(),
    notes: {
      refused: REFUSED_NOTE,
      deadline: 'IMPORT_REQUEST_SECONDS',
      size: byRun ? `what is left of the run's IMPORT_MAX_RUN_MB` : 'IMPORT_MAX_ANSWER_MB',
    },
  }).catch((error: unknown) => {
    // An answer cut off at the run's last bytes spends them: the run reads nothing more.
    if (byRun && error instanceof AnswerTooLarge) budget.left = 0
    throw error
  })
  if (budget) budget.left -= Buffer.byteLength(answer.body)
  if (answer.status >= 200 && answer.status < 300) return answer
  if (answer.status >= 300 && answer.status < 400)
    throw new FetchError(`GET ${url}: HTTP ${answer.status} redirect without a Location`)
  const reason = STATUS_CODES[answer.status] ?? 'error'
  throw new FetchError(`GET ${url}: HTTP ${answer.status} ${reason}${serverMessage(answer.body)}`)
}

/** `{ code, message }` error bodies (WordPress's, ours) say what went wrong better than the status. */
function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown }
    if (typeof parsed.message === 'string')
      return `: ${parsed.message}${typeof parsed.code === 'string' ? ` (${parsed.code})` : ''}`
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
      html
        ? `GET ${url}: answered an HTML page, not JSON (is this the API's root?)`
        : `GET ${url}: the answer is not JSON (${type || 'no content type'})`,
    )
  }
}
