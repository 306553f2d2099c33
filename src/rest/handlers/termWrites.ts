import { capabilities } from '../../access/capabilities'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import { inTransaction } from '../operations/transaction'
import { existingIds, readOptions } from '../query/read'
import type { RestResult } from '../route'
import type { TermWriteParams } from '../schemas/termWrite'
import { findTerm, readTerm, type TermRoute } from './terms'

/** Validation before permission: the term being changed and the parent named must exist. */
export async function validateTermWrite(ctx: RestContext, terms: TermRoute, params: TermWriteParams): Promise<Record<string, string>> {
  const invalid: Record<string, string> = {}
  if (params.id !== undefined && !(await existingIds(ctx, terms.collection, [params.id])).size) invalid.id = `No ${terms.kind} has this id.`
  const parent = Number(params.parent ?? 0)
  if (parent > 0 && !(await existingIds(ctx, terms.collection, [parent])).size) invalid.parent = 'No such category.'
  if (parent > 0 && parent === params.id) invalid.parent = 'A category cannot be its own parent.'
  return invalid
}

export const mayManageTerms = (ctx: RestContext) => capabilities.manageTerms(ctx.actor)

/** A name already used in the taxonomy is a 400 `term_exists` carrying the existing id (WordPress core). */
async function refuseDuplicateName(ctx: RestContext, terms: TermRoute, name: string, self?: number): Promise<void> {
  const { docs } = await ctx.req.payload.find({ collection: terms.collection, req: ctx.req, locale: ctx.language, depth: 0, pagination: false, where: { name: { like: name } }, select: { name: true } })
  const clash = docs.find((doc) => doc.id !== self && doc.name?.trim().toLowerCase() === name.trim().toLowerCase())
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

export async function createTerm(ctx: RestContext, terms: TermRoute, params: TermWriteParams): Promise<RestResult> {
  const id = await inTransaction(ctx, async () => {
    await refuseDuplicateName(ctx, terms, params.name ?? '')
    const created = await ctx.req.payload.create({ ...readOptions(ctx), collection: terms.collection, data: termData(params) as never })
    return created.id
  })
  return { ...(await readTerm(ctx, terms, id)), status: 201 }
}

export async function updateTerm(ctx: RestContext, terms: TermRoute, params: TermWriteParams & { id: number }): Promise<RestResult> {
  await inTransaction(ctx, async () => {
    if (params.name !== undefined) await refuseDuplicateName(ctx, terms, params.name, params.id)
    await ctx.req.payload.update({ ...readOptions(ctx), collection: terms.collection, id: params.id, data: termData(params) as never })
  })
  return readTerm(ctx, terms, params.id)
}

/** Terms are deleted for good (no trash), answering the term as it was; events lose it. */
export async function deleteTerm(ctx: RestContext, terms: TermRoute, id: number): Promise<RestResult> {
  await findTerm(ctx, terms, id)
  const before = await readTerm(ctx, terms, id)
  await inTransaction(ctx, () => ctx.req.payload.delete({ ...readOptions(ctx), collection: terms.collection, id }))
  return before
}
