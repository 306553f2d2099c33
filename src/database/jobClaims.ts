import { sql } from '@payloadcms/db-postgres'
import type { DatabaseAdapter } from 'payload'

type UpdateJobs = DatabaseAdapter['updateJobs']
type Sessions = {
  sessions?: Record<string, { db: { execute: (query: unknown) => Promise<unknown> } }>
}

/**
 * Payload's queue claims due jobs (`processing: true`) by reading them, then writing each, in one
 * transaction of their own: two instances that polled at once both read a job before either wrote
 * it, both ran it, and the one that finished second found it deleted by the other (`Cannot read
 * properties of null (reading 'log')`, a server error every minute or so with two instances, and the
 * rest of its pass dropped). So claims take turns across instances: each first takes a
 * transaction-level advisory lock, so the next claim reads what the last one wrote, and a job is
 * claimed once. Claims are short (a read and a write per job); the runs themselves still overlap.
 */
export function claimingInTurns(db: Pick<DatabaseAdapter, 'updateJobs'>): void {
  const update: UpdateJobs = db.updateJobs.bind(db)
  db.updateJobs = async (args) => {
    const claim = !args.id && (args.data as { processing?: unknown }).processing === true
    const id = args.req?.transactionID
    if (claim && id !== undefined) {
      const session = (db as unknown as Sessions).sessions?.[String(await id)]?.db
      await session?.execute(sql`select pg_advisory_xact_lock(hashtext('payload_jobs_claim'))`)
    }
    return update(args)
  }
}
