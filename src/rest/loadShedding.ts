import type { IncomingMessage, ServerResponse } from 'node:http'
import { isLanguageCode } from '../i18n/languages'
import { DEFAULT_NAMESPACE } from '../options'
import { namespaceFacts } from './frontDoor'
import { errorResponse, RestError } from './http/errors'
import { metrics } from './metrics'

/**
 * Bounds how long a request waits in this instance (docs/operations.md): when more namespace requests
 * are in flight than the instance serves in `SHED_QUEUE_MS`, a new one is answered 503
 * `rest_overloaded` at once instead of queueing for seconds. The rate served is measured, so the bound
 * follows the machine and the query mix. Per instance by nature: it protects this process's event
 * loop and connection pool. Signed-in writes are never shed, and only the namespace is.
 *
 * It runs in the HTTP server in front of Next (scripts/server.ts), before any routing: a refusal
 * costs microseconds, where one refused inside the namespace's pipeline cost the router's and
 * Payload's work (about 2 ms), and a flood of refusals then starved the requests being served.
 */
export type LoadGate = {
  /** Called with each request: false when it was refused (and answered); otherwise it is counted until its answer ends. */
  admit(request: IncomingMessage, response: ServerResponse): boolean
  /** What the instance accepts in flight now. */
  limit(): number
}

const RATE_WINDOW_MS = 1000

/** The namespace, at the root or under a language (`/fr/api/cal/events/v1/...`). */
function inNamespace(path: string, root: string): boolean {
  const at = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`)
  if (at(root)) return true
  const language = /^\/([^/]+)(\/.*)$/.exec(path)
  return Boolean(language && isLanguageCode(language[1]) && at(`/${language[1]}${root}`))
}

/**
 * Signed-in editors' writes go through whatever the load: they are few, and what the site is for.
 * Signed in means a token this site signed (`signedToken.ts`), not any `Authorization` header, which
 * anyone can send to jump the queue; an API key's writes are shed like anonymous ones, since checking
 * one costs a query.
 */
const priority = (request: IncomingMessage) => request.method !== 'GET' && request.method !== 'HEAD' && Boolean(namespaceFacts()?.signedIn(request.headers))

export function loadGate(options: { queueMs: number; minInFlight: number; namespaceRoot?: string }): LoadGate {
  const root = options.namespaceRoot ?? `/api/${DEFAULT_NAMESPACE}`
  const queueSeconds = options.queueMs / 1000
  let inFlight = 0
  let windowStart = Date.now()
  let completedInWindow = 0
  let ratePerSecond = 0
  // The refusal is the same every time: rendered once, in the contract's envelope.
  const refusal = errorResponse(RestError.overloaded(), { 'Cache-Control': 'no-store', 'Access-Control-Expose-Headers': 'Retry-After' })
  const refusalHeaders = Object.fromEntries(refusal.headers)
  const refusalBody = refusal.text()

  const completed = () => {
    inFlight--
    completedInWindow++
    const now = Date.now()
    if (now - windowStart >= RATE_WINDOW_MS) {
      const measured = (completedInWindow * 1000) / (now - windowStart)
      // Smoothed, so one slow second does not halve the bound at once.
      ratePerSecond = ratePerSecond ? 0.5 * ratePerSecond + 0.5 * measured : measured
      windowStart = now
      completedInWindow = 0
    }
  }
  const limit = () => Math.max(options.minInFlight, Math.ceil(ratePerSecond * queueSeconds))
  const { shed } = metrics()

  return {
    limit,
    admit(request, response) {
      if (queueSeconds <= 0 || !inNamespace(request.url ?? '/', root)) return true
      if (!priority(request) && inFlight >= limit()) {
        shed.inc()
        void refusalBody.then((body) => {
          response.writeHead(503, refusalHeaders)
          response.end(body)
        })
        request.resume()
        return false
      }
      inFlight++
      response.once('close', completed)
      return true
    },
  }
}
