import type { Endpoint, PayloadRequest } from 'payload'
import { responseOf } from '../server/sent'
import { namespaceAnswer } from './pipeline'
import { namespaceCatchAll, type NamespaceHandler } from './withoutNext'

/** The part of a path after the namespace root: `/api/cal/events/v1/events/3` → `/events/3`. */
export function namespacePathOf(pathname: string, namespace: string): string {
  return pathname.slice(pathname.indexOf(`/${namespace}`) + namespace.length + 1)
}

/** Payload endpoints that hand every request under the namespace to its own router. */
export function namespaceEndpoints(namespace: string): Endpoint[] {
  const sent = (req: PayloadRequest) =>
    namespaceAnswer(
      req,
      namespacePathOf(new URL(req.url ?? 'http://localhost/').pathname, namespace),
    )
  const handler: NamespaceHandler = Object.assign(
    async (req: PayloadRequest) => responseOf(await sent(req)),
    { sent },
  )
  return (['get', 'post', 'put', 'patch', 'delete', 'options'] as const).map((method) => ({
    path: namespaceCatchAll(namespace),
    method,
    handler,
  }))
}
