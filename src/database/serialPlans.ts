import type { Payload } from 'payload'
import { installBlock } from './installBlock'

/**
 * The calendar's database plans without parallel workers (`max_parallel_workers_per_gather = 0`
 * for the database, so it holds through a pooler and on replicas). Its queries are many, short and
 * concurrent, and ordered pages end early: under a parallel plan each worker read on through the
 * whole window while the page waited for ten rows, 90–100 ms where one process took 3
 * (docs/performance.md, "Totals by day"). A role's own setting (`alter role … set`) still wins.
 * Installed at start; skipped, with a notice in PostgreSQL's log, where the app's role may not alter
 * its database.
 */
export async function installSerialPlans(payload: Payload): Promise<void> {
  await installBlock(
    payload,
    'calendar_serial_plans',
    `if exists (select 1 from pg_db_role_setting s join pg_database d on d.oid = s.setdatabase
                  where d.datname = current_database() and s.setrole = 0 and 'max_parallel_workers_per_gather=0' = any(s.setconfig)) then
        return;
      end if;
      execute format('alter database %I set max_parallel_workers_per_gather = 0', current_database());
    exception when insufficient_privilege then
      raise notice 'calendar: could not turn off parallel plans for database %', current_database();`,
  )
}
