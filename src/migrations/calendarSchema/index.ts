import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'
import { sql } from '@payloadcms/db-postgres'
import { AT_COMMIT, WITHOUT_AT_COMMIT, type Timing } from './atCommit'
import { block } from './block'
import { changeLog } from './changeLog'
import { LIST_INDEXES } from './listIndexes'
import type { Pairing } from './keptCounts'
import { listDays } from './listDays'
import { RECORDS } from './records'
import { revision } from './revision'
import { PARALLEL_PLANS, SERIAL_PLANS } from './serialPlans'
import { termCounts } from './termCounts'
import { DEFAULT_NAME_COLLATION, TERM_NAME_COLLATION } from './termNameCollation'

/** Instances that apply it at once (a schema push each, or one migration run each) take turns. */
const ONE_AT_A_TIME = `select pg_advisory_xact_lock(hashtext('calendar_schema'));`

/** The schema whose content writes reach the revision, the change log and the counts at `timing` (`atCommit.ts`), its triggers comparing an update's rows by `pairing` (`keptCounts.ts`). */
function schemaApplying(timing: Timing, pairing: Pairing): string {
  return [
    ONE_AT_A_TIME,
    timing === 'at commit' ? AT_COMMIT : WITHOUT_AT_COMMIT,
    revision(timing),
    changeLog(timing),
    RECORDS,
    termCounts(timing, pairing),
    listDays(timing, pairing),
    LIST_INDEXES,
    TERM_NAME_COLLATION,
    SERIAL_PLANS,
  ].join('\n')
}

/**
 * The calendar's own schema beside Payload's: the tables, functions, triggers, indexes and settings
 * its collections do not describe. Every statement can run again on a database that has it (`if not
 * exists`, `or replace`, triggers made where missing), so it upgrades a database that the releases
 * before this one made at start, and comes back after a schema push.
 */
export const CALENDAR_SCHEMA = schemaApplying('at commit', 'summed')

/** The schema as it was before writes reached the revision at commit: each statement applied its own. */
export const CALENDAR_SCHEMA_PER_STATEMENT = schemaApplying('per statement', 'joined')

/**
 * Takes away what is derived from the content (triggers, functions, the kept counts, indexes, the
 * collation, the planner setting) and keeps the records that are not: the revision, the change log
 * and the items ever published, idempotency keys, import mappings, sign-in failures, rate buckets.
 * The releases before this one make the same tables at start when missing and read them, so going
 * back loses neither the change feed's history nor which local item each imported one became.
 */
export const CALENDAR_SCHEMA_DOWN = [
  ONE_AT_A_TIME,
  block(
    `for target in
        select g.tgname as name, g.tgrelid::regclass::text as relation from pg_trigger g join pg_class c on c.oid = g.tgrelid
         where c.relnamespace = current_schema()::regnamespace and not g.tgisinternal and g.tgname like 'calendar\\_%'
      loop
        execute format('drop trigger %I on %s', target.name, target.relation);
      end loop;
      for target in
        select p.oid::regprocedure::text as name from pg_proc p
         where p.pronamespace = current_schema()::regnamespace and p.proname like 'calendar\\_%'
      loop
        execute format('drop function %s', target.name);
      end loop;`,
    'target record;',
  ),
  'drop table if exists calendar_term_count, calendar_list_days;',
  WITHOUT_AT_COMMIT,
  'drop index if exists calendar_rels_category_event, calendar_rels_tag_event, calendar_events_duration;',
  DEFAULT_NAME_COLLATION,
  PARALLEL_PLANS,
].join('\n')

/**
 * The schema as a Payload migration, for an app that adds the plugin to its own config and
 * migrates: one migration of the app's, after those that make the calendar's collections, exports it.
 */
export const calendarSchema = {
  up: async ({ db }: MigrateUpArgs) => {
    await db.execute(sql.raw(CALENDAR_SCHEMA))
  },
  down: async ({ db }: MigrateDownArgs) => {
    await db.execute(sql.raw(CALENDAR_SCHEMA_DOWN))
  },
}
