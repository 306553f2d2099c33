import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { inNamespace, NAMESPACE_ROOT } from './namespacePath'
import { metrics } from './metrics'
import { ownedBytes, type Sent } from './sent'
import { answerFailure } from './handlerFailure'
import { KEPT_ENTRY_BYTES, keptHeaders } from './keptHeaders'
import { namespaceFacts, type NamespaceFacts } from './namespaceFacts'
import { requestBody } from './requestBody'
import type { Admission, Turns } from './turns'

/**
 * Anonymous namespace answers served by the HTTP server in front of Next (scripts/server.ts), as Next
 * sent them, without Next's router or Payload's request (docs/performance.md): a kept answer costs no
 * query and a fraction of a millisecond, where the same answer from the namespace's own cache cost
 * about 10 ms of routing and request set-up.
 *
 * An answer is kept only when the namespace says it may be shared: it has the ETag of an anonymous
 * answer made at a known content revision. It is served only while that revision is still the one
 * PostgreSQL pushes to this instance (`revisionListener.ts`), and only to requests that could not have
 * been answered otherwise: GETs without credentials, cookies or conditions, with the same URL and the
 * same headers that shape an answer (host and forwarding, origin for CORS, encodings, languages). The
 * read rate limit is taken as the namespace takes it, so kept answers count like any other.
 */

/** Request headers an answer may depend on besides its URL. */
const SHAPING_HEADERS = [
  'host',
  'x-forwarded-host',
  'x-forwarded-proto',
  'origin',
  'accept-encoding',
  'accept-language',
]
/** Response headers that belong to one transfer or one request, not to the answer. */
const PER_RESPONSE = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-query-count',
  'x-answered-by',
  'x-request-id',
])

/**
 * An answer as kept: its headers as `keptHeaders` lists them, and what keeping it costs. Its body is
 * the very bytes the namespace sent (which its own cache keeps too: held once, docs/performance.md,
 * "One copy of an answer for both caches, as its bytes"), or a copy of an answer written in parts.
 */
type Kept = { until?: number; headers: (string | string[])[]; body: Buffer; bytes: number }

/** Only these requests may be served what another anonymous caller was. */
function servable(request: IncomingMessage): boolean {
  const headers = request.headers
  return (
    request.method === 'GET' &&
    !headers.authorization &&
    !headers.cookie &&
    !headers['if-none-match'] &&
    !headers['if-modified-since']
  )
}

/** A response header as one line (Next appends headers, so that each may be a list). */
function headerText(response: ServerResponse, name: string): string {
  const value = response.getHeader(name)
  return Array.isArray(value) ? value.join(', ') : String(value ?? '')
}

function keyOf(request: IncomingMessage): string {
  return JSON.stringify([
    request.url,
    ...SHAPING_HEADERS.map((name) => request.headers[name] ?? ''),
  ])
}

/** How many URLs' answers not kept at a revision are remembered, so as not to wait for them again. */
const UNKEPT_KEYS = 10_000

/** An answer being made: the revision it was asked at, and when it is sent (or given up waiting for). */
type Making = { revision: string | undefined; sent: Promise<void> }

const hashOf = (key: string) => createHash('sha1').update(key).digest('base64')
/**
 * The longest a request waits for the answer being made for its URL: longer than an answer takes to
 * make under load (the gate's deadline, `SHED_QUEUE_MS`, 500 ms by default, and the making), short
 * enough that a stuck one holds its followers for less than a refusal's `Retry-After` (5 s).
 */
const MAKING_WAIT_MS = 2_000

export class FrontDoor {
  private kept = new Map<string, Kept>()
  private bytes = 0
  /** The revision of every kept answer: a newer one drops them all. */
  private revision: string | undefined
  /**
   * The namespace's answers being made for a URL that missed, until each is sent: a request that
   * misses the same URL at the same revision meanwhile waits for it and is served what was kept,
   * rather than making it again or being refused by the gate (a flash crowd on a cold URL, as after
   * every write, is one answer made).
   */
  private making = new Map<string, Making>()
  /**
   * The hashes of URLs whose answer was made but not kept at this revision (one caller's, a 404): not
   * waited for again. Hashes, so that a long URL costs no more than a short one.
   */
  private unkept = new Set<string>()

