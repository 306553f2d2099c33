import type { Where } from 'payload'
import type { TermResource } from '../../calendar/resources'
import { idOf } from '../../calendar/relationId'
import { revisionCacheOf } from '../../calendar/caches'
import { ancestorSlugs } from '../../database/terms/ancestorSlugs'
import { termCounts, termsInUse } from '../../database/terms/termCounts'
import type { Event, EventCategory, EventTag } from '../../payload-types'
import { escapeLike, findByIdsPerRevision, idIn, readerKey, readOptions } from '../read'
import type { Reader } from '../reader'
import { Refusal } from '../refusal'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'
import { emptyRelated, type Related } from '../related'

export type Term = EventCategory | EventTag

/** Which categories or tags a list selects and in what order, in the namespace's parameter names (docs/api.md §8). */
export type TermFilter = {
  search?: string
  slug?: string
  include?: number[]
  exclude?: number[]
  parent?: number
  /** The event whose terms are listed; `event` wins over its alias `post`, and names the refusal. */
  event?: number
  post?: number
  hide_empty?: boolean
  order?: 'asc' | 'desc'
  orderby?: 'id' | 'name' | 'slug' | 'count' | 'description' | 'term_group'
}

/** Counts and, for child categories, the ancestors their URLs go through: two queries at most for a page. */
export async function termRelated(
  reader: Reader,
  terms: TermResource,
  docs: Term[],
): Promise<Related> {
  const ids = docs.map((doc) => doc.id)
  const [counts, ancestors] = await Promise.all([
    termCounts(
      reader,
      terms.singular === 'category' ? ids : [],
      terms.singular === 'tag' ? ids : [],
    ),
    terms.singular === 'category' ? ancestorSlugs(reader, docs as EventCategory[]) : undefined,
  ])
  return { ...emptyRelated(), termCounts: counts, categoryAncestors: ancestors }
}

/** The filter as a `Where`; every id it names must be a term of this taxonomy, or the event an event (docs/api.md §8). */
async function termWhere(
  reader: Reader,
  terms: TermResource,
  filter: TermFilter,
): Promise<Where[]> {
  const and: Where[] = []
  const invalid: Record<string, string> = {}
  if (filter.search)
    and.push({
      or: ['name', 'slug', ...(reader.language === 'en' ? [] : ['name.en', 'slug.en'])].map(
        (path) => ({
          [path]: { contains: escapeLike(filter.search ?? '') },
        }),
      ),
    })
  if (filter.slug)
    and.push({
      or: [
        { slug: { equals: filter.slug } },
        ...(reader.language === 'en' ? [] : [{ 'slug.en': { equals: filter.slug } }]),
      ],
    })
  const named = [
    ...(filter.include ?? []),
    ...(filter.exclude ?? []),
    ...(filter.parent !== undefined ? [filter.parent] : []),
  ]
  const found = named.length
    ? await findByIdsPerRevision(reader, terms.collection, named)
    : new Map()
  for (const name of ['include', 'exclude'] as const) {
    const missing = filter[name]?.filter((id) => !found.has(id)) ?? []
    if (missing.length) invalid[name] = `No such term: ${missing.join(', ')}.`
  }
  if (filter.exclude) and.push({ id: { not_in: filter.exclude } })
  if (filter.include) and.push(idIn(filter.include))
  if (filter.parent !== undefined) {
    if (!found.has(filter.parent)) invalid.parent = 'No such category.'
    and.push({ parent: { equals: filter.parent } })
  }
  const eventId = filter.event ?? filter.post
  if (eventId !== undefined) {
    const event = (await findByIdsPerRevision<Event>(reader, 'events', [eventId])).get(eventId)
    if (!event) invalid[filter.event !== undefined ? 'event' : 'post'] = 'No such event.'
    const linked = (terms.singular === 'category' ? event?.categories : event?.tags) ?? []
    and.push(idIn(linked.map(idOf).filter((id): id is number => id !== undefined)))
  }
  if (Object.keys(invalid).length) throw Refusal.invalidParams(invalid)
  if (filter.hide_empty) and.push(idIn(await termsInUse(reader, terms.singular)))
  return and
}

