import type { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'

/** A fragment of SQL, as drizzle's `sql` template builds it. */
export type SQL = ReturnType<typeof sql>

type Drizzle = { drizzle: { execute: (query: unknown) => Promise<{ rows: unknown[] }> } }

/**
 * Rows of hand-written SQL (a `sql` template of `@payloadcms/db-postgres`), run on the adapter's
 * drizzle instance: for what Payload's API cannot ask (grouped counts, pages built as JSON, the
 * revision and term-count tables). The adapter's type does not expose `execute` nor its transactions'
 * sessions, hence the casts here and nowhere else.
 */
export async function rawQuery<Row>(payload: Payload, query: SQL): Promise<Row[]> {
  const { rows } = await (payload.db as unknown as Drizzle).drizzle.execute(query)
  return rows as Row[]
}

type Replicated = { drizzle: { $replicas?: Drizzle['drizzle'][] } }
type Sessions = { sessions?: Record<string | number, { db?: Drizzle['drizzle'] }> }

/**
 * Rows of hand-written SQL made for a request, where that request's reads belong:
 * - inside its transaction when it has one: a write's own reads and bookkeeping see its writes and
 *   commit with them;
 * - on a read replica when the request only reads (GET, HEAD) and there are replicas, chosen at
 *   random as Payload's adapter chooses them for its own reads: drizzle sends `execute` to the
 *   primary even then, so without this every hand-written read would land there;
 * - else on the primary, as `rawQuery`, so that a write's answer reads what it wrote.
 */
export async function requestQuery<Row>(req: PayloadRequest, query: SQL): Promise<Row[]> {
  const id = req.transactionID
  const session = id === undefined || id instanceof Promise ? undefined : (req.payload.db as unknown as Sessions).sessions?.[id]?.db
  const replicas = session || !READ_ONLY.has(req.method ?? '') ? undefined : (req.payload.db as unknown as Replicated).drizzle.$replicas
  const target = session ?? (replicas?.length ? replicas[Math.floor(Math.random() * replicas.length)] : undefined)
  if (!target) return rawQuery<Row>(req.payload, query)
  const { rows } = await target.execute(query)
  return rows as Row[]
}

const READ_ONLY = new Set(['GET', 'HEAD'])
