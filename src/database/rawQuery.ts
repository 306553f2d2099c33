import type { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'

/** A fragment of SQL, as drizzle's `sql` template builds it. */
export type SQL = ReturnType<typeof sql>

type Drizzle = { drizzle: { execute: (query: unknown) => Promise<{ rows: unknown[] }> } }

/**
 * Rows of hand-written SQL (a `sql` template of `@payloadcms/db-postgres`), run on the adapter's
 * drizzle instance: for what Payload's API cannot ask (grouped counts, pages built as JSON, the
 * revision and term-count tables). The adapter's type does not expose `execute`, hence the cast here
 * and nowhere else.
 */
export async function rawQuery<Row>(payload: Payload, query: SQL): Promise<Row[]> {
  const { rows } = await (payload.db as unknown as Drizzle).drizzle.execute(query)
  return rows as Row[]
}
