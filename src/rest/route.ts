import type { z } from 'zod'
import type { RestContext } from './context'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What a handler answers: the pipeline turns it into a Response with the namespace's headers. */
export type RestResult = { status?: number; body: unknown; headers?: Record<string, string> }

export type RouteParams = z.ZodObject

/**
 * One entry of the route table: everything the pipeline, the namespace index and the OpenAPI
 * document need to know about a method on a path.
 */
export type Route<P extends RouteParams = RouteParams> = {
  methods: readonly HttpMethod[]
  /** Relative to the namespace root, `{name}` for path parameters: `/events/{id}`. */
  path: string
  summary: string
  /** Path, query and body parameters merged, as upstream merges them. */
  params: P
  /** Checks against stored data that are still validation (400), run before the permission check. */
  validate?: (ctx: RestContext, params: z.output<P>) => Promise<Record<string, string>>
  /** Permission check; false answers 401 to anonymous callers and 403 to signed-in ones. */
  authorize?: (ctx: RestContext, params: z.output<P>) => boolean | Promise<boolean>
  handler: (ctx: RestContext, params: z.output<P>) => Promise<RestResult>
  /** The body of a success, for `/doc`: one of the named schemas of `schemas/responses.ts`. */
  response?: z.ZodType
  /** Writes that also accept the fields developers add to this collection (documented in /doc). */
  customFields?: 'events' | 'venues' | 'organizers'
}

export function defineRoute<P extends RouteParams>(route: Route<P>): Route<P> {
  return route
}