/**
 * Every match ranked in memory by what `rank` makes of them (term sets are small), then the page
 * cut: for an order the database cannot give, counts (not a column) or the names a language shows.
 */
async function inMemory(
  reader: Reader,
  terms: TermResource,
  and: Where[],
  rank: (all: Term[]) => Promise<(a: Term, b: Term) => number>,
  { page, perPage }: { page: number; perPage: number },
) {
  const all = (
    await reader.req.payload.find({
      ...readOptions(reader, terms.collection),
      collection: terms.collection,
      where: { and },
      pagination: false,
      sort: 'id',
    })
  ).docs as Term[]
  const compare = await rank(all)
  all.sort((a, b) => compare(a, b) || a.id - b.id)
  return { docs: all.slice((page - 1) * perPage, page * perPage), total: all.length }
}

const byCount = (reader: Reader, terms: TermResource, sign: number) => async (all: Term[]) => {
  const counts = await termCounts(
    reader,
    terms.singular === 'category' ? all.map((term) => term.id) : [],
    terms.singular === 'tag' ? all.map((term) => term.id) : [],
  )
  const count = (term: Term) => counts.get(`${terms.singular}:${term.id}`) ?? 0
  return (a: Term, b: Term) => sign * (count(a) - count(b))
}

/** ICU's root collation, as the term-name columns sort (docs/api.md §8). */
const ROOT_COLLATION = new Intl.Collator('und')

/** Texts a language shows in its own words or, where it has none, in the default language's. */
const SHOWN_TEXTS = ['name', 'slug', 'description'] as const

const byShownText =
  (field: (typeof SHOWN_TEXTS)[number], sign: number) => async () => (a: Term, b: Term) =>
    sign * ROOT_COLLATION.compare(a[field] ?? '', b[field] ?? '')

/**
 * Page `page` of the categories or tags `filter` selects, by name unless it says otherwise, with their
 * counts and ancestors and the number of matches; past the last page is an empty page.
 */
export async function findTerms(
  reader: Reader,
  terms: TermResource,
  filter: TermFilter,
  { page, perPage }: { page: number; perPage: number },
): Promise<{ docs: Term[]; related: Related; total: number }> {
  const and = await termWhere(reader, terms, filter)
  const direction = filter.order === 'desc' ? '-' : ''
  const orderby = filter.orderby ?? 'name'
  let docs: Term[]
  let total: number
  const sign = direction === '-' ? -1 : 1
  const shown = SHOWN_TEXTS.find((field) => field === orderby)
  if (orderby === 'count')
    ({ docs, total } = await inMemory(reader, terms, and, byCount(reader, terms, sign), {
      page,
      perPage,
    }))
  else if (shown && reader.language !== DEFAULT_LANGUAGE)
    // The database sorts the language's own column, where a term without a translation has none.
    ({ docs, total } = await inMemory(reader, terms, and, byShownText(shown, sign), {
      page,
      perPage,
    }))
  else {
    const column = orderby === 'term_group' ? 'id' : orderby
    const where: Where = { and }
    const [found, counted] = await Promise.all([
      reader.req.payload.find({
        ...readOptions(reader, terms.collection),
        collection: terms.collection,
        where,
        sort: [`${direction}${column}`, 'id'],
        page,
        limit: perPage,
        pagination: false,
      }),
      // Upstream counts the matches past the last page too (docs/api.md §8); once per content revision.
      revisionCacheOf(reader.req.payload, 'revision').get(
        reader.revision,
        `term-total:${terms.collection}:${reader.language}:${readerKey(reader)}:${JSON.stringify(where)}`,
        async () =>
          (
            await reader.req.payload.count({
              ...readOptions(reader),
              collection: terms.collection,
              where,
            })
          ).totalDocs,
      ),
    ])
    docs = found.docs as Term[]
    total = counted
  }
  return { docs, related: await termRelated(reader, terms, docs), total }
}
