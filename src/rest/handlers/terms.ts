import type { Where } from 'payload'
import type { Event, EventCategory, EventTag } from '../../payload-types'
import { capabilities } from '../../calendar/access/capabilities'
import type { TermResource } from '../../calendar/resources'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import { listResult, pageSize } from '../http/pagination'
import { revisionCacheOf } from '../../calendar/caches'
import { escapeLike, findByIds, findByIdsPerRevision, idIn, readerKey, readOptions } from '../../operations/read'
import { categoryAncestors } from '../../database/terms/categoryAncestors'
import { termCounts, termsInUse } from '../../database/terms/termCounts'
import type { HttpMethod, RestResult } from '../route'
import type { TermListParams } from '../schemas/terms'
import { idOf } from '../serialize/common'
import { emptyRelated } from '../../operations/related'
import { serializeTerm, termLinks } from '../serialize/term'

type Term = EventCategory | EventTag

/** Counts and, for child categories, the ancestors their URLs go through: two queries at most for a page. */
async function relatedOf(ctx: RestContext, terms: TermResource, docs: Term[]) {
  const ids = docs.map((doc) => doc.id)
  const [counts, ancestors] = await Promise.all([
    termCounts(ctx, terms.singular === 'category' ? ids : [], terms.singular === 'tag' ? ids : []),
    terms.singular === 'category' ? categoryAncestors(ctx, docs as EventCategory[]) : undefined,
  ])
  return { ...emptyRelated(), termCounts: counts, categoryAncestors: ancestors }
}

/** Categories and tags are managed by editors and administrators (docs/api.md §6.1). */
export const mayManageTerms = (ctx: RestContext) => capabilities.manageTerms(ctx.actor)

/** `GET /categories`, `GET /tags` (docs/api.md §8): past the last page is an empty 200. */
export async function listTerms(ctx: RestContext, terms: TermResource, params: TermListParams & { parent?: number }): Promise<RestResult> {
  const perPage = pageSize(ctx, params.per_page)
  const and: Where[] = []
  const invalid: Record<string, string> = {}
  if (params.search)
    and.push({
      or: ['name', 'slug', ...(ctx.language === 'en' ? [] : ['name.en', 'slug.en'])].map((path) => ({ [path]: { contains: escapeLike(params.search ?? '') } })),
    })
  if (params.slug) and.push({ or: [{ slug: { equals: params.slug } }, ...(ctx.language === 'en' ? [] : [{ 'slug.en': { equals: params.slug } }])] })
  // Every id named by `include`, `exclude` or `parent` must be a term of this taxonomy (docs/api.md §8).
  const named = [...(params.include ?? []), ...(params.exclude ?? []), ...(params.parent !== undefined ? [params.parent] : [])]
  const found = named.length ? await findByIdsPerRevision(ctx, terms.collection, named) : new Map()
  for (const name of ['include', 'exclude'] as const) {
    const missing = params[name]?.filter((id) => !found.has(id)) ?? []
    if (missing.length) invalid[name] = `No such term: ${missing.join(', ')}.`
  }
  if (params.exclude) and.push({ id: { not_in: params.exclude } })
  if (params.include) and.push(idIn(params.include))
  if (params.parent !== undefined) {
    if (!found.has(params.parent)) invalid.parent = 'No such category.'
    and.push({ parent: { equals: params.parent } })
  }
  const eventId = params.event ?? params.post
  if (eventId !== undefined) {
    const event = (await findByIdsPerRevision<Event>(ctx, 'events', [eventId])).get(eventId)
    if (!event) invalid[params.event !== undefined ? 'event' : 'post'] = 'No such event.'
    const linked = (terms.singular === 'category' ? event?.categories : event?.tags) ?? []
    and.push(idIn(linked.map(idOf).filter((id): id is number => id !== undefined)))
  }
  if (Object.keys(invalid).length) throw RestError.invalidParams(invalid)
  if (params.hide_empty) and.push(idIn(await termsInUse(ctx, terms.singular)))

  const direction = params.order === 'desc' ? '-' : ''
  const orderby = params.orderby ?? 'name'
  let docs: Term[]
  let total: number
  if (orderby === 'count') {
    // Counts are not a column: rank every match in memory (term sets are small), then cut the page.
    const all = (
      await ctx.req.payload.find({ ...readOptions(ctx, terms.collection), collection: terms.collection, where: { and }, pagination: false, sort: 'id' })
    ).docs as Term[]
    const counts = await termCounts(
      ctx,
      terms.singular === 'category' ? all.map((term) => term.id) : [],
      terms.singular === 'tag' ? all.map((term) => term.id) : [],
    )
    const count = (term: Term) => counts.get(`${terms.singular}:${term.id}`) ?? 0
    all.sort((a, b) => (direction ? count(b) - count(a) : count(a) - count(b)) || a.id - b.id)
    docs = all.slice((params.page - 1) * perPage, params.page * perPage)
    total = all.length
  } else {
    const column = orderby === 'term_group' ? 'id' : orderby
    const where: Where = { and }
    const [found, counted] = await Promise.all([
      ctx.req.payload.find({
        ...readOptions(ctx, terms.collection),
        collection: terms.collection,
        where,
        sort: [`${direction}${column}`, 'id'],
        page: params.page,
        limit: perPage,
        pagination: false,
      }),
      // Upstream counts the matches past the last page too (docs/api.md §8); once per content revision.
      revisionCacheOf(ctx.req.payload, 'revision').get(
        ctx.revision,
        `term-total:${terms.collection}:${ctx.language}:${readerKey(ctx)}:${JSON.stringify(where)}`,
        async () => (await ctx.req.payload.count({ ...readOptions(ctx), collection: terms.collection, where })).totalDocs,
      ),
    ])
    docs = found.docs as Term[]
    total = counted
  }
  const related = await relatedOf(ctx, terms, docs)
  return listResult({
    ctx,
    route: terms.key,
    key: terms.key,
    items: docs.map((doc) => serializeTerm(ctx, terms.singular, doc, related)),
    total,
    page: params.page,
    perPage,
    echo: [],
    termOrder: true,
  })
}

/** The term with this id, for reads and as the existence check of writes: unknown is a 400. */
export async function findTerm(ctx: RestContext, terms: TermResource, id: number): Promise<Term> {
  const term = (await findByIds<Term>(ctx, terms.collection, [id])).get(id)
  if (!term) throw RestError.invalidParams({ id: `No ${terms.singular} has this id.` })
  return term
}

const EVERY_METHOD: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** The term as it is now; single reads and writes add WordPress's `_links`, deletes answer without. */
export async function readTerm(ctx: RestContext, terms: TermResource, id: number, { links }: { links: boolean }): Promise<RestResult> {
  const term = await findTerm(ctx, terms, id)
  const body = serializeTerm(ctx, terms.singular, term, await relatedOf(ctx, terms, [term]))
  if (!links) return { body }
  return { body: { ...body, _links: termLinks(ctx, terms.singular, term, mayManageTerms(ctx) ? EVERY_METHOD : ['GET']) } }
}
