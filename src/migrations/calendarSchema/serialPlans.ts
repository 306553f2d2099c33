import { block } from './block'

/**
 * The calendar's database plans without parallel workers (`max_parallel_workers_per_gather = 0`
 * for the database, so it holds through a pooler and on replicas). Its queries are many, short and
 * concurrent, and ordered pages end early: under a parallel plan each worker read on through the
 * whole window while the page waited for ten rows, 90–100 ms where one process took 3
 * (docs/performance.md, "Totals by day"). A role's own setting (`alter role … set`) still wins.
 * Skipped, with a notice in PostgreSQL's log, where the app's role may not alter its database.
 */
export const SERIAL_PLANS = serialPlans('set max_parallel_workers_per_gather = 0')

/** Parallel plans as PostgreSQL's default has them again. */
export const PARALLEL_PLANS = serialPlans('reset max_parallel_workers_per_gather')

function serialPlans(setting: string): string {
  return block(
    `execute format('alter database %I ${setting}', current_database());
    exception when insufficient_privilege then
      raise notice 'calendar: could not ${setting} for database %', current_database();`,
  )
}
