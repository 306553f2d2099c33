import { commitTransaction, initTransaction, killTransaction } from 'payload'
import type { RestContext } from '../context'

/**
 * Runs a write in one database transaction: every local-API call given `ctx.req` joins it, so a
 * request either writes everything or nothing (contract §6).
 */
export async function inTransaction<T>(ctx: RestContext, work: () => Promise<T>): Promise<T> {
  const began = await initTransaction(ctx.req)
  try {
    const result = await work()
    if (began) await commitTransaction(ctx.req)
    return result
  } catch (error) {
    if (began) await killTransaction(ctx.req)
    throw error
  }
}
