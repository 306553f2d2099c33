import { createHash } from 'node:crypto'
import type { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'

/** A fragment of SQL, as drizzle's `sql` template builds it. */
export type SQL = ReturnType<typeof sql>

type Rows = { rows: unknown[] }

/** What this module uses of a drizzle database (the primary, a replica, or a transaction's). */
type Drizzle = {
  execute: (query: unknown) => Promise<Rows>
  dialect: { sqlToQuery: (query: SQL) => { sql: string; params: unknown[] } }
  session: { prepareQuery: (query: { sql: string; params: unknown[] }, fields: undefined, name: string, arrayMode: false) => { execute: () => Promise<Rows> } }
}

/**
 * How a query runs: `prepared` names it after its text, so that each connection parses it once and
 * PostgreSQL may keep a generic plan for it (after five custom ones, when that plan is no dearer).
 * For statements whose text is one of a few and whose plan does not hang on their values: the page
 * query's body took PostgreSQL 7 ms to parse and plan against 5 ms to run (docs/performance.md,
 * "Prepared page bodies"). `DATABASE_PREPARED_STATEMENTS=false` runs them unnamed, for a pooler that
 * cannot keep named statements.
 */
export type QueryMode = { prepared?: boolean }

const PREPARED = process.env.DATABASE_PREPARED_STATEMENTS !== 'false'

async function run(db: Drizzle, query: SQL, mode: QueryMode): Promise<unknown[]> {
  if (!mode.prepared || !PREPARED) return (await db.execute(query)).rows
  const built = db.dialect.sqlToQuery(query)
  // node-postgres keeps each connection's statements by name and refuses a name with another text.
  const name = `calendar_${createHash('sha1').update(built.sql).digest('base64url').slice(0, 24)}`
  return (await db.session.prepareQuery(built, undefined, name, false).execute()).rows
}

/**
 * Rows of hand-written SQL (a `sql` template of `@payloadcms/db-postgres`), run on the adapter's
 * drizzle instance: for what Payload's API cannot ask (grouped counts, pages built as JSON, the
 * revision and term-count tables). The adapter's type does not expose `execute` nor its transactions'
 * sessions, hence the casts here and nowhere else.
 */
export async function rawQuery<Row>(payload: Payload, query: SQL, mode: QueryMode = {}): Promise<Row[]> {
  return (await run((payload.db as unknown as { drizzle: Drizzle }).drizzle, query, mode)) as Row[]
}

type Replicated = { drizzle: { $replicas?: Drizzle[] } }
type Sessions = { sessions?: Record<string | number, { db?: Drizzle }> }

/**
 * Rows of hand-written SQL made for a request, where that request's reads belong:
 * - inside its transaction when it has one: a write's own reads and bookkeeping see its writes and
 *   commit with them;
 * - on a read replica when the request only reads (GET, HEAD) and there are replicas, chosen at
 *   random as Payload's adapter chooses them for its own reads: drizzle sends `execute` to the
 *   primary even then, so without this every hand-written read would land there;
 * - else on the primary, as `rawQuery`, so that a write's answer reads what it wrote.
 */
export async function requestQuery<Row>(req: PayloadRequest, query: SQL, mode: QueryMode = {}): Promise<Row[]> {
  const id = req.transactionID
  const session = id === undefined || id instanceof Promise ? undefined : (req.payload.db as unknown as Sessions).sessions?.[id]?.db
  const replicas = session || !READ_ONLY.has(req.method ?? '') ? undefined : (req.payload.db as unknown as Replicated).drizzle.$replicas
  const target = session ?? (replicas?.length ? replicas[Math.floor(Math.random() * replicas.length)] : undefined)
  if (!target) return rawQuery<Row>(req.payload, query, mode)
  return (await run(target, query, mode)) as Row[]
}

const READ_ONLY = new Set(['GET', 'HEAD'])
