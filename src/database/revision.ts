import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import type pg from 'pg'
import { setTimeout as sleep } from 'node:timers/promises'
import { advanceCaches } from '../calendar/caches'
import { rawQuery } from './rawQuery'
import { RevisionListener } from './revisionListener'

/**
 * The content revision: a counter in the database (`calendar_revision`) that every write to the
 * content moves once, as its transaction commits, through triggers made by the calendar's schema
 * migration (`src/migrations/calendarSchema/revision.ts`, `atCommit.ts`). Derived values (exact
 * totals, term counts, settings) are cached per revision in each instance and recomputed after a
 * write, so no instance serves what another has changed. Every change of the counter is notified on
 * its channel at commit, so that instances learn it without asking (`revisionListener.ts`).
 */

/**
 * The current revision, or undefined when caching by revision would be wrong: with read replicas
 * the derived values are read from a replica that may lag behind the primary's counter. Known
 * without a query while this instance listens for it, read from the database otherwise.
 */
export async function readRevision(payload: Payload): Promise<string | undefined> {
  if (readsFromReplicas(payload)) return undefined
  const pushed = pushedRevision(payload)
  if (pushed !== undefined) return pushed
  const rows = await rawQuery<{ value: string | number }>(
    payload,
    sql`select value from calendar_revision where id = 1`,
  )
  return rows[0] ? String(rows[0].value) : undefined
}

const readsFromReplicas = (payload: Payload) =>
  Boolean((payload.db as unknown as { readReplicaOptions?: string[] }).readReplicaOptions?.length)

/** The revision as PostgreSQL pushes it to this instance, without a query; undefined while it does not listen. */
export function pushedRevision(payload: Payload): string | undefined {
  if (readsFromReplicas(payload)) return undefined
  return listenerOf(payload)?.current()
}

/**
 * Resolves once the revision is no longer `known` (`pushedRevision` as it was before the caller's
 * last read), or after `ms`: a write committed on any instance since, so what the caller read may be
 * out of date. While this instance does not listen, after `deafMs` instead: nothing would tell it.
 */
export async function revisionMoved(
  payload: Payload,
  known: string | undefined,
  { ms, deafMs }: { ms: number; deafMs: number },
  signal: AbortSignal,
): Promise<void> {
  const listener = readsFromReplicas(payload) ? undefined : listenerOf(payload)
  if (listener?.current() !== undefined) return listener.moved(known, ms, signal)
  await sleep(deafMs, undefined, { signal }).catch(() => undefined)
}

type ListeningAdapter = {
  pg?: typeof pg
  poolOptions?: pg.PoolConfig
  commitTransaction: (...args: never[]) => Promise<void>
  destroy?: () => Promise<void>
}

const listeners = new WeakMap<Payload, RevisionListener | null>()

/** This instance's listener, started by the first read (command-line runs never read, so never hold a connection open). */
function listenerOf(payload: Payload): RevisionListener | undefined {
  let listener = listeners.get(payload)
  if (listener === undefined) listeners.set(payload, (listener = startListener(payload)))
  return listener ?? undefined
}

/**
 * `DATABASE_LISTEN_URL`: where the listening connection goes (the adapter's own settings by default;
 * PostgreSQL itself when the pool goes through a pooler in transaction mode, which cannot LISTEN), or
 * `off`. Each commit waits until the listener has read the revision it made.
 */
function startListener(payload: Payload): RevisionListener | null {
  const setting = process.env.DATABASE_LISTEN_URL
  const db = payload.db as unknown as ListeningAdapter
  if (setting === 'off' || !db.pg) return null
  const listener = new RevisionListener(
    db.pg,
    setting ? { connectionString: setting } : { ...db.poolOptions },
    payload.logger,
  )
  // What was kept for an older revision can serve nobody: it goes when the new one is known, not
  // at the next read, so a run of writes does not keep it alive (docs/performance.md, "Memory").
  listener.onAdvance((revision) => advanceCaches(payload, revision))
  const commit = db.commitTransaction.bind(db)
  db.commitTransaction = async (...args) => {
    await commit(...args)
    await listener.sync()
  }
  const destroy = db.destroy?.bind(db)
  if (destroy)
    db.destroy = async () => {
      await listener.stop()
      await destroy()
    }
  listener.start()
  return listener
}
