/** Sending a request: credentials, bodies materialised, one retry of a connection reset. */
import { encodePairs } from './queries'
import { type Auth, type BodySpec, type FuzzRequest } from './request'
import { NAMESPACE } from './routes'

export type Tokens = { administrator?: string }

export type Outcome = {
  status: number
  headers: Headers
  text: string
  ms: number
  /** Set when no HTTP answer came back. */
  error?: string
  /** fetch refused to send it (e.g. a header value fetch itself rejects): not the server's doing. */
  unsendable?: boolean
  /** The network error of a first attempt that was retried. */
  retried?: string
}

const EXPIRED_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MSwiY29sbGVjdGlvbiI6InVzZXJzIiwiZW1haWwiOiJhZG1pbkBjYWxlbmRhci50ZXN0IiwiaWF0IjoxLCJleHAiOjJ9.c2lnbmF0dXJl'

function authorization(auth: Auth, tokens: Tokens): Record<string, string> {
  switch (auth) {
    case 'administrator':
      return tokens.administrator ? { Authorization: `JWT ${tokens.administrator}` } : {}
    case 'bad-jwt':
      return { Authorization: 'JWT eyJhbGciOiJub25lIn0.eyJpZCI6MSwiY29sbGVjdGlvbiI6InVzZXJzIn0.' }
    case 'expired-jwt':
      return { Authorization: `JWT ${EXPIRED_JWT}` }
    case 'bad-api-key':
      return { Authorization: "users API-Key ' OR 1=1--" }
    case 'malformed':
      return { Authorization: 'Bearer \u00e9\u00e9' }
    default:
      return {}
  }
}

function hugeBuffer(bytes: number, contentType: string): Buffer {
  const buffer = Buffer.alloc(bytes, 0x61)
  if (contentType.startsWith('application/json')) {
    buffer.write('{"title":"', 0)
    buffer.write('"}', bytes - 2)
  } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
    buffer.write('title=', 0)
  }
  return buffer
}

function hugeStream(bytes: number, contentType: string): ReadableStream<Uint8Array> {
  const whole = hugeBuffer(bytes, contentType)
  const chunk = 64 * 1024
  let offset = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= whole.length) return controller.close()
      controller.enqueue(new Uint8Array(whole.subarray(offset, offset + chunk)))
      offset += chunk
    },
  })
}

function bodyOf(spec: BodySpec): { body?: BodyInit; contentType?: string; stream?: boolean } {
  switch (spec.kind) {
    case 'none':
      return {}
    case 'json': {
      let text: string
      try {
        text = JSON.stringify(spec.value) ?? 'null'
      } catch {
        text = '{}'
      }
      return { body: text, contentType: spec.contentType }
    }
    case 'text':
      return { body: spec.text, contentType: spec.contentType }
    case 'bytes':
      return { body: new Uint8Array(spec.bytes), contentType: spec.contentType }
    case 'form':
      return { body: encodePairs(spec.pairs), contentType: spec.contentType }
    case 'multipart':
      return { body: spec.raw, contentType: spec.contentType }
    case 'bomb':
      return { body: spec.text, contentType: spec.contentType }
    case 'huge':
      return {
        body: new Uint8Array(hugeBuffer(spec.bytes, spec.contentType)),
        contentType: spec.contentType,
      }
    case 'stream':
      return {
        body: hugeStream(spec.bytes, spec.contentType),
        contentType: spec.contentType,
        stream: true,
      }
  }
}

function urlOf(base: string, request: FuzzRequest): string {
  return `${base}${request.prefix}${NAMESPACE}${request.path}${request.query ? `?${request.query}` : ''}`
}

/**
 * Sends a request. A connection reset before any answer is retried once (after 250 ms): a keep-alive
 * socket closed by the server just as the client reused it is a race of HTTP/1.1 clients, not an answer;
 * so is a body over the limit whose connection the server closes after its early 413, before the
 * client, still sending, has read it (seen once in 100k requests on a loaded machine). Two in a row
 * are reported.
 */
export async function send(
  base: string,
  request: FuzzRequest,
  tokens: Tokens,
  timeoutMs = 60_000,
): Promise<Outcome> {
  const first = await sendOnce(base, request, tokens, timeoutMs)
  if (
    !first.error ||
    first.unsendable ||
    !/ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed/.test(first.error)
  )
    return first
  await new Promise((resolve) => setTimeout(resolve, 250))
  const second = await sendOnce(base, request, tokens, timeoutMs)
  return { ...second, retried: first.error }
}

async function sendOnce(
  base: string,
  request: FuzzRequest,
  tokens: Tokens,
  timeoutMs: number,
): Promise<Outcome> {
  const { body, contentType, stream } = bodyOf(request.body)
  const headers: Record<string, string> = {
    ...request.headers,
    ...authorization(request.auth, tokens),
  }
  if (contentType !== undefined && contentType !== '') headers['Content-Type'] = contentType
  const started = performance.now()
  let response: Response
  try {
    const init: RequestInit & { duplex?: 'half' } = {
      method: request.method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    }
    if (stream) init.duplex = 'half'
    response = await fetch(urlOf(base, request), init)
  } catch (error) {
    const message = describeError(error)
    // fetch validates URL, method and headers before anything is sent: those are the client's limits.
    const code =
      error instanceof Error ? (error.cause as { code?: string } | undefined)?.code : undefined
    const unsendable =
      error instanceof TypeError &&
      (!/fetch failed/i.test(error.message) || code === 'UND_ERR_INVALID_ARG')
    return {
      status: 0,
      headers: new Headers(),
      text: '',
      ms: performance.now() - started,
      error: message,
      unsendable,
    }
  }
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    return {
      status: response.status,
      headers: response.headers,
      text: '',
      ms: performance.now() - started,
      error: `body: ${describeError(error)}`,
    }
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    ms: performance.now() - started,
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause =
    error.cause instanceof Error
      ? ` (${(error.cause as Error & { code?: string }).code ?? ''} ${error.cause.message})`
      : ''
  return `${error.name}: ${error.message}${cause}`
}

/** Whether the request's body is larger than the namespace reads (413 then, whatever else is wrong). */
export function oversized(request: FuzzRequest, maxBodyBytes = 2 * 1024 * 1024): boolean {
  // A CORS preflight (OPTIONS) is answered before any body would be read.
  return (
    request.method !== 'OPTIONS' &&
    (request.body.kind === 'huge' || request.body.kind === 'stream') &&
    request.body.bytes > maxBodyBytes
  )
}
