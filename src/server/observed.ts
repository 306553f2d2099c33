import type { IncomingMessage, ServerResponse } from 'node:http'
import { metrics } from './metrics'
import { serveMetrics } from './metricsEndpoint'
import { REQUEST_ID_HEADER, requestIdFor, withRequestId } from './requestId'

type Handler = (request: IncomingMessage, response: ServerResponse) => void

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * Every request the production server takes (scripts/server.ts), before anything else: scrapes of
 * `/metrics` are answered here; any other request gets its id (`requestId.ts`) and is counted and
 * timed by method, route pattern and status when its answer ends (`metrics.ts`). Labels come from a
 * few known values only, never from the URL itself: a caller cannot grow the metrics.
 */
export function observed(handle: Handler): Handler {
  const { requests, duration } = metrics()
  return (request, response) => {
    if (serveMetrics(request, response)) return
    const id = requestIdFor(request.headers['x-request-id'])
    request.headers['x-request-id'] = id
    response.setHeader(REQUEST_ID_HEADER, id)
    const started = process.hrtime.bigint()
    const method = METHODS.has(request.method ?? '') ? request.method! : 'OTHER'
    // As it came: Next may rewrite the URL while it serves the request.
    const url = request.url ?? '/'
    let end = () => {}
    // One listener for both: an answer Next pipes adds seven of its own, and Node warns past ten.
    response.once('close', () => {
      end()
      const route = metrics().source?.routeOf(method, url) ?? 'other'
      const labels = {
        method,
        route,
        status: response.writableFinished ? String(response.statusCode) : 'aborted',
      }
      requests.inc(labels)
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9)
    })
    end = withRequestId(id, () => handle(request, response))
  }
}
