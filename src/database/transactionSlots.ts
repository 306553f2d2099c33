import type { BaseDatabaseAdapter } from 'payload'

type TransactionID = number | string

/**
 * Lets at most `slots` transactions hold a pooled connection at once; the others wait before they
 * take one. Payload's REST and GraphQL writes look up document locks outside the request's
 * transaction (`checkDocumentLockStatus` calls `payload.db.find` without `req`), so each of them
 * holds its transaction's connection while it waits for a second one. With as many such writes at
 * once as the pool has connections, every connection belongs to a transaction waiting for another
 * and the server never answers again (payloadcms/payload#8412). With `slots` below the number of
 * connections the pool can hand out, one is always left for queries outside transactions, and those
 * never wait for a transaction to end.
 */
export function limitTransactions<T extends BaseDatabaseAdapter>(db: T, slots: number): T {
  let open = 0
  const waiting: (() => void)[] = []
  const live = new Set<TransactionID>()

  const acquire = (): Promise<void> => {
    if (open < slots) {
      open++
      return Promise.resolve()
    }
    return new Promise((resolve) => waiting.push(resolve))
  }
  // A freed slot goes straight to the next waiting transaction, so `open` only drops when none waits.
  const release = (): void => {
    const next = waiting.shift()
    if (next) next()
    else open--
  }

  const begin = db.beginTransaction.bind(db)
  db.beginTransaction = async (options) => {
    await acquire()
    try {
      const id = await begin(options)
      if (id === null) release()
      else live.add(id)
      return id
    } catch (error) {
      release()
      throw error
    }
  }
  for (const name of ['commitTransaction', 'rollbackTransaction'] as const) {
    const end = db[name].bind(db)
    db[name] = async (incoming) => {
      const id = await incoming
      try {
        await end(id)
      } finally {
        // Payload ends some transactions more than once (a failing nested operation, then its caller).
        if (live.delete(id)) release()
      }
    }
  }
  return db
}
