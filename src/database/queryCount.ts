import { booleanSetting } from '../calendar/settings'
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Payload } from 'payload'

const current = new AsyncLocalStorage<{ queries: number }>()

/** Whether responses report their database queries in `X-Query-Count` (tests and benchmarks). */
export const queryCountEnabled = booleanSetting('QUERY_COUNT_HEADER')

type Queryable = { query: (...args: unknown[]) => unknown }

/** Counts every query sent through the adapter's pool while a request runs inside `countQueries`. */
export function instrumentPool(payload: Payload): void {
  const pool = (payload.db as unknown as { pool?: Queryable }).pool
  if (!pool || !queryCountEnabled) return
  const query = pool.query.bind(pool)
  pool.query = (...args: unknown[]) => {
    const store = current.getStore()
    if (store) store.queries++
    return query(...args)
  }
}

export async function countQueries<T>(
  work: () => Promise<T>,
): Promise<{ result: T; queries: number }> {
  const store = { queries: 0 }
  const result = await current.run(store, work)
  return { result, queries: store.queries }
}
