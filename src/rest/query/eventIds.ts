import { sql } from '@payloadcms/db-postgres'
import { rawQuery, type SQL } from '../../database/rawQuery'
import type { RestContext } from '../context'
import { EVENT_FIELDS } from './whereSql'

/**
 * The ids and totals of event lists whose filters `whereSql` states, by hand-written queries
 * (docs/performance.md, "Filtered lists").
 *
 * Payload's adapter asks a list filtered by a category or tag for its ids with `select distinct` over
 * a join of events and their relations, reads the same ids again, and counts in a third query; at
 * 100k events PostgreSQL would walk the start index probing every event's relations for a pair of
 * terms that share none (180 ms where counting them takes 30). Here a filter on a relation is a
 * semi-join; the first request for such a filter reads its matches once for both the page and the
 * total; once the total is known, a page past it costs nothing, and a page of few matches is read
 * from the matches rather than along the index.
 */

/** At most this many matches: the page is read from the matches, not along the start index. */
const FEW_MATCHES = 500

/** The order of a list, as a stated sort: the columns of `e` and their directions. */
export type EventOrder = { column: string; descending: boolean }[]

/** `sort` (Payload's form, `-` for descending) as columns of events; undefined for a field not stated. */
export function eventOrder(sort: string[]): EventOrder | undefined {
  const order: EventOrder = []
  for (const field of sort) {
    const descending = field.startsWith('-')
    const column = EVENT_FIELDS.columns[descending ? field.slice(1) : field]
    if (!column) return undefined
    order.push({ column, descending })
  }
  return order.length ? order : undefined
}

/** The matches' ids with their sort keys as `o0`, `o1`… */
const matches = (condition: SQL, order: EventOrder) =>
  sql`select e.id, ${sql.raw(order.map(({ column }, index) => `e."${column}" as o${index}`).join(', '))} from events e where ${condition}`

const sortKeys = (order: EventOrder, alias: string) =>
  sql.raw(order.map(({ column, descending }, index) => `${alias ? `${alias}."${column}"` : `o${index}`} ${descending ? 'desc' : 'asc'}`).join(', '))

const window = (page: number, perPage: number) => sql`limit ${perPage} offset ${(page - 1) * perPage}`

/** Page `page` (from 1) of `perPage` events matching `condition` on the row `e`, in `order`, along the order's index. */
export async function eventIds(ctx: RestContext, condition: SQL, order: EventOrder, page: number, perPage: number): Promise<number[]> {
  const rows = await rawQuery<{ id: number }>(
    ctx.req.payload,
    sql`select e.id from events e where ${condition} order by ${sortKeys(order, 'e')} ${window(page, perPage)}`,
  )
  return rows.map((row) => Number(row.id))
}

/**
 * `eventIds` and how many events match: `total` when already known, else counted by the same
 * query, which reads the matches once for both.
 */
export async function eventIdsAndTotal(
  ctx: RestContext,
  condition: SQL,
  order: EventOrder,
  page: number,
  perPage: number,
  total?: number,
): Promise<{ ids: number[]; total: number }> {
  const payload = ctx.req.payload
  if (total === undefined) {
    const [row] = await rawQuery<{ total: number; ids: number[] }>(
      payload,
      sql`with m as materialized (${matches(condition, order)})
          select (select count(*)::int from m) as total, array(select id from m order by ${sortKeys(order, '')} ${window(page, perPage)}) as ids`,
    )
    return { ids: row!.ids.map(Number), total: Number(row!.total) }
  }
  if ((page - 1) * perPage >= total) return { ids: [], total }
  if (total > FEW_MATCHES) return { ids: await eventIds(ctx, condition, order, page, perPage), total }
  // `offset 0` keeps PostgreSQL from folding the matches back into a walk along the index.
  const rows = await rawQuery<{ id: number }>(
    payload,
    sql`select id from (${matches(condition, order)} offset 0) m order by ${sortKeys(order, '')} ${window(page, perPage)}`,
  )
  return { ids: rows.map((row) => Number(row.id)), total }
}

/** How many events match `condition` on the row `e`. */
export async function eventTotal(ctx: RestContext, condition: SQL): Promise<number> {
  const [row] = await rawQuery<{ total: number }>(ctx.req.payload, sql`select count(*)::int as total from events e where ${condition}`)
  return Number(row!.total)
}