  /** `budgetBytes`: what the kept answers may take (0 keeps none). */
  constructor(private readonly budgetBytes: number) {}

  /**
   * Serves a kept answer to this request if there is one for the current revision (true), once the
   * answer being made for its URL, if any, is sent; else lets it through and, when the answer may be
   * kept, keeps it as Next sends it (false).
   */
  async serve(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const facts = namespaceFacts()
    if (!this.budgetBytes || !facts) return false
    // Any request, writes too, drops answers of an older revision: a run of writes does not keep them.
    const revision = facts.revision()
    if (revision !== this.revision) this.startRevision(revision)
    if (!servable(request)) return false
    const key = keyOf(request)
    let kept = this.current(key)
    const making = kept ? undefined : this.making.get(key)
    if (making && making.revision === this.revision && !this.unkept.has(hashOf(key))) {
      await making.sent
      // Its caller gone while it waited: nothing to answer, and nothing may count it in flight.
      if (response.destroyed) return true
      // A write may have moved the revision meanwhile: what was kept before it serves no one.
      const now = facts.revision()
      if (now !== this.revision) this.startRevision(now)
      kept = this.current(key)
    }
    // Kept only if the revision is known when the answer is sent: an instance's first requests may come before it is pushed.
    if (!kept) {
      metrics().answerCache.inc({ layer: 'front_door', result: 'miss' })
      this.keepWhatIsSent(key, request, response, facts)
      return false
    }
    const limits = await facts.admitRead(new Headers(request.headers as Record<string, string>))
    if (response.destroyed) return true
    // Over the limit: the namespace answers, with its 429.
    if (!limits) return false
    metrics().answerCache.inc({ layer: 'front_door', result: 'hit' })
    this.kept.delete(key)
    this.kept.set(key, kept)
    const headers = kept.headers
    for (let at = 0; at < headers.length; at += 2)
      response.setHeader(headers[at] as string, headers[at + 1]!)
    for (const [name, value] of Object.entries(limits)) response.setHeader(name, value)
    if (facts.countsQueries) {
      response.setHeader('X-Query-Count', Object.keys(limits).length ? '1' : '0')
      response.setHeader('X-Answered-By', 'front-door')
    }
    response.setHeader('Content-Length', kept.body.length)
    response.writeHead(200)
    response.end(kept.body)
    return true
  }

  /** The answer kept for this URL, if it has not run out (an answer that reads the clock ends at its time). */
  private current(key: string): Kept | undefined {
    const kept = this.kept.get(key)
    if (kept?.until !== undefined && Date.now() >= kept.until) {
      this.forget(key, kept)
      return undefined
    }
    return kept
  }

