/**
 * The rules every answer must follow, as sentences naming what broke them, and a request described
 * for a report.
 */
import { encodePairs } from './queries'
import { type FuzzRequest } from './request'
import { NAMESPACE, PRODUCED } from './routes'
import { type Outcome, oversized } from './send'

/**
 * Everything wrong with one answer, as sentences (empty: nothing). `secrets`: text that must never
 * reach a caller who is not the administrator (content of drafts and password-protected fixtures).
 */
export function violations(
  request: FuzzRequest,
  outcome: Outcome,
  secrets: string[] = [],
): string[] {
  const found: string[] = []
  if (outcome.unsendable) return found
  if (outcome.error) {
    // A server may close the connection of a body it refuses to read after answering 413; and a
    // redirect that echoes a long URL twice (Next's 308 for `//`: Location and Refresh) can exceed the
    // client's 16 KB limit on response headers: the server did answer.
    const headersOverflow =
      /UND_ERR_HEADERS_OVERFLOW/.test(outcome.error) &&
      request.path.length + request.query.length > 6_000
    if (!(oversized(request) && outcome.status === 413) && !headersOverflow)
      found.push(`no answer: ${outcome.error}`)
    return found
  }
  const { status } = outcome
  // Node's HTTP parser refuses request heads over 16 KB with a bare 431 before any application code runs.
  if (status === 431 && request.path.length + request.query.length > 12_000) return found
  if (status >= 500) found.push(`status ${status}`)
  if (status >= 400 && request.method !== 'HEAD') {
    let body: unknown
    try {
      body = JSON.parse(outcome.text)
    } catch {
      body = undefined
    }
    const envelope = body as
      { code?: unknown; message?: unknown; data?: { status?: unknown } } | undefined
    if (!envelope || typeof envelope !== 'object')
      found.push(`${status} without a JSON envelope: ${outcome.text.slice(0, 120)}`)
    else {
      if (typeof envelope.code !== 'string' || !envelope.code)
        found.push(`${status}: code is not a string`)
      if (typeof envelope.message !== 'string' || !envelope.message)
        found.push(`${status}: message is not a string`)
      if (!envelope.data || typeof envelope.data !== 'object' || envelope.data.status !== status)
        found.push(`${status}: data.status is ${JSON.stringify(envelope.data?.status)}`)
    }
  }
  // A redirect (Next's 308 for `//`) or an error answered before the body is read is fine; a success is not.
  if (oversized(request) && status !== 413 && !isNoRoute(outcome) && status < 300)
    found.push(
      `a ${request.body.kind} body of ${(request.body as { bytes: number }).bytes} bytes answered ${status}, not 413`,
    )
  if (outcome.headers.has('set-cookie'))
    found.push(`sets a cookie: ${outcome.headers.get('set-cookie')}`)
  if (outcome.headers.has('x-injected')) found.push('a header was injected through CR/LF')
  if (request.auth !== 'administrator') {
    for (const secret of secrets)
      if (outcome.text.includes(secret))
        found.push(`leaks protected or unpublished content (${secret}) to ${request.auth}`)
  }
  if (status >= 200 && status < 300 && status !== 204 && request.method !== 'HEAD') {
    // A route that answers another media type says so in the table: iCalendar must be a whole
    // VCALENDAR, its last line ended by CRLF like every other (docs/api.md §22), CSV any text; every
    // other answer is JSON.
    const type = (outcome.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    if (type === 'text/calendar') {
      if (!/^BEGIN:VCALENDAR\r\n[^]*\r\nEND:VCALENDAR\r\n$/.test(outcome.text))
        found.push(`${status} with a calendar that is not a VCALENDAR`)
      return found
    }
    if (PRODUCED.has(type)) return found
    try {
      JSON.parse(outcome.text)
    } catch {
      found.push(`${status} with a body that is not JSON`)
    }
  }
  return found
}

function isNoRoute(outcome: Outcome): boolean {
  return outcome.text.includes('"rest_no_route"')
}

/** Long runs of one character (`aaaa…`, `a[]=&a[]=&…`) as `a…(×2000)`, so that reports stay readable. */
function squeeze(text: string): string {
  return text.replace(
    /(.{1,6}?)\1{20,}/gs,
    (run, unit: string) => `${unit}…(×${run.length / unit.length})`,
  )
}

/** A short, printable form of a request (bodies cut), for failure reports. */
export function describe(request: FuzzRequest): string {
  const body = request.body
  let shown: string
  switch (body.kind) {
    case 'none':
      shown = ''
      break
    case 'huge':
    case 'stream':
      shown = `<${body.kind} ${body.bytes} bytes, ${body.contentType}>`
      break
    case 'json':
      shown = `${body.contentType} ${safeJson(body.value).slice(0, 300)}`
      break
    case 'form':
      shown = `${body.contentType} ${encodePairs(body.pairs).slice(0, 300)}`
      break
    case 'bytes':
      shown = `${body.contentType ?? '-'} <${body.bytes.length} bytes>`
      break
    default:
      shown = `${body.contentType ?? '-'} ${JSON.stringify(body.kind === 'multipart' ? body.raw : body.text).slice(0, 300)}`
  }
  shown = squeeze(shown)
  const full = squeeze(
    `${request.prefix}${NAMESPACE}${request.path}${request.query ? `?${request.query}` : ''}`,
  )
  const url = full.length > 400 ? `${full.slice(0, 400)}…(${full.length} chars)` : full
  return `${request.method} ${url} as ${request.auth}${Object.keys(request.headers).length ? ` ${JSON.stringify(request.headers)}` : ''}${shown ? ` body: ${shown}` : ''}`
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined'
  } catch {
    return String(value)
  }
}
