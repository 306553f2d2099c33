import { NotFound, type CollectionBeforeDeleteHook } from 'payload'
import { tableNameOf, tableOf } from '../../database/seriesCopy'
import { holdRows } from './rowLocks'

/**
 * A deleted category's children move up to its parent (WordPress core, docs/api.md §8), through every
 * door: the foreign key alone left them at the top when the admin, Payload's REST or GraphQL deleted
 * it. The category is held first, as an update holds it before it checks a parent: a delete that held
 * its children first, beside a change of the category's parent, took the two in opposite orders and
 * PostgreSQL undid one (a 409). Its parent is the one stored once it is held; one another writer
 * deleted meanwhile is not found.
 */
export const childrenMoveUp: CollectionBeforeDeleteHook = async ({ collection, id, req }) => {
  const table = tableOf(req, tableNameOf(req.payload, collection.slug))!
  const [held] = await holdRows<{ parent_id: number | null }>(req, table, [id], ['parent_id'])
  if (!held) throw new NotFound(req.t)
  await req.payload.update({
    collection: 'event-categories',
    where: { parent: { equals: id } },
    data: { parent: held.parent_id },
    req,
    overrideAccess: true,
    depth: 0,
    locale: 'en',
  })
}
