/**
 * Another calendar site speaking the REST API v1 (docs/api.md §23.5): this service's
 * `/api/cal/events/v1`, or upstream's `/wp-json/tribe/events/v1`. The namespace index says which
 * routes and language parameter the site has; lists are read page by page (`per_page`, `page`,
 * `next_rest_url`), each other language of a page in one more request where the list takes
 * `include`, else item by item. With credentials, every status and the passwords are read too.
 */
import type { ImportKind, ImportSource, SourceItem, UnreadableItem } from '../items'
import { authorizationHeader, FetchError, fetchJson } from '../fetchSource'
import { maxPages, runBudget, type ReadBudget } from '../limits'
import { eventItem, organizerItem, termItem, venueItem, type ObjectContext } from './siteItems'

type Json = Record<string, unknown>

export type SiteOptions = {
  /** `--auth` credentials (docs/api.md §23.5): with them drafts, pending, private and scheduled items and passwords are read. */
  credentials?: string
  /** The languages to read besides the default (this service's configured ones). */
  languages: string[]
  /** Copy the trashed events, venues and organizers too (needs credentials that may edit them). */
  trash?: boolean
}

const PER_PAGE = 50
/** Every event the site has, past ones included: the lists' default window is upcoming events only. */
const ALL_DATES = { start_date: '1970-01-01 00:00:00', end_date: '2100-12-31 23:59:59' }
const EDITOR_STATUSES = 'publish,future,draft,pending,private'
const WITH_TRASH = `${EDITOR_STATUSES},trash`

/** What a site import never carries (docs/api.md §23.5): the summary says so. */
const NEVER_COPIED = [
  'authors: created items belong to whoever runs the import',
  "developers' fields (custom_fields)",
  'events hidden from listings: the REST API never lists them',
]

type Resource = { kind: ImportKind; path: string; key: string }

/** In the order items must come: terms (parents first), then what events link to, then events. */
const RESOURCES: Resource[] = [
  { kind: 'category', path: 'categories', key: 'categories' },
  { kind: 'tag', path: 'tags', key: 'tags' },
  { kind: 'venue', path: 'venues', key: 'venues' },
  { kind: 'organizer', path: 'organizers', key: 'organizers' },
  { kind: 'event', path: 'events', key: 'events' },
]

const EVENTS = RESOURCES.find((resource) => resource.kind === 'event')!

/** Each list's own parameters: all terms, not only used ones; every event, with every status and content when signed in. */
function listParams(
  kind: ImportKind,
  signedIn: boolean,
  unlock: boolean,
  trash: boolean,
): Record<string, string> {
  if (kind === 'category' || kind === 'tag') return { hide_empty: '0' }
  return {
    ...(kind === 'event' ? ALL_DATES : {}),
    ...(signedIn ? { status: trash ? WITH_TRASH : EDITOR_STATUSES } : {}),
    ...(unlock ? { context: 'edit' } : {}),
  }
}

function withParams(base: string, params: Record<string, string | number>): string {
  const url = new URL(base)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value))
  return url.href
}

/** The site's routes and arguments, from its namespace index. */
type Index = {
  namespace: string
  routes: Record<string, { endpoints?: { methods?: string[]; args?: Record<string, Json> }[] }>
}

