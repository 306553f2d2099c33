/**
 * The content revision: a counter in the database (`calendar_revision`) that every write to the
 * content moves, through statement triggers made by the calendar's schema migration
 * (`src/migrations/calendarSchema/revision.ts`). Derived values (exact totals, term counts, settings)
 * are cached per revision in each instance and recomputed after a write, so no instance serves what
 * another has changed. Every change of the counter is notified on its channel at commit, so that
 * instances learn it without asking (`revisionListener.ts`).
 */

import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import type pg from 'pg'
import { rawQuery } from './rawQuery'
import { RevisionListener } from './revisionListener'
import { BoundedMap } from '../calendar/boundedMap'

/**
 * The content revision: a counter in the database (`calendar_revision`) that every write to the
 * content moves, through statement triggers made by the calendar's schema migration
 * (`src/migrations/calendarSchema/revision.ts`). Derived values (exact totals, term counts, settings)
 * are cached per revision in each instance and recomputed after a write, so no instance serves what
 * another has changed. Every change of the counter is notified on its channel at commit, so that
 * instances learn it without asking (`revisionListener.ts`).
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
  const rows = await rawQuery<{ value: string | number }>(payload, sql`select value from calendar_revision where id = 1`)
  return rows[0] ? String(rows[0].value) : undefined
}

const readsFromReplicas = (payload: Payload) => Boolean((payload.db as unknown as { readReplicaOptions?: string[] }).readReplicaOptions?.length)

/** The revision as PostgreSQL pushes it to this instance, without a query; undefined while it does not listen. */
export function pushedRevision(payload: Payload): string | undefined {
  if (readsFromReplicas(payload)) return undefined
  return listenerOf(payload)?.current()
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
  const listener = new RevisionListener(db.pg, setting ? { connectionString: setting } : { ...db.poolOptions }, payload.logger)
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

/** Bounds the entries one revision may hold: their keys come from request parameters. */
const MAX_ENTRIES = 5000

/**
 * Values computed once per revision and key in this instance, shared by concurrent requests
 * while they are computed. Without a revision nothing is cached.
 */
export class RevisionCache {
  private revision: string | undefined
  private readonly entries: BoundedMap<string, Promise<unknown>>

  /** `maxEntries`: past this many, the entry used longest ago is dropped (large values want a small bound). */
  constructor(maxEntries = MAX_ENTRIES) {
    this.entries = new BoundedMap(maxEntries)
  }

  get<T>(revision: string | undefined, key: string, compute: () => Promise<T>): Promise<T> {
    if (revision === undefined) return compute()
    if (revision !== this.revision) {
      this.revision = revision
      this.entries.clear()
    }
    const known = this.entries.get(key)
    if (known) return known as Promise<T>
    const computed = compute()
    this.entries.set(key, computed)
    // A failure is not a value: the next request computes again.
    computed.catch(() => this.entries.deleteIf(key, computed))
    return computed
  }

  /**
   * Values of many keys at once, kept under `kind:key`: those not yet known at this revision are
   * computed by one call of `load` (one query for a whole page), which answers the keys it found;
   * the others get `absent`.
   */
  async getMany<T>(
    revision: string | undefined,
    kind: string,
    keys: string[],
    load: (missing: string[]) => Promise<Map<string, T>>,
    absent: T,
  ): Promise<Map<string, T>> {
    const unique = [...new Set(keys)]
    const missing: string[] = []
    let batch: Promise<Map<string, T>> | undefined
    const values = await Promise.all(
      unique.map((key) =>
        this.get(revision, `${kind}:${key}`, () => {
          missing.push(key)
          // Every key missing is known once `map` has run: the batch starts on the next tick, with all of them.
          batch ??= Promise.resolve().then(() => load(missing))
          return batch.then((found) => (found.has(key) ? found.get(key)! : absent))
        }),
      ),
    )
    return new Map(unique.map((key, index) => [key, values[index]!]))
  }
}

const caches = new WeakMap<Payload, RevisionCache>()

/** The cache of this Payload instance. */
export function revisionCache(payload: Payload): RevisionCache {
  let cache = caches.get(payload)
  if (!cache) caches.set(payload, (cache = new RevisionCache()))
  return cache
}
