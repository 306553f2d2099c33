import { handleEndpoints, type Payload, type SanitizedConfig } from 'payload'
import { calendarRuntime } from '../options'
import { languageRootOf } from './context'
import { headFromGet } from '../server/head'

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

/**
 * A namespace GET or HEAD answered by its Payload endpoint directly, as Next's route would have it
 * answered, for the server in front of Next (`server/frontDoor.ts`, docs/performance.md): Next's router and
 * its request and response wrappers cost about a sixth of a made answer. Started when called (in the
 * request's turn, `server/turns.ts`); undefined for a URL outside the namespace, which Next serves.
 */
export function answerWithoutNext(
  payload: Payload,
  request: Request,
): (() => Promise<Response>) | undefined {
  const path = endpointPath(payload.config, new URL(request.url).pathname)
  if (path === undefined) return undefined
  const get = (asked: Request) => handleEndpoints({ config: payload.config, request: asked, path })
  return () => (request.method === 'HEAD' ? headFromGet(get)(request) : get(request))
}
