import { APIError, type CollectionAfterOperationHook, type Payload } from 'payload'
import { writeConflictOf } from '../database/writeConflicts'

/** What Payload's REST says of an item's failure it does not make public. */
const NOT_PUBLIC = 'Something went wrong.'

/**
 * Payload's bulk update and delete (`PATCH`/`DELETE /api/<collection>?where=…`, the admin's list
 * actions) write each item on its own and collect the items that failed: the answer is a 400, yet
 * the other items are written. A client that sees a 400 takes nothing to have happened, and an editor
 * who fixes the one item and sends the edit again writes the rest twice. So a bulk write made with
 * the caller's access (REST, the admin) is whole (docs/api.md §11): when any item fails, the
 * operation's transaction is undone and the answer names the items that failed. One that overrides
 * access (the local API's default: the scheduled publishing, which publishes what it can, and the
 * calendar's own upkeep, however their jobs were started) keeps Payload's per-item answer, which its
 * caller reads; so does one with no transaction of its own to undo.
 */
export const wholeBulkWrite: CollectionAfterOperationHook = ({ args, operation, req, result }) => {
  if ((operation !== 'update' && operation !== 'delete') || args.overrideAccess) return result
  if (req.payload.db.bulkOperationsSingleTransaction) return result
  // Undone by a write conflict, the transaction may be gone from the request already (a hook's
  // nested operation rolled it back): nothing of it is written, and it is answered as a conflict.
  if (req.transactionID === undefined && !writeConflictOf(req)) return result
  const { docs, errors = [] } = result as { docs: { id: number | string }[]; errors?: BulkError[] }
  const failed = errors.map(({ id, isPublic, message }) => ({
    id,
    message: isPublic ? message : NOT_PUBLIC,
  }))
  // Items the caller named but may not write are not selected at all (Payload adds the access
  // rule to the `where`): the admin reported "Updated 2 Events" for 3 selected, nothing said.
  const reached = new Set([...docs, ...errors].map(({ id }) => String(id)))
  for (const id of namedIds(args.where as Where | undefined) ?? [])
    if (!reached.has(String(id))) failed.push({ id, message: NOT_REACHED })
  if (!failed.length) return result
  const total = docs.length + failed.length
  const verb = operation === 'update' ? 'updated' : 'deleted'
  const error = new APIError(
    `${failed.length} of ${total} items could not be ${verb}, so none was: ${failed[0]!.message}`,
    400,
    { errors: failed },
    true,
  )
  // A lost database shows only in the items' messages, a write conflict in none ("Failed query: …"
  // keeps no code), so the request remembers it: the root's afterError answers a 503 or a 409.
  if (errors.length) error.cause = writeConflictOf(req) ?? new Error(errors[0]!.message)
  throw error
}

/** What an item named but not reached is told: whether it exists is not the caller's to learn. */
const NOT_REACHED = 'You are not allowed to perform this action, or the item does not exist.'

type Where = Record<string, unknown>

/**
 * The ids a bulk write's `where` names outright, as the admin's list actions send a selection
 * (`id` `in` or `equals`, alone or in an `and`); undefined for a filter that names none (the
 * admin's "select all" of a search), which writes what the caller's access reaches of it.
 */
function namedIds(where: Where | undefined): (number | string)[] | undefined {
  if (!where || typeof where !== 'object') return undefined
  const own = idsOf(where.id)
  if (own) return own
  if (!Array.isArray(where.and)) return undefined
  for (const part of where.and as Where[]) {
    const ids = namedIds(part)
    if (ids) return ids
  }
  return undefined
}

function idsOf(condition: unknown): (number | string)[] | undefined {
  if (!condition || typeof condition !== 'object') return undefined
  const { in: among, equals } = condition as { in?: unknown; equals?: unknown }
  const named = among ?? (equals === undefined ? undefined : [equals])
  const list = typeof named === 'string' ? named.split(',') : named
  return Array.isArray(list)
    ? list.flatMap((id: unknown): (number | string)[] =>
        typeof id === 'number' ? [id] : typeof id === 'string' && id.trim() ? [id.trim()] : [],
      )
    : undefined
}

type BulkError = { id: number | string; isPublic: boolean; message: string }

/**
 * Installs the rule on every collection of the running config, the app's own included, but upload
 * collections: Payload removes an item's old files from the disk (a delete, an update with a new
 * file) before its transaction ends, so undoing the transaction would keep records whose files are
 * gone. Their bulk writes keep Payload's per-item answer.
 */
export function keepBulkWritesWhole(payload: Payload): void {
  for (const { config } of Object.values(payload.collections))
    if (!config.upload)
      config.hooks.afterOperation = [wholeBulkWrite, ...(config.hooks.afterOperation ?? [])]
}
