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
import { readsAtOnce } from '../readsAtOnce'
import {
  EDITOR_STATUSES,
  getArgs,
  languageParam,
  readIndex,
  readPasswords,
  tooManyPages,
  withParams,
  type Index,
  type Passwords,
} from './siteIndex'
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

/** One site as it is read, from its index to its last page. */
type Site = {
  root: string
  options: SiteOptions
  authorization?: string
  budget: ReadBudget
  index: Index
  wordpress: boolean
  /** The parameter that asks for a language, and the languages read besides the default. */
  language?: { name: string; accepted?: string[] }
  languages: string[]
  passwords?: Passwords
  /** Why the passwords could not be read, said with each protected item left out. */
  passwordProblem?: string
  firstPages: Map<ImportKind, Page>
  /** Whether every page was read so far. */
  complete: boolean
}

/** Reads the site's index (which must answer) and, when credentials are given, its passwords. */
async function openSite(rootUrl: string, options: SiteOptions): Promise<Site> {
  const root = rootUrl.replace(/\/+$/, '')
  const authorization = options.credentials ? authorizationHeader(options.credentials) : undefined
  const budget = runBudget()
  const { body } = await fetchJson(root, { authorization, budget })
  const index = readIndex(root, body)
  const language = languageParam(index)
  const site: Site = {
    root,
    options,
    authorization,
    budget,
    index,
    wordpress: index.namespace.startsWith('tribe/events/'),
    language,
    languages: language
      ? options.languages.filter((code) => !language.accepted || language.accepted.includes(code))
      : [],
    firstPages: new Map(),
    complete: true,
  }
  if (authorization) {
    try {
      site.passwords = await readPasswords(root, index, authorization, budget)
    } catch (error) {
      site.passwordProblem = error instanceof Error ? error.message : String(error)
    }
  }
  return site
}

const listUrl = (site: Site, resource: Resource) =>
  withParams(`${site.root}/${resource.path}`, {
    per_page: PER_PAGE,
    ...listParams(
      resource.kind,
      Boolean(site.authorization),
      Boolean(site.passwords),
      Boolean(site.options.trash),
    ),
  })

