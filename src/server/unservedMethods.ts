import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorSent, RestError } from './errors'
import { inNamespace, NAMESPACE_ROOT } from './namespacePath'

/** The methods some route of the app answers: the namespace's, Payload's REST, the pages'. */
const SERVED = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/**
 * Answers a request whose method no route of the app serves (TRACE, PROPFIND and the other WebDAV
 * methods Node's parser reads) before Next is handed it (true): Next answered TRACE with a plain-text
 * 500, since the Fetch API cannot build a request of it, and PROPFIND with an empty 400. Under the
 * namespace it is the contract's 404 `rest_no_route`, as WordPress answers a method no route has
 * (docs/api.md §1); anywhere else a 405 `rest_method_not_allowed` with `Allow` (docs/api.md §11).
 * Nothing of the request goes back: a TRACE's echo would show a page's script the cookies and
 * credentials it may not read (cross-site tracing). An app that serves the namespace elsewhere (the
 * plugin's `namespace` option) names its root.
 */
export function refuseUnservedMethod(
  request: IncomingMessage,
  response: ServerResponse,
  namespaceRoot = NAMESPACE_ROOT,
): boolean {
  if (SERVED.includes(request.method ?? 'GET')) return false
  const path = (request.url ?? '/').split('?', 1)[0]!
  const refusal = inNamespace(path, namespaceRoot)
    ? RestError.noRoute()
    : RestError.methodNotAllowed(SERVED)
  const { status, headers, body } = errorSent(refusal, { 'Cache-Control': 'no-store' })
  const text = String(body)
  // Its body is not read: drained, so the connection serves the caller's next request.
  request.resume()
  response.writeHead(status, {
    ...Object.fromEntries(headers),
    'Content-Length': Buffer.byteLength(text),
  })
  response.end(text)
  return true
}