function readIndex(url: string, body: unknown): Index {
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

function getArgs(index: Index, path: string): Record<string, Json> {
  const endpoints = index.routes[`/${index.namespace}/${path}`]?.endpoints ?? []
  return endpoints.find((endpoint) => endpoint.methods?.includes('GET'))?.args ?? {}
}

/**
 * The list's language parameter and the languages it takes: `i18n_language` as the index lists it
 * (this service); upstream's `wpml_language` belongs to WPML, not to the index, so a `tribe/events/v1`
 * site gets it on trust.
 */
function languageParam(index: Index): { name: string; accepted?: string[] } | undefined {
  const args = getArgs(index, 'events')
  for (const name of ['i18n_language', 'wpml_language']) {
    const arg = args[name]
    if (arg) return { name, accepted: Array.isArray(arg.enum) ? arg.enum.map(String) : undefined }
  }
  return index.namespace.startsWith('tribe/events/') ? { name: 'wpml_language' } : undefined
}

const tooManyPages = (list: string) =>
  new FetchError(
    `${list}: more than ${maxPages()} pages, the most a list is read to (IMPORT_MAX_PAGES)`,
  )

/** Passwords, read where the site keeps them for its editors: Payload's REST API here, WordPress's posts API upstream. */
async function readPasswords(
  root: string,
  index: Index,
  authorization: string,
  budget: ReadBudget,
): Promise<Record<'event' | 'venue' | 'organizer', Map<number, string>>> {
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

/** A list's page: its objects, the list's total, and whether another page follows. */
type Page = { objects: Json[]; total: number; more: (number: number) => boolean }

function readPage(url: string, body: unknown, key: string, headers: Record<string, unknown>): Page {
  const list = Array.isArray(body) ? body : (body as Json | null)?.[key]
  if (!Array.isArray(list)) throw new FetchError(`GET ${url}: no "${key}" list in the answer`)
  const total = Number(
    (body as Json).total ?? headers['x-total'] ?? headers['x-wp-total'] ?? list.length,
  )
  const totalPages = Number(
    (body as Json).total_pages ?? headers['x-total-pages'] ?? headers['x-wp-totalpages'],
  )
  // Pages are asked for by number on the URL the import was given: a site's `next_rest_url` is built
  // from its own idea of its address, which behind a proxy may not be this one; it only says whether
  // there is more when the site gives no total of pages.
  const next = typeof (body as Json).next_rest_url === 'string'
  const more = (number: number) => (Number.isFinite(totalPages) ? number < totalPages : next)
  return {
    objects: list.filter((entry): entry is Json => Boolean(entry) && typeof entry === 'object'),
    total,
    more,
  }
}

/**
 * Opens a site: reads its index (which must answer), the passwords when credentials are given, and
 * each list's first page (its total is the progress's). Anything else that fails later is reported
 * per page or per item, and the run goes on.
 */
export async function siteSource(rootUrl: string, options: SiteOptions): Promise<ImportSource> {
  const root = rootUrl.replace(/\/+$/, '')
  const authorization = options.credentials ? authorizationHeader(options.credentials) : undefined
  const budget = runBudget()
  const { body: indexBody } = await fetchJson(root, { authorization, budget })
  const index = readIndex(root, indexBody)
  const wordpress = index.namespace.startsWith('tribe/events/')
  const language = languageParam(index)
  const languages = language
    ? options.languages.filter((code) => !language.accepted || language.accepted.includes(code))
    : []
  let passwords: Awaited<ReturnType<typeof readPasswords>> | undefined
  let passwordProblem: string | undefined
  if (authorization) {
    try {
      passwords = await readPasswords(root, index, authorization, budget)
    } catch (error) {
      passwordProblem = error instanceof Error ? error.message : String(error)
    }
  }
  const resources = RESOURCES.filter(
    (resource) => resource.kind === 'event' || index.routes[`/${index.namespace}/${resource.path}`],
  )
  const listUrl = (resource: Resource) =>
    withParams(`${root}/${resource.path}`, {
      per_page: PER_PAGE,
      ...listParams(
        resource.kind,
        Boolean(authorization),
        Boolean(passwords),
        Boolean(options.trash),
      ),
    })
  const firstPages = new Map<ImportKind, Page>()
  const totals: Partial<Record<ImportKind, number>> = {}
  for (const resource of resources) {
    const url = withParams(listUrl(resource), { page: 1 })
    const { body, headers } = await fetchJson(url, { authorization, budget })
    const page = readPage(url, body, resource.key, headers)
    firstPages.set(resource.kind, page)
    totals[resource.kind] = page.total
  }
  let complete = true

  async function* pages(
    resource: Resource,
  ): AsyncGenerator<{ page: Page; number: number } | UnreadableItem> {
    let page = firstPages.get(resource.kind)!
    for (let number = 1; ;) {
      yield { page, number }
      if (!page.more(number)) return
      if (number >= maxPages()) {
        complete = false
        yield {
          kind: resource.kind,
          label: `page ${number + 1}`,
          error: tooManyPages(resource.path).message,
        }
        return
      }
      number++
      const url = withParams(listUrl(resource), { page: number })
      try {
        const { body, headers } = await fetchJson(url, { authorization, budget })
        page = readPage(url, body, resource.key, headers)
      } catch (error) {
        complete = false
        yield {
          kind: resource.kind,
          label: `page ${number}`,
          error: error instanceof Error ? error.message : String(error),
        }
        // A run that has read all it may reads no further page.
        if (budget.left <= 0) return
        // The page after it is still known by its number, as far as the last page read says.
        page = { objects: [], total: page.total, more: page.more }
      }
    }
  }

  /** The page's objects in each other language: by `include` where the list takes it, else one by one. */
  async function translationsOf(
    resource: Resource,
    objects: Json[],
  ): Promise<Map<number, Map<string, Json>>> {
    const found = new Map<number, Map<string, Json>>(
      objects.map((object) => [Number(object.id), new Map()]),
    )
    if (!language || !objects.length) return found
    const byInclude = 'include' in getArgs(index, resource.path)
    for (const code of languages) {
      if (byInclude) {
        const ids = objects.map((object) => object.id).join(',')
        const url = withParams(listUrl(resource), { include: ids, page: 1, [language.name]: code })
        const { body, headers } = await fetchJson(url, { authorization, budget })
        for (const object of readPage(url, body, resource.key, headers).objects)
          found.get(Number(object.id))?.set(code, object)
      } else {
        for (const object of objects) {
          const url = withParams(`${root}/${resource.path}/${object.id}`, {
            [language.name]: code,
            ...(passwords ? { context: 'edit' } : {}),
          })
          found
            .get(Number(object.id))
            ?.set(code, (await fetchJson(url, { authorization, budget })).body as Json)
        }
      }
    }
    return found
  }

  /** The later events of a series, by the `post_parent` filter: each one's first event. */
  async function occurrencesOf(parent: number, parentOf: Map<number, number>): Promise<void> {
    for (let number = 1; ; number++) {
      if (number > maxPages()) throw tooManyPages(`the series of event ${parent}`)
      const url = withParams(listUrl(EVENTS), { post_parent: parent, page: number })
      const { body, headers } = await fetchJson(url, { authorization, budget })
      const page = readPage(url, body, 'events', headers)
      for (const object of page.objects) parentOf.set(Number(object.id), parent)
      if (!page.more(number) || !page.objects.length) return
    }
  }

  async function* itemsOf(
    resource: Resource,
    parentOf: Map<number, number>,
  ): AsyncGenerator<SourceItem | UnreadableItem> {
    const categories = resource.kind === 'category' ? new Map<number, Json>() : undefined
    const buffered: { object: Json; translations: Map<string, Json> }[] = []
    for await (const entry of pages(resource)) {
      if ('error' in entry) {
        yield entry
        continue
      }
      let translations: Map<number, Map<string, Json>>
      try {
        translations = await translationsOf(resource, entry.page.objects)
      } catch (error) {
        complete = false
        const reason = `its other languages could not be read: ${error instanceof Error ? error.message : String(error)}`
        for (const object of entry.page.objects)
          yield {
            kind: resource.kind,
            label: `${String(object.id)}`,
            sourceId: String(object.id),
            error: reason,
          }
        continue
      }
      for (const object of entry.page.objects) {
        const ctx: ObjectContext = {
          wordpress,
          translations: translations.get(Number(object.id)) ?? new Map(),
          parentOf,
        }
        if (resource.kind === 'category') {
          // Parents must come before their children: categories are yielded once all are read.
          categories!.set(Number(object.id), object)
          buffered.push({ object, translations: ctx.translations })
          continue
        }
        if (resource.kind === 'event') {
          const recurrence = object.recurrence
          if (typeof recurrence === 'string' && recurrence && !parentOf.has(Number(object.id))) {
            try {
              await occurrencesOf(Number(object.id), parentOf)
            } catch (error) {
              complete = false
              yield {
                kind: 'event',
                label: String(object.id),
                sourceId: String(object.id),
                error: `its series could not be read: ${String(error)}`,
              }
              continue
            }
          }
        }
        const kindPasswords =
          resource.kind === 'event' || resource.kind === 'venue' || resource.kind === 'organizer'
            ? passwords?.[resource.kind]
            : undefined
        const item = convert(resource.kind, object, { ...ctx, passwords: kindPasswords })
        if ('error' in item && passwordProblem && /password-protected/.test(item.error))
          item.error += ` (the passwords could not be read: ${passwordProblem})`
        yield item
      }
    }
    if (categories)
      for (const { object, translations } of parentsFirst(buffered, categories))
        yield termItem('category', object, { wordpress, translations, categories })
  }

  const trashNote = options.trash
    ? authorization
      ? []
      : [
          'trashed items: the site shows them only to its editors; give credentials with --trash (or the record’s credentials) to copy them',
        ]
    : [
        'trashed items: not copied; --trash (the record’s “Copy trashed items”) copies them, with credentials',
      ]
  return {
    name: root,
    matchByName: [],
    notes: () => [...NEVER_COPIED, ...trashNote],
    totals,
    complete: () => complete,
    async *items() {
      const parentOf = new Map<number, number>()
      for (const resource of resources) yield* itemsOf(resource, parentOf)
    },
  }
}

function convert(kind: ImportKind, object: Json, ctx: ObjectContext): SourceItem | UnreadableItem {
  switch (kind) {
    case 'category':
    case 'tag':
      return termItem(kind, object, ctx)
    case 'venue':
      return venueItem(object, ctx)
    case 'organizer':
      return organizerItem(object, ctx)
    case 'event':
      return eventItem(object, ctx)
  }
}

/** Categories ordered so that each parent comes before its children (a parent the list lacks, or a cycle, does not hold them back). */
function parentsFirst<T extends { object: Json }>(entries: T[], byId: Map<number, Json>): T[] {
  const ordered: T[] = []
  const placed = new Set<number>()
  const depth = (object: Json, seen = new Set<number>()): number => {
    const parent = Number(object.parent) || 0
    if (!parent || !byId.has(parent) || seen.has(parent)) return 0
    seen.add(parent)
    return 1 + depth(byId.get(parent)!, seen)
  }
  for (const entry of [...entries].sort((a, b) => depth(a.object) - depth(b.object))) {
    if (!placed.has(Number(entry.object.id))) ordered.push(entry)
    placed.add(Number(entry.object.id))
  }
  return ordered
}