async function readList(site: Site, url: string, key: string): Promise<Page> {
  const { body, headers } = await fetchJson(url, {
    authorization: site.authorization,
    budget: site.budget,
  })
  return readPage(url, body, key, headers)
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** A list's pages by number; a page that fails is reported and the next one is still read. */
async function* pages(
  site: Site,
  resource: Resource,
): AsyncGenerator<{ page: Page; number: number } | UnreadableItem> {
  let page = site.firstPages.get(resource.kind)!
  for (let number = 1; ;) {
    yield { page, number }
    if (!page.more(number)) return
    if (number >= maxPages()) {
      site.complete = false
      yield {
        kind: resource.kind,
        label: `page ${number + 1}`,
        error: tooManyPages(resource.path).message,
      }
      return
    }
    number++
    try {
      page = await readList(
        site,
        withParams(listUrl(site, resource), { page: number }),
        resource.key,
      )
    } catch (error) {
      site.complete = false
      yield { kind: resource.kind, label: `page ${number}`, error: reasonOf(error) }
      // A run that has read all it may reads no further page.
      if (site.budget.left <= 0) return
      // The page after it is still known by its number, as far as the last page read says.
      page = { objects: [], total: page.total, more: page.more }
    }
  }
}

/** The page's objects in each other language: by `include` where the list takes it, else one by one; the requests side by side. */
async function translationsOf(
  site: Site,
  resource: Resource,
  objects: Json[],
): Promise<Map<number, Map<string, Json>>> {
  const found = new Map<number, Map<string, Json>>(
    objects.map((object) => [Number(object.id), new Map()]),
  )
  const { language } = site
  if (!language || !objects.length) return found
  const byInclude = 'include' in getArgs(site.index, resource.path)
  if (byInclude) {
    const ids = objects.map((object) => object.id).join(',')
    const pagesOf = await readsAtOnce(
      site.budget,
      site.languages.map((code) => () => {
        const url = withParams(listUrl(site, resource), {
          include: ids,
          page: 1,
          [language.name]: code,
        })
        return readList(site, url, resource.key)
      }),
    )
    site.languages.forEach((code, n) => {
      for (const object of pagesOf[n]!.objects) found.get(Number(object.id))?.set(code, object)
    })
    return found
  }
  const pairs = site.languages.flatMap((code) => objects.map((object) => ({ code, object })))
  const bodies = await readsAtOnce(
    site.budget,
    pairs.map(({ code, object }) => async () => {
      const url = withParams(`${site.root}/${resource.path}/${object.id}`, {
        [language.name]: code,
        ...(site.passwords ? { context: 'edit' } : {}),
      })
      const { body } = await fetchJson(url, {
        authorization: site.authorization,
        budget: site.budget,
      })
      return body as Json
    }),
  )
  pairs.forEach(({ code, object }, n) => found.get(Number(object.id))?.set(code, bodies[n]!))
  return found
}

/** The later events of a series, by the `post_parent` filter: each one's first event. */
async function occurrencesOf(
  site: Site,
  parent: number,
  parentOf: Map<number, number>,
): Promise<void> {
  for (let number = 1; ; number++) {
    if (number > maxPages()) throw tooManyPages(`the series of event ${parent}`)
    const url = withParams(listUrl(site, EVENTS), { post_parent: parent, page: number })
    const page = await readList(site, url, 'events')
    for (const object of page.objects) parentOf.set(Number(object.id), parent)
    if (!page.more(number) || !page.objects.length) return
  }
}

/** One object of a list (not a category: those wait for their parents) as an item; a series' first event reads its occurrences first. */
async function objectItem(
  site: Site,
  resource: Resource,
  object: Json,
  ctx: ObjectContext & { parentOf: Map<number, number> },
): Promise<SourceItem | UnreadableItem> {
  const id = Number(object.id)
  const recurrence = object.recurrence
  if (
    resource.kind === 'event' &&
    typeof recurrence === 'string' &&
    recurrence &&
    !ctx.parentOf.has(id)
  ) {
    try {
      await occurrencesOf(site, id, ctx.parentOf)
    } catch (error) {
      site.complete = false
      const reason = `its series could not be read: ${String(error)}`
      return { kind: 'event', label: String(id), sourceId: String(id), error: reason }
    }
  }
  const kindPasswords =
    resource.kind === 'event' || resource.kind === 'venue' || resource.kind === 'organizer'
      ? site.passwords?.[resource.kind]
      : undefined
  const item = convert(resource.kind, object, { ...ctx, passwords: kindPasswords })
  if ('error' in item && site.passwordProblem && /password-protected/.test(item.error))
    item.error += ` (the passwords could not be read: ${site.passwordProblem})`
  return item
}

/** A list's items, page by page; categories once all are read, parents first. */
async function* itemsOf(
  site: Site,
  resource: Resource,
  parentOf: Map<number, number>,
): AsyncGenerator<SourceItem | UnreadableItem> {
  const { wordpress } = site
  const categories = new Map<number, Json>()
  const buffered: { object: Json; translations: Map<string, Json> }[] = []
  for await (const entry of pages(site, resource)) {
    if ('error' in entry) {
      yield entry
      continue
    }
    let translations: Map<number, Map<string, Json>>
    try {
      translations = await translationsOf(site, resource, entry.page.objects)
    } catch (error) {
      site.complete = false
      const reason = `its other languages could not be read: ${reasonOf(error)}`
      for (const object of entry.page.objects) {
        const sourceId = String(object.id)
        yield { kind: resource.kind, label: sourceId, sourceId, error: reason }
      }
      continue
    }
    for (const object of entry.page.objects) {
      // Trashed items are copied only when asked for (docs/api.md §23.5), whatever a site lists unasked.
      if (object.status === 'trash' && !site.options.trash) continue
      const own = translations.get(Number(object.id)) ?? new Map<string, Json>()
      if (resource.kind !== 'category')
        yield await objectItem(site, resource, object, { wordpress, translations: own, parentOf })
      else {
        categories.set(Number(object.id), object)
        buffered.push({ object, translations: own })
      }
    }
  }
  if (resource.kind === 'category')
    for (const { object, translations } of parentsFirst(buffered, categories))
      yield termItem('category', object, { wordpress, translations, categories })
}

/** What the summary says of trashed items: copied, or how to copy them. */
function trashNotes(site: Site): string[] {
  if (!site.options.trash)
    return [
      'trashed items: not copied; --trash (the record’s “Copy trashed items”) copies them, with credentials',
    ]
  if (site.authorization) return []
  return [
    'trashed items: the site shows them only to its editors; give credentials with --trash (or the record’s credentials) to copy them',
  ]
}

/**
 * Opens a site: reads its index (which must answer), the passwords when credentials are given, and
 * each list's first page (its total is the progress's). Anything else that fails later is reported
 * per page or per item, and the run goes on.
 */
export async function siteSource(rootUrl: string, options: SiteOptions): Promise<ImportSource> {
  const site = await openSite(rootUrl, options)
  const resources = RESOURCES.filter(
    (resource) =>
      resource.kind === 'event' || site.index.routes[`/${site.index.namespace}/${resource.path}`],
  )
  const totals: Partial<Record<ImportKind, number>> = {}
  for (const resource of resources) {
    const url = withParams(listUrl(site, resource), { page: 1 })
    const page = await readList(site, url, resource.key)
    site.firstPages.set(resource.kind, page)
    totals[resource.kind] = page.total
  }
  return {
    name: site.root,
    matchByName: [],
    notes: () => [...NEVER_COPIED, ...trashNotes(site)],
    totals,
    complete: () => site.complete,
    async *items() {
      const parentOf = new Map<number, number>()
      for (const resource of resources) yield* itemsOf(site, resource, parentOf)
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

/**
 * Categories ordered so that each parent comes before its children (a parent the list lacks, or a
 * cycle, does not hold them back). Each category's depth is found once, walking up until a category
 * of known depth, the top or a cycle, without recursion: a site's chains of thousands of categories
 * took seconds of the instance's thread per sort when each comparison walked them again (12 s for
 * one chain of 6,000), and a chain of 8,000 overflowed the stack.
 */
export function parentsFirst<T extends { object: Json }>(
  entries: T[],
  byId: Map<number, Json>,
): T[] {
  const depths = new Map<number, number>()
  const depthOf = (object: Json): number => {
    const start = Number(object.id)
    const chain: number[] = []
    const walked = new Set<number>()
    let current = object
    let id = start
    while (!depths.has(id)) {
      chain.push(id)
      walked.add(id)
      const parent = Number(current.parent) || 0
      if (!parent || !byId.has(parent) || walked.has(parent)) break
      current = byId.get(parent)!
      id = parent
    }
    let above = depths.get(id) ?? -1
    for (const link of chain.reverse()) depths.set(link, ++above)
    return depths.get(start)!
  }
  const sorted = entries
    .map((entry) => ({ entry, depth: depthOf(entry.object) }))
    .sort((a, b) => a.depth - b.depth)
  const ordered: T[] = []
  const placed = new Set<number>()
  for (const { entry } of sorted) {
    if (!placed.has(Number(entry.object.id))) ordered.push(entry)
    placed.add(Number(entry.object.id))
  }
  return ordered
}
