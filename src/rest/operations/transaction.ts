import { sql } from '@payloadcms/db-postgres'
import { commitTransaction, initTransaction, killTransaction, type PayloadRequest } from 'payload'
import { rawQueryIn } from '../../database/rawQuery'
import type { RestContext } from '../context'

/**
 * Runs a write in one database transaction: every local-API call given `ctx.req` joins it, so a
 * request either writes everything or nothing (docs/api.md §6.1).
 */
export async function inTransaction<T>(ctx: RestContext, work: () => Promise<T>): Promise<T> {
  const began = await initTransaction(ctx.req)
  try {
    const result = await work()
    if (began) {
      await commitOrThrow(ctx.req)
      await commitTransaction(ctx.req)
    }
    return result
  } catch (error) {
    if (began) await killTransaction(ctx.req)
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
  await rawQueryIn(req, sql`commit and chain`)
}
