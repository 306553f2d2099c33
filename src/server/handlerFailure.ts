import type { IncomingMessage, ServerResponse } from 'node:http'
import { isConnectionLoss } from '../database/connectionErrors'
import { errorSent, RestError } from './errors'
import { gateCorsHeaders } from './namespaceFacts'
import { REQUEST_ID_HEADER } from './requestId'

/**
 * Answers a request whose handler failed with nothing left to answer it (in the production server,
 * scripts/server.ts: Next's request handler rejecting, or a namespace write sent without Next failing
 * past the namespace's own pipeline: `passToNamespace`), as the contract answers a fault
 * (docs/api.md §11): a lost database is 503 `rest_database_unavailable` with `Retry-After`, anything
 * else 500 `rest_internal_error`, the details in the log under the request's id, with the CORS headers
 * the gate's refusals carry (`gateCorsHeaders`). An answer already begun cannot be taken back: its
 * connection is destroyed, so the client sees it incomplete; so is one this answer itself fails to
 * send, since nothing is left to answer it.
 */
export function answerFailure(
  request: IncomingMessage,
  response: ServerResponse,
  error: unknown,
): void {
  console.error(`request ${String(request.headers['x-request-id'])}: its handler failed`, error)
  // A chunked answer ended here would look whole to the client and any proxy: cut off, it cannot.
  if (response.headersSent) {
    response.destroy()
    return
  }
  try {
    sendFailure(request, response, error)
  } catch {
    response.destroy()
  }
}

function sendFailure(request: IncomingMessage, response: ServerResponse, error: unknown): void {
  // Its body may be unread: drained, so the connection serves the caller's next request.
  request.resume()
  const refusal = isConnectionLoss(error) ? RestError.databaseUnavailable() : RestError.internal()
  const { status, headers, body } = errorSent(refusal, { 'Cache-Control': 'no-store' })
  // Whatever the handler set before it failed belongs to an answer that will not be sent.
  for (const name of response.getHeaderNames())
    if (name !== REQUEST_ID_HEADER.toLowerCase()) response.removeHeader(name)
  const text = String(body)
  response.writeHead(status, {
    ...Object.fromEntries(headers),
    ...gateCorsHeaders(request.headers.origin),
    'Content-Length': Buffer.byteLength(text),
  })
  response.end(request.method === 'HEAD' ? undefined : text)
}
