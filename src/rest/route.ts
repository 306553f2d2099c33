import type { z } from 'zod'
import type { RestContext } from './context'
import type { ExtensibleKind } from '../options'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * What a handler answers: the pipeline turns it into a Response with the namespace's headers. The body
 * is JSON unless the handler names another `contentType`; it is then text, sent as it is.
 */
export type RestResult = {
  status?: number
  body: unknown
  headers?: Record<string, string>
  contentType?: string
}

export type RouteParams = z.ZodObject

/**
 * One entry of the route table: everything the pipeline, the namespace index and the OpenAPI
 * document need to know about a method on a path. `T` is what `target` resolves: the item an item
 * route names, looked up once and handed to validation, the permission check and the handler.
 */
export type Route<P extends RouteParams = RouteParams, T = undefined> = {
  methods: readonly HttpMethod[]
  /** Relative to the namespace root, `{name}` for path parameters: `/events/{id}`. */
  path: string
  summary: string
  /** Path, query and body parameters merged, as upstream merges them. */
  params: P
  /** Looks up what the route acts on, once, after the parameters are parsed; it reports nothing itself. */
  target?: (ctx: RestContext, params: z.output<P>) => Promise<T>
  /** Checks against stored data that are still validation (400), run after the permission check. */
  validate?: (ctx: RestContext, params: z.output<P>, target: T) => Promise<Record<string, string>>
  /** Permission check; false answers 401 to anonymous callers and 403 to signed-in ones. */
  authorize?: (ctx: RestContext, params: z.output<P>, target: T) => boolean | Promise<boolean>
  /**
   * Work a write does before its transaction opens, after the permission check: network waits (an
   * image's download) that must not hold a database connection or lock.
   */
  prepare?: (ctx: RestContext, params: z.output<P>) => Promise<void>
  handler: (ctx: RestContext, params: z.output<P>, target: T) => Promise<RestResult>
  /**
   * What of the current time the answer depends on, as text (the instants an event list's date window
   * resolves to): part of the answer's ETag, which is otherwise fixed for a content revision
   * (docs/api.md §14.1). A route whose answer reads the clock and does not say so keeps a stale ETag.
   */
  clock?: (ctx: RestContext, params: z.output<P>) => string
  /** The body of a success, for `/doc`: one of the named schemas of `schemas/responses.ts`. */
  response?: z.ZodType
  /** The media type of a success when it is not JSON (`text/csv`), for `/doc`; the handler answers with it. */
  produces?: string
  /** Writes that also accept the fields developers add to this collection (documented in /doc). */
  customFields?: ExtensibleKind
}

/** Any route of the table, whatever its parameters and target: the pipeline hands each its own target back. */
export type AnyRoute = Omit<Route<RouteParams, never>, 'target'> & {
  target?: (ctx: RestContext, params: Record<string, unknown>) => Promise<unknown>
}

export function defineRoute<P extends RouteParams, T = undefined>(route: Route<P, T>): AnyRoute {
  return route as unknown as AnyRoute
}
