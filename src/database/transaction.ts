import { commitTransaction, initTransaction, killTransaction, type PayloadRequest } from 'payload'
import { readsOnReplicas } from './rawQuery'

/**
 * Runs a write in one database transaction: every local-API call given `req` joins it, so a
 * request (or an imported item) either writes everything or nothing (docs/api.md §6.1).
 */
export async function inTransaction<T>(req: PayloadRequest, work: () => Promise<T>): Promise<T> {
  const began = await initTransaction(req)
  if (began) undone.set(req, [])
  try {
    const result = await work()
    if (began) await commitTransaction(req)
    return result
  } catch (error) {
    if (began) {
      await killTransaction(req)
      await undoOutside(req)
    }
    throw error
  } finally {
    if (began) undone.delete(req)
  }
}

/**
 * Runs reads on the primary, in a transaction, when the app reads on replicas: for reads that decide
 * on what the primary's bookkeeping says (the change log), which a replica behind it has not had yet.
 */
export function onPrimary<T>(req: PayloadRequest, work: () => Promise<T>): Promise<T> {
  return readsOnReplicas(req.payload) ? inTransaction(req, work) : work()
}

/** What the work of a transaction did outside the database (a file written), to undo if it rolls back. */
const undone = new WeakMap<PayloadRequest, (() => Promise<void>)[]>()

/**
 * Has `undo` run if the transaction of `inTransaction` that `req` is in rolls back: the database
 * forgets what the work wrote, a disk does not. Outside such a transaction, nothing is kept.
 */
export function onRollback(req: PayloadRequest, undo: () => Promise<void>): void {
  undone.get(req)?.push(undo)
}

async function undoOutside(req: PayloadRequest): Promise<void> {
  for (const undo of undone.get(req) ?? []) await undo().catch(() => undefined)
}