  /**
   * Those missing `key` at this revision from now until the namespace's answer to `request` is sent
   * wait for it, at most `MAKING_WAIT_MS` (a stuck answer holds no one longer). Once it is sent they
   * look again; a URL whose answer was made and sent but not kept (one caller's, a 404) is not waited
   * for again at this revision. Only the namespace's: nothing else is ever kept.
   */
  private waitFor(key: string, request: IncomingMessage, response: ServerResponse): () => void {
    // One asked at an older revision is no one's to wait for: this one takes its place.
    if (this.making.get(key)?.revision === this.revision) return () => {}
    if (!inNamespace(request.url ?? '/', NAMESPACE_ROOT)) return () => {}
    let wake!: () => void
    const making: Making = {
      revision: this.revision,
      sent: new Promise<void>((resolve) => (wake = resolve)),
    }
    this.making.set(key, making)
    // Another may have taken its place meanwhile (after the wait's cap, or at a newer revision).
    const release = () => {
      if (this.making.get(key) === making) this.making.delete(key)
      wake()
    }
    const timer = setTimeout(release, MAKING_WAIT_MS).unref()
    let settled = false
    const settle = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      // Not what the URL's answer is: a refusal (the gate's 503, one caller's 429, a failure), a
      // caller gone before the end, or an answer made at a revision now past.
      const refused = response.statusCode === 429 || response.statusCode >= 500
      if (
        response.writableEnded &&
        !refused &&
        making.revision === this.revision &&
        !this.kept.has(key)
      ) {
        if (this.unkept.size >= UNKEPT_KEYS) this.unkept.clear()
        this.unkept.add(hashOf(key))
      }
      release()
    }
    response.once('close', settle)
    return settle
  }

  private keepWhatIsSent(
    key: string,
    request: IncomingMessage,
    response: ServerResponse,
    facts: NamespaceFacts,
  ): void {
    const sent = this.waitFor(key, request, response)
    const chunks: Uint8Array[] = []
    let size = 0
    let keeping = true
    const write = response.write.bind(response)
    const end = response.end.bind(response)
    // `last`: the chunk given to `end`, which its sender writes no more: kept as it is, not copied.
    const take = (chunk: unknown, encoding: unknown, last: boolean) => {
      if (!keeping || chunk === undefined || chunk === null || typeof chunk === 'function') return
      const buffer =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : last
            ? (chunk as Uint8Array)
            : Buffer.from(chunk as Uint8Array)
      size += buffer.byteLength
      // One large answer (a feed, an export) must not push out everything else.
      if (size > this.budgetBytes / 8) keeping = false
      else chunks.push(buffer)
    }
    response.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
      take(chunk, encoding, false)
      return write(chunk as never, encoding as never, callback as never)
    }) as typeof response.write
    response.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
      take(chunk, encoding, true)
      const ended = end(chunk as never, encoding as never, callback as never)
      if (keeping) this.keepAnswer(key, response, ownedBytes(chunks), facts)
      // Those waiting are served now, not once the answer has reached its own caller.
      sent()
      return ended
    }) as typeof response.end
  }

  private keepAnswer(
    key: string,
    response: ServerResponse,
    body: Buffer,
    facts: NamespaceFacts,
  ): void {
    const etag = headerText(response, 'etag')
    const shared = etag ? facts.sharedAt(etag) : undefined
    const cacheControl = headerText(response, 'cache-control')
    const shareable =
      response.statusCode === 200 &&
      cacheControl.startsWith('public') &&
      !response.hasHeader('set-cookie')
    // Made at an older revision than this instance now knows: for nobody else.
    const revision = facts.revision()
    if (
      !shareable ||
      shared === undefined ||
      revision === undefined ||
      shared.revision !== revision
    )
      return
    if (revision !== this.revision) this.startRevision(revision)
    const { list, ownBytes } = keptHeaders(
      Object.entries(response.getHeaders())
        .filter(([name, value]) => value !== undefined && !PER_RESPONSE.has(name))
        .map(
          ([name, value]) =>
            [name, Array.isArray(value) ? value : String(value)] as [string, string | string[]],
        ),
    )
    const previous = this.kept.get(key)
    if (previous) this.forget(key, previous)
    const bytes = body.length + key.length + ownBytes + KEPT_ENTRY_BYTES
    this.kept.set(key, { until: shared.until, headers: list, body, bytes })
    this.bytes += bytes
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= this.budgetBytes) break
      this.forget(oldest, entry)
    }
    this.held()
  }

  /** A newer revision (or none) ends every kept answer. */
  private startRevision(revision: string | undefined): void {
    this.revision = revision
    this.unkept.clear()
    this.kept.clear()
    this.bytes = 0
    this.held()
  }

  private forget(key: string, kept: Kept): void {
    this.kept.delete(key)
    this.bytes -= kept.bytes
    this.held()
  }

  private held(): void {
    metrics().answerCacheBytes.set({ layer: 'front_door' }, this.bytes)
  }
}

/** IncomingMessage headers as fetch's Headers, every value of a repeated header kept. */
function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one)
    else if (value !== undefined) headers.set(name, value)
  }
  return headers
}

/** A GET or a HEAD: never a write's turn in the write lane, and a request Next could still be handed after a failure. */
export const isRead = (request: IncomingMessage): boolean =>
  request.method === 'GET' || request.method === 'HEAD'

