import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'
import { requestQuery } from '../rawQuery'
import { revisionCacheOf } from '../../calendar/caches'
import type { ReadScope } from '../readScope'

type Row = { kind: 'category' | 'tag'; id: number; count: string | number }

/**
 * Published events per term for a batch of terms, from the counts the database keeps
 * (`calendar_term_count`, with what the request's own transaction staged for it), in one query for
 * those not yet read at this request's revision.
 */
export function termCounts(
  scope: ReadScope,
  categoryIds: number[],
  tagIds: number[],
): Promise<Map<string, number>> {
  const keys = [...categoryIds.map((id) => `category:${id}`), ...tagIds.map((id) => `tag:${id}`)]
  return revisionCacheOf(scope.req.payload, 'revision').getMany(
    scope.revision,
    'term-count',
    keys,
    (missing) => countTerms(scope.req, missing),
    0,
  )
}

async function countTerms(req: PayloadRequest, keys: string[]): Promise<Map<string, number>> {
  const ids = (kind: string) =>
    keys
      .filter((key) => key.startsWith(`${kind}:`))
      .map((key) => Number(key.slice(kind.length + 1)))
  const list = (values: number[]) =>
    sql.join(
      (values.length ? values : [0]).map((id) => sql`${id}`),
      sql`, `,
    )
  const asked = sql`(kind = 'category' and term in (${list(ids('category'))})) or (kind = 'tag' and term in (${list(ids('tag'))}))`
  // A write's own answer, made in its transaction, counts the write: its deltas reach the counts at commit.
  const rows = await requestQuery<Row>(
    req,
    sql`
    select kind, term as id, sum(count) as count from (
      select kind, term, count from calendar_term_count where ${asked}
      union all
      select kind, term, count from calendar_pending_term_count where tx = txid_current_if_assigned() and (${asked})) kept
     group by kind, term`,
  )
  return new Map(rows.map((row) => [`${row.kind}:${row.id}`, Number(row.count)]))
}

/** Ids of the categories or tags that at least one published event uses (`hide_empty`), once per content revision. */
export function termsInUse(scope: ReadScope, kind: 'category' | 'tag'): Promise<number[]> {
  return revisionCacheOf(scope.req.payload, 'revision').get(
    scope.revision,
    `terms-in-use:${kind}`,
    async () => {
      const rows = await requestQuery<{ id: number }>(
        scope.req,
        sql`select term as id from calendar_term_count where kind = ${kind} and count > 0`,
      )
      return rows.map((row) => Number(row.id))
    },
  )
}
