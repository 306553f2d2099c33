import { booleanSetting } from '../calendar/settings'
import { createHash } from 'node:crypto'
import type { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'
import { thrownFor } from './writeConflicts'

/** A fragment of SQL, as drizzle's `sql` template builds it. */
export type SQL = ReturnType<typeof sql>

type Rows = { rows: unknown[] }

/** What this module uses of a drizzle database (the primary, a replica, or a transaction's). */
type Drizzle = {
  execute: (query: unknown) => Promise<Rows>
  transaction: <T>(work: (tx: Drizzle) => Promise<T>) => Promise<T>
  dialect: { sqlToQuery: (query: SQL) => { sql: string; params: unknown[] } }
  session: {
    prepareQuery: (
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      arrayMode: false,
    ) => { execute: (values?: Record<string, unknown>) => Promise<Rows> }
  }
}

/**
 * A statement built once and run many times: its text, its values (drizzle's `sql.placeholder` where
 * each run gives its own) and a name from its text. Run by name, each connection parses it once and
 * PostgreSQL may keep a generic plan for it (after five custom ones, when that plan is no dearer): for
 * statements whose text is one of a few and whose plan does not hang on their values. The page
 * query's body took PostgreSQL 7 ms to parse and plan against 5 ms to run, and drizzle's building of
 * its text was a few percent of the app's time (docs/performance.md, "Prepared page bodies").
 * `DATABASE_PREPARED_STATEMENTS=false` runs them unnamed, for a pooler that cannot keep named
 * statements.
 */
export type Statement = { sql: string; params: unknown[]; name: string }

const PREPARED = booleanSetting('DATABASE_PREPARED_STATEMENTS')

const primaryOf = (payload: Payload) => (payload.db as unknown as { drizzle: Drizzle }).drizzle

/** `query` as a `Statement` of `payload`'s database. */
export function statement(payload: Payload, query: SQL): Statement {
  const built = primaryOf(payload).dialect.sqlToQuery(query)
  // node-postgres keeps each connection's statements by name and refuses a name with another text.
  return {
    ...built,
    name: `calendar_${createHash('sha1').update(built.sql).digest('base64url').slice(0, 24)}`,
  }
}

/**
 * Rows of hand-written SQL (a `sql` template of `@payloadcms/db-postgres`), run on the adapter's
 * drizzle instance: for what Payload's API cannot ask (grouped counts, pages built as JSON, the
 * revision and term-count tables). The adapter's type does not expose `execute` nor its transactions'
 * sessions, hence the casts here and nowhere else.
 */
export async function rawQuery<Row>(payload: Payload, query: SQL): Promise<Row[]> {
  return (await primaryOf(payload).execute(query)).rows as Row[]
}

/**
 * Runs `work` in one transaction of its own on the primary, whatever the request's: for row locks held
 * across a read and the write it decides (`loginThrottle.ts`). `run` gives a statement's rows.
 */
export async function rawTransaction<T>(
  payload: Payload,
  work: (run: <Row>(query: SQL) => Promise<Row[]>) => Promise<T>,
): Promise<T> {
  return primaryOf(payload).transaction((tx) =>
    work(async <Row>(query: SQL) => (await tx.execute(query)).rows as Row[]),
  )
}

type Replicated = {
  drizzle: { $replicas?: Drizzle[] }
  lastWriteTimestamp?: number
  readReplicasAfterWriteInterval?: number
}

/**
 * Payload's rule for its own reads, kept by the hand-written ones: for a while after this instance
 * wrote (`readReplicasAfterWriteInterval`, 2 s), reads go to the primary, which has the write. A
 * namespace read of an event just created found it on the primary and read its page on a replica
 * that had not had it yet: a 403 for its own author.
 */
function justWrote(payload: Payload): boolean {
  const { lastWriteTimestamp, readReplicasAfterWriteInterval = 0 } =
    payload.db as unknown as Replicated
  return (
    lastWriteTimestamp !== undefined &&
    Date.now() - lastWriteTimestamp < readReplicasAfterWriteInterval
  )
}

/** Whether the app reads on read replicas (`DATABASE_READ_REPLICAS`). */
export const readsOnReplicas = (payload: Payload) =>
  Boolean((payload.db as unknown as Replicated).drizzle.$replicas?.length)

/** A way to run a statement on each read replica, in the order `DATABASE_READ_REPLICAS` names them. */
export const replicaQueries = (payload: Payload) =>
  ((payload.db as unknown as Replicated).drizzle.$replicas ?? []).map(
    (replica) =>
      async <Row>(query: SQL) =>
        (await replica.execute(query)).rows as Row[],
  )
type Sessions = { sessions?: Record<string | number, { db?: Drizzle }> }

/**
 * Where a request's hand-written reads belong:
 * - inside its transaction when it has one: a write's own reads and bookkeeping see its writes and
 *   commit with them;
 * - on a read replica when the request only reads (GET, HEAD) and there are replicas, chosen at
 *   random as Payload's adapter chooses them for its own reads: drizzle sends `execute` to the
 *   primary even then, so without this every hand-written read would land there;
 * - else on the primary, so that a write's answer reads what it wrote.
 */
function requestTarget(req: PayloadRequest): Drizzle {
  const id = req.transactionID
  const session =
    id === undefined || id instanceof Promise
      ? undefined
      : (req.payload.db as unknown as Sessions).sessions?.[id]?.db
  const replicas =
    session || !READ_ONLY.has(req.method ?? '') || justWrote(req.payload)
      ? undefined
      : (req.payload.db as unknown as Replicated).drizzle.$replicas
  return (
    session ??
    (replicas?.length
      ? replicas[Math.floor(Math.random() * replicas.length)]!
      : primaryOf(req.payload))
  )
}

/**
 * Rows of hand-written SQL made for a request, where that request's reads belong (`requestTarget`).
 * A write conflict that undoes the request's transaction is remembered on it (`writeConflicts.ts`):
 * the hand-written statements that lock (a series, an update's rows, the links a write holds) come
 * this way.
 */
export async function requestQuery<Row>(req: PayloadRequest, query: SQL): Promise<Row[]> {
  try {
    return (await requestTarget(req).execute(query)).rows as Row[]
  } catch (error) {
    throw thrownFor(req, error)
  }
}

/** Rows of a `Statement` with its placeholders' `values`, on the connection `target` picks from `from`. */
const statementOn =
  <From>(target: (from: From) => Drizzle) =>
  <Row>(from: From, made: Statement, values: Record<string, unknown>): Promise<Row[]> =>
    run<Row>(target(from), made, values)

/** A `Statement`'s rows where the request's reads belong (`requestTarget`). */
export const requestStatement = statementOn(requestTarget)

/**
 * A `Statement`'s rows on the primary, outside any request's transaction: for what must see every
 * commit at once (a sign-in must see a logout; a replica may lag behind it).
 */
export const primaryStatement = statementOn(primaryOf)

async function run<Row>(
  target: Drizzle,
  { name, ...query }: Statement,
  values: Record<string, unknown>,
): Promise<Row[]> {
  return (
    await target.session
      .prepareQuery(query, undefined, PREPARED ? name : undefined, false)
      .execute(values)
  ).rows as Row[]
}

const READ_ONLY = new Set(['GET', 'HEAD'])
