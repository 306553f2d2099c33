/** Database fingerprints: did a request write anything? */
import { type FuzzRequest } from './request'
import { type Outcome } from './send'

/**
 * Tables the namespace may write; users, sessions, Payload's own bookkeeping and the throttles'
 * counters (a wrong password counts as a failure even on a read, docs/api.md §9) are left out.
 */
const EXCLUDED_TABLES = /^(users|payload_|calendar_login_failures$|calendar_rate_buckets$)/

export type Fingerprinter = { take: () => Promise<string>; close: () => Promise<void> }

/** A value that changes whenever any content table changes: an md5 of every row of every content table. */
export async function fingerprinter(databaseUrl: string): Promise<Fingerprinter> {
  const pg = (await import('pg')).default
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const tables = (
    await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    )
  ).rows
    .map((row) => row.table_name)
    .filter((name) => !EXCLUDED_TABLES.test(name))
  const sql = tables
    .map(
      (table) =>
        `select '${table}' as t, count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' order by md5(x::text))), '') as f from "${table}" x`,
    )
    .join(' union all ')
  return {
    // In table order: PostgreSQL may answer the branches of a union in any order (a parallel append).
    take: async () =>
      (await client.query<{ t: string; f: string }>(sql)).rows
        .map((row) => `${row.t}=${row.f}`)
        .sort()
        .join(' '),
    close: () => client.end(),
  }
}

/** What is wrong with the database changing (or not) across one write request: `before` and `after` are fingerprints. */
export function writeViolations(
  request: FuzzRequest,
  outcome: Outcome,
  before: string,
  after: string,
): string[] {
  if (before === after || outcome.unsendable) return []
  const tables = changedTables(before, after).join(', ')
  if (outcome.status >= 400 || outcome.status === 0)
    return [`failed with ${outcome.status} but wrote to ${tables}`]
  if (request.auth !== 'administrator') return [`a ${request.auth} request wrote to ${tables}`]
  return []
}

/** Which tables differ between two fingerprints (for the report). */
export function changedTables(before: string, after: string): string[] {
  const parse = (text: string) =>
    new Map(text.split(' ').map((part) => part.split('=') as [string, string]))
  const a = parse(before)
  const b = parse(after)
  return [...new Set([...a.keys(), ...b.keys()])].filter((table) => a.get(table) !== b.get(table))
}
