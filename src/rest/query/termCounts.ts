import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { rawQuery } from '../../database/rawQuery'
import { revisionCache } from '../../database/revision'
import type { RestContext } from '../context'

type Row = { kind: 'category' | 'tag'; id: number; count: string | number }

/**
 * Published events per term for a batch of terms, from the counts the database keeps
 * (`calendar_term_count`), in one query for those not yet read at this request's revision.
 */
export async function termCounts(ctx: RestContext, categoryIds: number[], tagIds: number[]): Promise<Map<string, number>> {
  const keys = [...new Set([...categoryIds.map((id) => `category:${id}`), ...tagIds.map((id) => `tag:${id}`)])]
  const cache = revisionCache(ctx.req.payload)
  let batch: Promise<Map<string, number>> | undefined
  const missing: string[] = []
  const counts = keys.map((key) =>
    cache.get(ctx.revision, `term-count:${key}`, () => {
      missing.push(key)
      batch ??= Promise.resolve().then(() => countTerms(ctx.req.payload, missing))
      return batch.then((found) => found.get(key) ?? 0)
    }),
  )
  const values = await Promise.all(counts)
  return new Map(keys.map((key, index) => [key, values[index]!]))
}

async function countTerms(payload: Payload, keys: string[]): Promise<Map<string, number>> {
  const ids = (kind: string) => keys.filter((key) => key.startsWith(`${kind}:`)).map((key) => Number(key.slice(kind.length + 1)))
  const list = (values: number[]) =>
    sql.join(
      (values.length ? values : [0]).map((id) => sql`${id}`),
      sql`, `,
    )
  const rows = await rawQuery<Row>(
    payload,
    sql`
    select kind, term as id, count from calendar_term_count
     where (kind = 'category' and term in (${list(ids('category'))})) or (kind = 'tag' and term in (${list(ids('tag'))}))`,
  )
  return new Map(rows.map((row) => [`${row.kind}:${row.id}`, Number(row.count)]))
}

/** Ids of the categories or tags that at least one published event uses (`hide_empty`). */
export async function termsInUse(payload: Payload, kind: 'category' | 'tag'): Promise<number[]> {
  const rows = await rawQuery<{ id: number }>(payload, sql`select term as id from calendar_term_count where kind = ${kind} and count > 0`)
  return rows.map((row) => Number(row.id))
}
