import type pg from 'pg'
import { CONTENT_TABLES } from '../src/migrations/calendarSchema/revision'

const CONTENT = `^(${CONTENT_TABLES.join('|')})(_|$)`

/**
 * Counts the statements that write content, for the series' tests and benchmark: a statement trigger
 * of their own (`content_statements`) on every table of the content, whatever door wrote. The content
 * revision counted them while it moved once per statement; it moves once per transaction now.
 * Returns the count so far, and how to take the trigger away.
 */
export async function countContentStatements(
  db: pg.Client,
): Promise<{ count: () => Promise<number>; remove: () => Promise<void> }> {
  await db.query(`
    create sequence if not exists content_statements;
    create or replace function content_statements() returns trigger language plpgsql as $f$ begin perform nextval('content_statements'); return null; end $f$;
    do $do$ declare target text; begin
      for target in select t.tablename from pg_tables t where t.schemaname = current_schema() and t.tablename ~ '${CONTENT}' loop
        execute format('create or replace trigger content_statements before insert or update or delete on %I for each statement execute function content_statements()', target);
      end loop;
    end $do$;`)
  return {
    count: async () =>
      Number(
        (
          await db.query(
            `select last_value - (case when is_called then 0 else 1 end) as n from content_statements`,
          )
        ).rows[0].n,
      ),
    remove: async () => {
      await db.query(`
        do $do$ declare target text; begin
          for target in select g.tgrelid::regclass::text from pg_trigger g where g.tgname = 'content_statements' loop
            execute format('drop trigger content_statements on %s', target);
          end loop;
        end $do$;
        drop function content_statements(); drop sequence content_statements;`)
    },
  }
}
