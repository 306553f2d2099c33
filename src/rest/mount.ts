import type { Endpoint, PayloadHandler } from 'payload'
import { handleNamespaceRequest } from './pipeline'

/** Payload endpoints that hand every request under the namespace to its own router. */
export function namespaceEndpoints(namespace: string): Endpoint[] {
  const handler: PayloadHandler = (req) => {
    // The part of the URL after the namespace root: `/api/cal/events/v1/events/3` → `/events/3`.
    const { pathname } = new URL(req.url ?? 'http://localhost/')
    const at = pathname.indexOf(`/${namespace}`)
    return handleNamespaceRequest(req, pathname.slice(at + namespace.length + 1))
  }
  return (['get', 'post', 'put', 'patch', 'delete', 'options'] as const).map((method) => ({ path: `/${namespace}/:path*`, method, handler }))
}
