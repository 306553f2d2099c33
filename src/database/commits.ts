import type { PostgresAdapter } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'

type Transaction = PostgresAdapter['sessions'][string]['db']

/**
 * Every commit, whichever door's, throws the error of its COMMIT: Payload's adapter swallows it, so
 * a write whose connection died at COMMIT was acknowledged and lost (a 503 now, when the connection
 * is gone). The COMMIT is watched on its way through the transaction's `execute`: no statement is
 * added, where committing first with `commit and chain` cost a second one.
 */
export function refuseLostCommits(payload: Payload): void {
  const db = payload.db as unknown as Pick<PostgresAdapter, 'commitTransaction' | 'sessions'>
  const commit = db.commitTransaction.bind(db)
  db.commitTransaction = async (incoming) => {
    const id = await incoming
    const session = db.sessions?.[id]
    if (!session) return commit(id)
    const transaction: Transaction = session.db
    let failure: { error: unknown } | undefined
    const execute = transaction.execute.bind(transaction)
    transaction.execute = ((query: Parameters<Transaction['execute']>[0]) =>
      execute(query).catch((error: unknown) => {
        failure ??= { error }
        throw error
      })) as Transaction['execute']
    await commit(id)
    if (failure) throw failure.error
  }
}
