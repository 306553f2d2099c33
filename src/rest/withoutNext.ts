import {
  createPayloadRequest,
  handleEndpoints,
  headersWithCors,
  mergeHeaders,
  type Payload,
  type PayloadHandler,
  type PayloadRequest,
  type SanitizedConfig,
} from 'payload'
import { calendarRuntime } from '../options'
import { languageRootOf } from './context'
import { asGet } from '../server/head'
import { headOf, responseOf, sentOf, type Sent } from '../server/sent'

/** Whether a path (without language root) is the namespace's: `/api/cal/events/v1` and below. */
function isNamespacePath(config: SanitizedConfig, path: string): boolean {
  const root = `${config.routes.api}/${calendarRuntime(config).namespace}`
  return path === root || path.startsWith(`${root}/`)
}

/**
 * The path Payload's endpoints are given for a namespace URL, as Next's routes give it: on a language
 * root (`/fr/api/cal/events/v1/…`, docs/api.md §1) the URL's path without the language
 * (`languageRoots.ts`); on the root, the segments Next's catch-all hands Payload's REST route,
 * re-encoded as that route does. Undefined outside the namespace.
 */
export function endpointPath(config: SanitizedConfig, pathname: string): string | undefined {
  const language = languageRootOf(pathname)
  if (language) {
    const path = pathname.slice(language.length + 1)
    return isNamespacePath(config, path) ? path : undefined
  }
  if (!isNamespacePath(config, pathname)) return undefined
  const api = config.routes.api
  const segments = pathname
    .slice(api.length + 1)
    .split('/')
    .filter(Boolean)
  return `${api}/${segments.map((segment) => encodeURIComponent(segment)).join('/')}`
}

/** The namespace's endpoint handler (`mount.ts`), which also gives its answer as sent. */
export type NamespaceHandler = PayloadHandler & { sent(req: PayloadRequest): Promise<Sent> }

/** The Payload path of the namespace's endpoints (`mount.ts`): every path under its root. */
export function namespaceCatchAll(namespace: string): string {
  return `/${namespace}/:path*`
}

/**
 * The namespace's GET handler and the literal beginnings of the endpoints Payload tries before it
 * (the API reference's), read once from the one config an instance has: Payload's router compiles
 * every endpoint's pattern on every request to find the one that answers.
 */
let endpoints: { of: SanitizedConfig['endpoints']; handler?: NamespaceHandler; before: string[] }

function namespaceHandler(config: SanitizedConfig, path: string): NamespaceHandler | undefined {
  if (endpoints?.of !== config.endpoints) {
    const all = config.endpoints || []
    const catchAll = namespaceCatchAll(calendarRuntime(config).namespace)
    const at = all.findIndex((endpoint) => endpoint.method === 'get' && endpoint.path === catchAll)
    endpoints = {
      of: config.endpoints,
      handler: all[at]?.handler as NamespaceHandler | undefined,
      before: all.slice(0, Math.max(at, 0)).map((endpoint) => endpoint.path.split(':')[0]!),
    }
  }
  const inApi = path.slice(config.routes.api.length)
  return endpoints.before.some((prefix) => inApi.startsWith(prefix)) ? undefined : endpoints.handler
}

/**
 * What Payload's router does for a path only the namespace answers (`handleEndpoints`: the request
 * made a Payload one, signed in; the handler's answer with CORS headers), without finding the
 * endpoint or building a `Response`: the answer as sent. Anything else, or a request Payload cannot
 * make, goes through Payload's router, which answers it as it always has.
 */
async function sentByNamespace(payload: Payload, request: Request, path: string): Promise<Sent> {
  const handler = namespaceHandler(payload.config, path)
  const req = handler
    ? await createPayloadRequest({ canSetHeaders: true, config: payload.config, request }).catch(
        () => undefined,
      )
    : undefined
  if (!handler || !req)
    return sentOf(await handleEndpoints({ config: payload.config, request, path }))
  return asEndpointSent(req, await handler.sent(req))
}

/** An answer with what Payload's router adds to its endpoints': the headers its hooks set, its CORS headers. */
export function asEndpointSent(req: PayloadRequest, sent: Sent): Sent {
  const headers = req.responseHeaders
    ? mergeHeaders(req.responseHeaders, sent.headers)
    : sent.headers
  return { ...sent, headers: headersWithCors({ headers, req }) }
}

/**
 * A namespace request answered by its Payload endpoint directly, as Next's route would have it
 * answered, for the server in front of Next (`server/frontDoor.ts`, docs/performance.md): Next's router and
 * its request and response wrappers cost about a sixth of a made answer, and a tenth of a write's CPU.
 * `request` is made only for a URL the namespace answers. The answer as sent
 * (`server/sent.ts`; a HEAD's is the GET's without its body), started when called (in the request's
 * turn, `server/turns.ts`); undefined for a URL outside the namespace, which Next serves.
 */
export function sentWithoutNext(
  payload: Payload,
  url: string,
  request: () => Request,
): (() => Promise<Sent>) | undefined {
  const path = endpointPath(payload.config, new URL(url).pathname)
  if (path === undefined) return undefined
  const asked = request()
  if (asked.method !== 'HEAD') return () => sentByNamespace(payload, asked, path)
  return async () => headOf(await sentByNamespace(payload, asGet(asked), path))
}

/** `sentWithoutNext` as a web `Response`, for what reads the namespace in this process (the public pages). */
export function answerWithoutNext(
  payload: Payload,
  request: Request,
): (() => Promise<Response>) | undefined {
  const sent = sentWithoutNext(payload, request.url, () => request)
  return sent && (async () => responseOf(await sent()))
}