/**
 * Hands a namespace request to the namespace directly (`answerWithoutNext`), and sends its answer: true when
 * the namespace answered, or when a GET's turn (`turns`) came after the request's deadline (`admission`) and it was
 * refused instead of served late. False leaves the request to Next, untouched: a URL outside the namespace,
 * a path with encoded characters or empty segments (Next's own handling comes first: `src/proxy.ts`),
 * a method Next's routes answer for it (`writesWithoutNext`), Payload not started yet, or a read's
 * failure before anything was sent. A write takes its turn in the write lane, inside the namespace;
 * once its body is asked for it is answered here whatever happens, since Next could not read it again.
 * `origin` is the one Next gives the requests it hands on (its hostname and port; https when
 * forwarded so), so answers link the same way.
 */
export async function passToNamespace(
  request: IncomingMessage,
  response: ServerResponse,
  { origin, turns, admission }: { origin: string; turns: Turns; admission: Admission },
): Promise<boolean> {
  const facts = namespaceFacts()
  const reads = isRead(request)
  if (!facts || (!reads && !writesWithoutNext(request))) return false
  const url = request.url ?? '/'
  const pathname = url.split('?', 1)[0]!
  if (pathname.includes('%') || pathname.includes('//')) return false
  const protocol = String(request.headers['x-forwarded-proto'] ?? '').includes('https')
    ? 'https'
    : 'http'
  const href = `${protocol}://${origin}${url}`
  // As Next does: the handler may give up on a request whose caller has gone. Only then: an abort
  // builds an error with its stack, and every response closes.
  const gone = new AbortController()
  response.once('close', () => response.writableFinished || gone.abort())
  const asked = (body?: ReadableStream<Uint8Array>) =>
    new Request(href, {
      method: request.method,
      headers: headersOf(request),
      signal: gone.signal,
      ...(body ? { body, duplex: 'half' } : {}),
    } as RequestInit)
  if (reads) {
    const make = facts.answer(href, () => asked())
    if (!make) return false
    let answer: Sent | undefined
    try {
      answer = await turns.run(() => (admission.late() ? Promise.resolve(undefined) : make()))
    } catch {
      return false
    }
    if (answer) send(response, answer, facts.countsQueries)
    else admission.refuse()
    return true
  }
  let body: ReturnType<typeof requestBody> | undefined
  try {
    const make = facts.answer(href, () => asked((body = requestBody(request)).stream))
    if (!make) {
      if (!body) return false
      throw new Error('the namespace took a write’s body without answering it')
    }
    send(response, await make(), facts.countsQueries)
  } catch (error) {
    if (!body) return false
    answerFailure(request, response, error)
  } finally {
    body?.settle()
  }
  return true
}

/** Sends the namespace's answer as it gave it. */
function send(response: ServerResponse, answer: Sent, countsQueries: boolean): void {
  response.statusCode = answer.status
  for (const [name, value] of answer.headers)
    if (name !== 'set-cookie') response.setHeader(name, value)
  const cookies = answer.headers.getSetCookie()
  if (cookies.length) response.setHeader('set-cookie', cookies)
  if (countsQueries) response.setHeader('X-Answered-By', 'namespace')
  const { body } = answer
  if (body === null) response.end()
  else {
    response.setHeader('Content-Length', Buffer.byteLength(body))
    response.end(body)
  }
}

/**
 * Whether a namespace write is handed to it without Next: PUT, PATCH, DELETE, and a POST unless it
 * asks, as Payload's router reads it, to be answered as a GET (`X-HTTP-Method-Override: GET`), which
 * that router turns into a GET with its body as the query. OPTIONS (CORS' preflight) stays Next's.
 */
function writesWithoutNext(request: IncomingMessage): boolean {
  const { method, headers } = request
  if (method === 'POST')
    return ![headers['x-payload-http-method-override'], headers['x-http-method-override']].includes(
      'GET',
    )
  return method === 'PUT' || method === 'PATCH' || method === 'DELETE'
}
