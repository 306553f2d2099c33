import type { TermResource } from '../../calendar/resources'
import { invalidTermWrite, type TermInput } from '../../operations/terms/checks'
import { createTerm as create } from '../../operations/terms/create'
import { deleteTerm as remove } from '../../operations/terms/delete'
import { updateTerm as update } from '../../operations/terms/update'
import type { RestContext } from '../context'
import type { RestResult } from '../route'
import { readCustomFields, withCustomFields } from '../schemas/customFields'
import { readTerm } from './terms'

/** Validation against stored data, after the permission check: the term being changed and the parent named must exist. */
export const validateTermWrite = async (
  ctx: RestContext,
  terms: TermResource,
  params: TermInput,
) => ({
  ...readCustomFields(ctx, terms.key, params as Record<string, unknown>).invalid,
  ...(await invalidTermWrite(ctx, terms, params)),
})

export async function createTerm(
  ctx: RestContext,
  terms: TermResource,
  params: TermInput,
): Promise<RestResult> {
  return {
    ...(await readTerm(
      ctx,
      terms,
      await create(ctx, terms, withCustomFields(ctx, terms.key, params)),
      {
        links: true,
      },
    )),
    status: 201,
  }
}

export async function updateTerm(
  ctx: RestContext,
  terms: TermResource,
  params: TermInput & { id: number },
): Promise<RestResult> {
  await update(ctx, terms, withCustomFields(ctx, terms.key, params))
  return readTerm(ctx, terms, params.id, { links: true })
}

/** Deleted for good, answering the term as it was. */
export async function deleteTerm(
  ctx: RestContext,
  terms: TermResource,
  id: number,
): Promise<RestResult> {
  const before = await readTerm(ctx, terms, id, { links: false })
  await remove(ctx, terms, id)
  return before
}
