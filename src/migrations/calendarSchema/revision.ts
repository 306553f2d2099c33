import { REVISION_CHANNEL } from '../../database/revisionListener'
import type { Timing } from './atCommit'
import { block } from './block'

/** Tables whose rows the calendar serves: the collections' and the settings global's, with their `_locales`, `_rels`... */
export const CONTENT_TABLES = ['events', 'venues', 'organizers', 'event_categories', 'event_tags', 'media', 'settings']

/**
 * The content revision (`src/database/revision.ts`): a counter that every write to the content
 * moves, by statement triggers on every table of the content, so the admin, Payload's REST, the
 * namespace and hand-written SQL all count. At commit (`atCommit.ts`), the trigger marks the
 * transaction, and its commit moves the counter once, holding its row only while it commits; per
 * statement, each statement moved it and held its row until commit, so content writes ran one at a
 * time. Readers never wait. Every change of the counter is notified on its channel at commit, with
 * the new value; a manual `update calendar_revision` notifies too.
 */
export function revision(timing: Timing): string {
  const bump =
    timing === 'at commit'
      ? 'insert into calendar_pending_commits values (txid_current()) on conflict do nothing;'
      : 'update calendar_revision set value = value + 1 where id = 1;'
  const prefixes = CONTENT_TABLES.map((table) => `'${table}'`).join(', ')
  return `
    create table if not exists calendar_revision (id integer primary key check (id = 1), value bigint not null);
    insert into calendar_revision values (1, 0) on conflict do nothing;
    create or replace function calendar_bump_revision() returns trigger language plpgsql as $bump$
    begin
      ${bump}
      return null;
    end $bump$;
    create or replace function calendar_notify_revision() returns trigger language plpgsql as $notify$
    begin
      perform pg_notify('${REVISION_CHANNEL}', new.value::text);
      return null;
    end $notify$;
    ${block(
      `if not exists (select 1 from pg_trigger where tgname = 'calendar_revision_notify' and tgrelid = 'calendar_revision'::regclass) then
        create trigger calendar_revision_notify after update on calendar_revision for each row execute function calendar_notify_revision();
      end if;
      for target in
        select t.tablename from pg_tables t
         where t.schemaname = current_schema()
           and exists (select 1 from unnest(array[${prefixes}]) p where t.tablename = p or t.tablename like p || '\\_%')
           and not exists (select 1 from pg_trigger g where g.tgname = 'calendar_revision' and g.tgrelid = format('%I.%I', t.schemaname, t.tablename)::regclass)
      loop
        execute format('create trigger calendar_revision before insert or update or delete or truncate on %I for each statement execute function calendar_bump_revision()', target);
      end loop;`,
      'target text;',
    )}`
}
