import type { PayloadRequest, RelationshipFieldValidation } from 'payload'
import { relationship } from 'payload/shared'
import { idOf } from '../../calendar/relationId'
import { holdUntilCommit } from '../../database/exclusive'

/** A category and its ancestors, nearest first (a loop already stored ends the walk). */
async function categoryAncestors(req: PayloadRequest, id: number): Promise<number[]> {
  const chain = [id]
  for (let current: number | undefined = id; current !== undefined;) {
    const found = await req.payload.findByID({
      collection: 'event-categories',
      id: current,
      req,
      depth: 0,
      overrideAccess: true,
      disableErrors: true,
      select: { parent: true },
    })
    const next = idOf((found as { parent?: unknown } | null)?.parent)
    if (next === undefined || chain.includes(next)) break
    chain.push(next)
    current = next
  }
  return chain
}

export const BELOW_ITSELF = 'A category cannot be below itself.'

/** Whether `parent` is the category `id` or one below it: a loop, were it made its parent. */
export async function belowItself(
  req: PayloadRequest,
  id: number,
  parent: number,
): Promise<boolean> {
  return (await categoryAncestors(req, parent)).includes(id)
}

/**
 * A category's parent is never the category itself or one below it, through any door
 * (docs/api.md §8): Payload's REST and GraphQL and the admin stored such a loop, and two namespace writes at once
 * (A under B beside B under A) each passed their check. Changes of a parent take turns to their
 * commits, so the second is checked against what the first wrote.
 */
export const validateCategoryParent: RelationshipFieldValidation = async (value, options) => {
  const valid = await relationship(value, options)
  const { req, id, previousValue } = options
  const parent = idOf(value)
  if (valid !== true || parent === undefined || id === undefined) return valid
  if (parent === idOf(previousValue)) return true
  await holdUntilCommit(req, 'category-tree')
  return (await belowItself(req, Number(id), parent)) ? BELOW_ITSELF : true
}
