import type { Endpoint, PayloadHandler } from 'payload'
import { NAMESPACE } from './namespace'
import { handleNamespaceRequest } from './pipeline'

/** The part of the URL after the namespace root: `/api/cal/events/v1/events/3` → `/events/3`. */
function namespacePathOf(url: string): string {
  const { pathname } = new URL(url)
  const at = pathname.indexOf(`/${NAMESPACE}`)
  return pathname.slice(at + NAMESPACE.length + 1) || ''
}

const handler: PayloadHandler = (req) => handleNamespaceRequest(req, namespacePathOf(req.url ?? 'http://localhost/'))

/** Payload endpoints that hand every request under the namespace to its own router. */
export const namespaceEndpoints: Endpoint[] = (['get', 'post', 'put', 'patch', 'delete', 'options'] as const).map((method) => ({
  path: `/${NAMESPACE}/:path*`,
  method,
  handler,
}))
