/**
 * What a site says of itself: its namespace index (routes, their arguments, the language parameter)
 * and, to its editors, its items' passwords.
 */
import { FetchError, fetchJson } from '../fetchSource'
import { maxPages, type ReadBudget } from '../limits'

type Json = Record<string, unknown>

export const EDITOR_STATUSES = 'publish,future,draft,pending,private'

export function withParams(base: string, params: Record<string, string | number>): string {
  const url = new URL(base)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value))
  return url.href
}

/** The site's routes and arguments, from its namespace index. */
export type Index = {
  namespace: string
  routes: Record<string, { endpoints?: { methods?: string[]; args?: Record<string, Json> }[] }>
}

export function readIndex(url: string, body: unknown): Index {
  const index = body as Partial<Index> | null
  if (
    !index ||
    typeof index !== 'object' ||
    typeof index.namespace !== 'string' ||
    !index.routes ||
    typeof index.routes !== 'object'
  )
    throw new FetchError(
      `GET ${url}: not a REST API namespace index (no "namespace" and "routes"); give the namespace's root, e.g. https://example.org/wp-json/tribe/events/v1`,
    )
  if (!index.routes[`/${index.namespace}/events`])
    throw new FetchError(
      `GET ${url}: the namespace ${index.namespace} has no /events route: not the events calendar's REST API v1`,
    )
  return index as Index
}

export function getArgs(index: Index, path: string): Record<string, Json> {
  const endpoints = index.routes[`/${index.namespace}/${path}`]?.endpoints ?? []
  return endpoints.find((endpoint) => endpoint.methods?.includes('GET'))?.args ?? {}
}

/**
 * The list's language parameter and the languages it takes: `i18n_language` as the index lists it
 * (this service); upstream's `wpml_language` belongs to WPML, not to the index, so a `tribe/events/v1`
 * site gets it on trust.
 */
export function languageParam(index: Index): { name: string; accepted?: string[] } | undefined {
  const args = getArgs(index, 'events')
  for (const name of ['i18n_language', 'wpml_language']) {
    const arg = args[name]
    if (arg) return { name, accepted: Array.isArray(arg.enum) ? arg.enum.map(String) : undefined }
  }
  return index.namespace.startsWith('tribe/events/') ? { name: 'wpml_language' } : undefined
}

export const tooManyPages = (list: string) =>
  new FetchError(
    `${list}: more than ${maxPages()} pages, the most a list is read to (IMPORT_MAX_PAGES)`,
  )

/** Each authored kind's passwords, by the item's id. */
export type Passwords = Record<'event' | 'venue' | 'organizer', Map<number, string>>

/** Passwords, read where the site keeps them for its editors: Payload's REST API here, WordPress's posts API upstream. */
export async function readPasswords(
  root: string,
  index: Index,
  authorization: string,
  budget: ReadBudget,
): Promise<Passwords> {
  const apiRoot = new URL(root)
  apiRoot.pathname = apiRoot.pathname.replace(
    new RegExp(`/?${index.namespace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`),
    '/',
  )
  const wordpress = index.namespace.startsWith('tribe/events/')
  const collections = wordpress
    ? {
        event: 'wp/v2/tribe_events',
        venue: 'wp/v2/tribe_venue',
        organizer: 'wp/v2/tribe_organizer',
      }
    : { event: 'events', venue: 'venues', organizer: 'organizers' }
  const passwords = {
    event: new Map<number, string>(),
    venue: new Map<number, string>(),
    organizer: new Map<number, string>(),
  }
  for (const [kind, collection] of Object.entries(collections) as [
    keyof typeof passwords,
    string,
  ][]) {
    for (let page = 1; ; page++) {
      if (page > maxPages()) throw tooManyPages(collection)
      const params: Record<string, string | number> = wordpress
        ? { context: 'edit', _fields: 'id,password', per_page: 100, page, status: EDITOR_STATUSES }
        : {
            'where[hasPassword][equals]': 'true',
            'select[password]': 'true',
            depth: 0,
            limit: 100,
            page,
          }
      const { body, headers } = await fetchJson(
        withParams(new URL(collection, apiRoot).href, params),
        { authorization, budget },
      )
      const docs = (wordpress ? body : (body as { docs?: unknown })?.docs) as
        { id?: unknown; password?: unknown }[] | undefined
      if (!Array.isArray(docs))
        throw new FetchError(`${collection}: no list of items in the answer`)
      for (const doc of docs)
        if (typeof doc.password === 'string' && doc.password)
          passwords[kind].set(Number(doc.id), doc.password)
      const more = wordpress
        ? page < Number(headers['x-wp-totalpages'] ?? 1)
        : Boolean((body as { hasNextPage?: boolean }).hasNextPage)
      if (!more) break
    }
  }
  return passwords
}
