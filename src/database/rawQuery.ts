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

/**
 * Rows of a hand-written read on one of the read replicas, chosen at random as Payload's adapter
 * chooses them for its own reads, else as `rawQuery`: drizzle sends `execute` to the primary even
 * when there are replicas, so without this the namespace's page reads would all land there.
 */
export async function readQuery<Row>(payload: Payload, query: SQL): Promise<Row[]> {
  const replicas = (payload.db as unknown as Replicated).drizzle.$replicas
  if (!replicas?.length) return rawQuery<Row>(payload, query)
  const { rows } = await replicas[Math.floor(Math.random() * replicas.length)]!.execute(query)
  return rows as Row[]
}

type Sessions = { sessions?: Record<string | number, { db?: Drizzle['drizzle'] }> }

/**
 * Rows of hand-written SQL inside the request's transaction when it has one (a write's own
 * bookkeeping that must commit with it), else as `rawQuery`.
 */
export async function rawQueryIn<Row>(req: PayloadRequest, query: SQL): Promise<Row[]> {
  const id = req.transactionID
  const session = id === undefined || id instanceof Promise ? undefined : (req.payload.db as unknown as Sessions).sessions?.[id]?.db
  if (!session) return rawQuery<Row>(req.payload, query)
  const { rows } = await session.execute(query)
  return rows as Row[]
}
