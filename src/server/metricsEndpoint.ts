import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorResponse, RestError } from './errors'
import { metrics } from './metrics'
import { sameSecret } from '../calendar/sameSecret'

/** Where the production server answers a scrape. */
export const METRICS_PATH = '/metrics'

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** Headers a proxy adds to what it forwards: a request carrying one did not come from this machine's own scraper. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-real-ip']

/**
 * Who may scrape (docs/operations.md, "Metrics"): with `METRICS_TOKEN` set, whoever sends it as a
 * bearer token; without, only a caller on this machine, connected over loopback with no proxy's
 * forwarding header, so that a reverse proxy on the same host does not open the metrics to everyone.
 * Read from the request as it came, before the server rewrites its forwarding headers.
 */
function refusal(request: IncomingMessage, token: string | undefined): RestError | undefined {
  if (token) {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]
    if (sameSecret(given, token)) return undefined
    const error = new RestError('rest_forbidden', 'Sorry, you are not allowed to do that.', 401)
    error.headers['WWW-Authenticate'] = 'Bearer'
    return error
  }
  const local =
    LOOPBACK.has(request.socket.remoteAddress ?? '') &&
    !FORWARDED.some((name) => request.headers[name] !== undefined)
  return local
    ? undefined
    : new RestError('rest_forbidden', 'Sorry, you are not allowed to do that.', 403)
}

/** Answers `GET /metrics` (true), or leaves the request alone (false). */
export function serveMetrics(
  request: IncomingMessage,
  response: ServerResponse,
  token = process.env.METRICS_TOKEN,
): boolean {
  if (
    request.url?.split('?', 1)[0] !== METRICS_PATH ||
    (request.method !== 'GET' && request.method !== 'HEAD')
  )
    return false
  const send = (answer: Response) =>
    answer.text().then((body) => {
      response.writeHead(answer.status, Object.fromEntries(answer.headers))
      response.end(request.method === 'HEAD' ? undefined : body)
    })
  const refused = refusal(request, token)
  const { registry } = metrics()
  const answer = refused
    ? Promise.resolve(errorResponse(refused, { 'Cache-Control': 'no-store' }))
    : registry.metrics().then(
        (text) =>
          new Response(text, {
            headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
          }),
        (error: unknown) => errorResponse(error),
      )
  void answer.then(send)
  return true
}
