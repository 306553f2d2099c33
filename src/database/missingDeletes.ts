import type { Payload } from 'payload'
import { isConnectionLoss } from './connectionErrors'

/**
 * Drizzle's `deleteOne` looks up the item its `where` names, and when a `where` through a link (a
 * user's preference: `user.value`) finds none, looks once more without the link's join: a statement
 * PostgreSQL refuses, so `DELETE /api/payload-preferences/<a key the user has not>` answered 500 and
 * logged the statement. When it fails so, the same `where` is read as Payload reads it: finding
 * nothing, nothing is deleted, and the adapter answers as for any item not there (null: Payload's
 * 404). Inside a transaction the failed statement has ended it, so the failure stands.
 */
export function answerMissingDeletes(payload: Payload): void {
  const db = payload.db
  const deleteOne = db.deleteOne
  db.deleteOne = async function (this: typeof db, args) {
    try {
      return await deleteOne.call(this, args)
    } catch (error) {
      if (isConnectionLoss(error) || args.req?.transactionID !== undefined) throw error
      const found = await db
        .findOne({ collection: args.collection, where: args.where, req: args.req })
        .catch(() => undefined)
      if (found === null) return null as never
      throw error
    }
  }
}
