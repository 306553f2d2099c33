/**
 * The namespace's routes, from its route table, and the pools of real ids and slugs per resource.
 */
import { type ResourceKey } from '../../src/calendar/resources'
import { ROUTES } from '../../src/rest/routes'

export const NAMESPACE = '/api/cal/events/v1'

/** One method on one path of the route table, with the parameter names its schema declares. */
export type Target = { method: string; template: string; params: string[] }

/** The media types other than JSON that routes of the table answer with. */
export const PRODUCED = new Set(
  ROUTES.flatMap((route) => (route.produces ? [route.produces.split(';')[0]!.toLowerCase()] : [])),
)

/** Every (method, path) of the namespace, from the route table itself. */
export const TARGETS: Target[] = ROUTES.flatMap((route) =>
  route.methods.map((method) => ({
    method,
    template: route.path,
    params: Object.keys(route.params.shape),
  })),
)

export const ALL_PARAMS = [...new Set(TARGETS.flatMap((target) => target.params))].sort()

/** Methods fetch can send (TRACE and CONNECT it refuses); the namespace must answer all of them. */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const

export type Kind = ResourceKey

/**
 * Ids and slugs that exist, per kind: the generators draw path parameters from them so that requests
 * reach handlers, not only validation. Generation reads the arrays when it runs, so items created
 * during the fuzz become targets too (a replayed seed therefore depends on the ids the server hands out).
 */
export type Pools = Record<Kind, { ids: number[]; slugs: string[] }>

export function emptyPools(): Pools {
  return {
    events: { ids: [], slugs: [] },
    venues: { ids: [], slugs: [] },
    organizers: { ids: [], slugs: [] },
    categories: { ids: [], slugs: [] },
    tags: { ids: [], slugs: [] },
  }
}

export function kindOf(template: string): Kind | undefined {
  const first = template.split('/')[1]
  return first === 'events' ||
    first === 'venues' ||
    first === 'organizers' ||
    first === 'categories' ||
    first === 'tags'
    ? first
    : undefined
}
