import { APIError, type CollectionAfterOperationHook, type Payload } from 'payload'

/** What Payload's REST says of an item's failure it does not make public. */
const NOT_PUBLIC = 'Something went wrong.'

/**
 * Payload's bulk update and delete (`PATCH`/`DELETE /api/<collection>?where=…`, the admin's list
 * actions) write each item on its own and collect the items that failed: the answer is a 400, yet
 * the other items are written. A client that sees a 400 takes nothing to have happened, and an editor
 * who fixes the one item and sends the edit again writes the rest twice. So a bulk write from a
 * client is whole (docs/api.md §11): when any item fails, the operation's transaction is undone and
 * the answer names the items that failed. The local API keeps Payload's per-item answer, which its
 * callers read (the scheduled publishing publishes what it can).
 */
export const wholeBulkWrite: CollectionAfterOperationHook = ({ operation, req, result }) => {
  if ((operation !== 'update' && operation !== 'delete') || req.payloadAPI === 'local')
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
 * Installs the rule on every collection of the running config, the app's own included. Deletes of an
 * upload collection keep Payload's per-item answer: Payload removes an item's files from the disk
 * before its transaction ends, so undoing the transaction would keep records whose files are gone.
 */
export function keepBulkWritesWhole(payload: Payload): void {
  for (const { config } of Object.values(payload.collections)) {
    const hook: CollectionAfterOperationHook = config.upload
      ? (args) => (args.operation === 'delete' ? args.result : wholeBulkWrite(args))
      : wholeBulkWrite
    config.hooks.afterOperation = [hook, ...(config.hooks.afterOperation ?? [])]
  }
}
