import {
  APIError,
  NotFound,
  type CollectionBeforeOperationHook,
  type PayloadRequest,
  type Where,
} from 'payload'
import { tableNameOf, tableOf } from '../../database/seriesCopy'
import { reachableWhere } from './reach'
import { keepingNames } from './termNames'
import { holdRows, idsOf } from './rowLocks'

type Held = { id: number; parent_id?: number | null }

/**
 * A term's delete holds the terms it reaches before Payload reads them, as an update holds its items
 * (`takingTurns`): of two deletes of one term at once the second finds none, and a deleted category's
 * parent is the one stored once it is held. A deleted category's children move up to its parent
 * (WordPress core, docs/api.md §8), through every door: the foreign key alone left them at the top
 * when the admin, Payload's REST or GraphQL deleted it. Planned for the whole delete before it
 * begins, because Payload deletes a bulk delete's items side by side in one transaction: a child
 * deleted with its parent went on reading the parent it had, and its own children went to that
 * parent, deleted a moment later. So each child that stays goes to its nearest ancestor that stays.
 * Held before their children, as an update holds a category before it checks a parent: held after,
 * beside a change of a parent, the two took their locks in opposite orders and PostgreSQL undid one.
 */
export const termsDeletedInTurn: CollectionBeforeOperationHook = async ({
  args,
  collection,
  operation,
  req,
}) => {
  if (operation !== 'delete') return args
  const call = args as { id?: number | string; where?: Where; overrideAccess?: boolean }
  const reach = await reachableWhere(collection, 'delete', req, call)
  if (!reach) return args
  const ids = call.id !== undefined ? [call.id] : await idsOf(req, collection.slug, reach)
  if (!ids.length) return args
  const categories = collection.slug === 'event-categories'
  const table = tableOf(req, tableNameOf(req.payload, collection.slug))!
  const rows = await holdRows<Held>(req, table, ids, categories ? ['parent_id'] : [])
  if (call.id !== undefined && !rows.length) throw new NotFound(req.t)
  const held = new Map(rows.map((row) => [Number(row.id), row]))
  if (categories) await moveChildrenUp(req, held)
  // Pinned to the terms held: a `where` asked again would now reach the children moved up.
  return call.id !== undefined || !call.where
    ? args
    : { ...args, where: { and: [call.where, { id: { in: [...held.keys()] } }] } }
}

async function moveChildrenUp(req: PayloadRequest, held: Map<number, Held>): Promise<void> {
  const staying = (id: number | null | undefined): number | null => {
    const seen = new Set<number>()
    while (id != null && held.has(id) && !seen.has(id)) {
      seen.add(id)
      id = held.get(id)!.parent_id
    }
    return id == null || held.has(id) ? null : id
  }
  const deleted = [...held.keys()]
  for (const category of held.values()) {
    const { errors } = await keepingNames(req, () =>
      req.payload.update({
        collection: 'event-categories',
        where: { and: [{ parent: { equals: category.id } }, { id: { not_in: deleted } }] },
        data: { parent: staying(category.parent_id) },
        req,
        overrideAccess: true,
        depth: 0,
        locale: 'en',
      }),
    )
    // A child that could not move would be left below a category that is gone: nothing is deleted.
    if (errors.length)
      throw new APIError(
        `The children of category ${category.id} could not move up: ${errors[0]!.message}`,
        409,
      )
  }
}
