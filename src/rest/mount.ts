import type { Endpoint, PayloadHandler } from 'payload'
import { handleNamespaceRequest } from './pipeline'

/** The part of a path after the namespace root: `/api/cal/events/v1/events/3` → `/events/3`. */
export function namespacePathOf(pathname: string, namespace: string): string {
  return pathname.slice(pathname.indexOf(`/${namespace}`) + namespace.length + 1)
}

/** The Payload path of the namespace's endpoints: every path under its root. */
export function namespaceCatchAll(namespace: string): string {
  return `/${namespace}/:path*`
}

/** Payload endpoints that hand every request under the namespace to its own router. */
export function namespaceEndpoints(namespace: string): Endpoint[] {
  const handler: PayloadHandler = (req) =>
    handleNamespaceRequest(
      req,
      namespacePathOf(new URL(req.url ?? 'http://localhost/').pathname, namespace),
    )
  return (['get', 'post', 'put', 'patch', 'delete', 'options'] as const).map((method) => ({
    path: namespaceCatchAll(namespace),
    method,
    handler,
  }))
}
