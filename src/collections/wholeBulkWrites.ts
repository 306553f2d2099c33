import { APIError, type CollectionAfterOperationHook, type Payload } from 'payload'

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
  if (req.transactionID === undefined || req.payload.db.bulkOperationsSingleTransaction)
    return result
  const { docs, errors } = result as { docs: unknown[]; errors: BulkError[] }
  if (!errors?.length) return result
  const failed = errors.map(({ id, isPublic, message }) => ({
    id,
    message: isPublic ? message : NOT_PUBLIC,
  }))
  const total = docs.length + errors.length
  const verb = operation === 'update' ? 'updated' : 'deleted'
  const error = new APIError(
    `${errors.length} of ${total} items could not be ${verb}, so none was: ${failed[0]!.message}`,
    400,
    { errors: failed },
    true,
  )
  // A lost database shows only in the items' messages; the root's afterError answers it as a 503.
  error.cause = new Error(errors[0]!.message)
  throw error
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
