import { sql } from '@payloadcms/db-postgres'
import { commitTransaction, initTransaction, killTransaction, type PayloadRequest } from 'payload'
import { requestQuery } from './rawQuery'

/**
 * Runs a write in one database transaction: every local-API call given `req` joins it, so a
 * request (or an imported item) either writes everything or nothing (docs/api.md §6.1).
 */
export async function inTransaction<T>(req: PayloadRequest, work: () => Promise<T>): Promise<T> {
  const began = await initTransaction(req)
  try {
    const result = await work()
    if (began) {
      await commitOrThrow(req)
      await commitTransaction(req)
    }
    return result
  } catch (error) {
    if (began) await killTransaction(req)
    throw error
  }
}

/**
 * Payload's commit never fails: the adapter swallows the error of drizzle's COMMIT, so a write whose
 * connection died at COMMIT would be acknowledged and lost. The transaction is committed here first,
 * where a failure reaches the caller (a 503 when the connection is gone); `and chain` leaves an empty
 * transaction open for Payload's own COMMIT to end.
 */
async function commitOrThrow(req: PayloadRequest): Promise<void> {
  if (req.transactionID === undefined || req.transactionID instanceof Promise) return
  await requestQuery(req, sql`commit and chain`)
}
