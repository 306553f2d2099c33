import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import { createInLanguage, updateInLanguage } from '../operations/localizedWrite'
import { inTransaction } from '../../database/transaction'
import { escapeLike, existingIds, readOptions } from '../../operations/read'
import { idOf } from '../serialize/common'
import type { RestResult } from '../route'
import type { TermWriteParams } from '../schemas/termWrite'
import type { TermResource } from '../../calendar/resources'
import { findTermById } from '../../operations/terms/findOne'
import { readTerm } from './terms'

/** Validation against stored data, after the permission check: the term being changed and the parent named must exist. */
export async function validateTermWrite(ctx: RestContext, terms: TermResource, params: TermWriteParams): Promise<Record<string, string>> {
  const invalid: Record<string, string> = {}
  if (params.id !== undefined && !(await existingIds(ctx, terms.collection, [params.id])).size) invalid.id = `No ${terms.singular} has this id.`
  const parent = Number(params.parent ?? 0)
  if (parent > 0 && !(await existingIds(ctx, terms.collection, [parent])).size) invalid.parent = 'No such category.'
  else if (parent > 0 && params.id !== undefined && (await ancestorsOf(ctx, terms, parent)).includes(params.id))
    invalid.parent = 'A category cannot be below itself.'
  return invalid
}

/** A category and its ancestors, nearest first (a loop already stored ends the walk). */
async function ancestorsOf(ctx: RestContext, terms: TermResource, id: number): Promise<number[]> {
  const chain = [id]
  for (let current: number | undefined = id; current !== undefined;) {
    const found = await ctx.req.payload.findByID({
      collection: terms.collection,
      id: current,
      req: ctx.req,
      depth: 0,
      overrideAccess: true,
      disableErrors: true,
      select: { parent: true } as never,
    })
    const next = idOf((found as { parent?: unknown } | null)?.parent)
    if (next === undefined || chain.includes(next)) break
    chain.push(next)
    current = next
  }
  return chain
}

/**
 * A name already used among the term's siblings is a 400 `term_exists` carrying the existing id
 * (WordPress core); tags are all siblings.
 */
async function refuseDuplicateName(ctx: RestContext, terms: TermResource, name: string, parent: number, self?: number): Promise<void> {
  const { docs } = await ctx.req.payload.find({
    collection: terms.collection,
    req: ctx.req,
    locale: ctx.language,
    depth: 0,
    pagination: false,
    where: { name: { like: escapeLike(name) } },
    select: { name: true, ...(terms.singular === 'category' ? { parent: true } : {}) } as never,
  })
  const clash = (docs as { id: number; name?: string; parent?: unknown }[]).find(
    (doc) => doc.id !== self && (idOf(doc.parent) ?? 0) === parent && doc.name?.trim().toLowerCase() === name.trim().toLowerCase(),
  )
  if (clash) throw new RestError('term_exists', 'A term with the name provided already exists with this parent.', 400, { term_id: clash.id })
}

function termData(params: TermWriteParams) {
  const data: Record<string, unknown> = {}
  if (params.name !== undefined) data.name = params.name
  if (params.description !== undefined) data.description = params.description
  if (params.slug !== undefined) data.slug = params.slug
  if (params.parent !== undefined) data.parent = Number(params.parent) || null
  return data
}

export async function createTerm(ctx: RestContext, terms: TermResource, params: TermWriteParams): Promise<RestResult> {
  const id = await inTransaction(ctx.req, async () => {
    await refuseDuplicateName(ctx, terms, params.name ?? '', Number(params.parent ?? 0))
    return createInLanguage(ctx, terms.collection, termData(params))
  })
  return { ...(await readTerm(ctx, terms, id, { links: true })), status: 201 }
}

export async function updateTerm(ctx: RestContext, terms: TermResource, params: TermWriteParams & { id: number }): Promise<RestResult> {
  await inTransaction(ctx.req, async () => {
    if (params.name !== undefined) {
      const parent =
        params.parent !== undefined ? Number(params.parent) : (idOf(((await findTermById(ctx, terms, params.id)) as { parent?: unknown }).parent) ?? 0)
      await refuseDuplicateName(ctx, terms, params.name, parent, params.id)
    }
    await updateInLanguage(ctx, terms.collection, params.id, termData(params))
  })
  return readTerm(ctx, terms, params.id, { links: true })
}

/**
 * Terms are deleted for good (no trash), answering the term as it was; events lose it and its
 * child categories move up to its parent (WordPress core).
 */
export async function deleteTerm(ctx: RestContext, terms: TermResource, id: number): Promise<RestResult> {
  const term = (await findTermById(ctx, terms, id)) as { parent?: unknown }
  const before = await readTerm(ctx, terms, id, { links: false })
  await inTransaction(ctx.req, async () => {
    if (terms.singular === 'category') {
      await ctx.req.payload.update({
        collection: terms.collection,
        where: { parent: { equals: id } },
        data: { parent: idOf(term.parent) ?? null } as never,
        req: ctx.req,
        overrideAccess: true,
        depth: 0,
        locale: 'en',
      })
    }
    await ctx.req.payload.delete({ ...readOptions(ctx), collection: terms.collection, id })
  })
  return before
}
