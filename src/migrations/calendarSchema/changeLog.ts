import { RESOURCES } from '../../calendar/resources'
import type { Timing } from './atCommit'
import { block } from './block'

/** The change log's tables: each resource's collection, reported by its singular (docs/api.md §18). */
const SOURCES = RESOURCES.map((resource) => ({ table: resource.collection.replace(/-/g, '_'), type: resource.singular }))

/**
 * The change log behind `/changes` (docs/api.md §18): statement triggers on every table of a
 * content item (its row, translations, links, values) record the item's id with a new sequence
 * number, so every door counts: the admin, Payload's APIs, the namespace, imports, hand-written SQL.
 * At commit, a statement stages the items it touched (one set-based insert from its transition
 * table, the item's column named, no row made into JSON), and the commit gives each item its number
 * under the revision's row (`atCommit.ts`); per statement, the revision's row serialized content
 * writes. Either way sequence order is commit order and a reader never passes a change still to
 * commit. The same record keeps which items were ever published (`calendar_public_items`, never
 * forgotten: a deletion of such an item is news to every mirror, however late).
 */
export function changeLog(timing: Timing): string {
  const families = SOURCES.map(({ table, type }) => `('${table}', '${type}')`).join(', ')
  return block(
    `
      create sequence if not exists calendar_changes_seq;
      create table if not exists calendar_changes (
        type text not null,
        item_id integer not null,
        seq bigint not null,
        modified_utc timestamptz not null,
        primary key (type, item_id)
      );
      create index if not exists calendar_changes_by_seq on calendar_changes (seq);
      -- Items that were public (published) at some time: only those are news to every reader.
      if to_regclass('calendar_public_items') is null then
        create table calendar_public_items (
          type text not null,
          item_id integer not null,
          primary key (type, item_id)
        );
        -- Those published before this record existed: published now, or in a kept version.
        for target in
          select f.base, f.type from (values ${families}) as f(base, type)
           where exists (select 1 from information_schema.columns c
                          where c.table_schema = current_schema() and c.table_name = f.base and c.column_name = 'status')
        loop
          execute format('insert into calendar_public_items select %L, id from %I where status = ''publish'' on conflict do nothing', target.type, target.base);
          if to_regclass(format('%I', '_' || target.base || '_v')) is not null then
            execute format('insert into calendar_public_items select distinct %L, parent_id from %I where version_status = ''publish'' and parent_id is not null on conflict do nothing',
              target.type, '_' || target.base || '_v');
          end if;
        end loop;
      end if;
${timing === 'at commit' ? STAGE_CHANGES : RECORD_CHANGES}
      for target in
        select t.tablename, f.base, f.type from pg_tables t
          join (values ${families}) as f(base, type) on t.tablename = f.base or t.tablename like f.base || '\\_%'
         where t.schemaname = current_schema()
      loop
        -- An item's own row names it by id; its translations, links and values by the column that points at it.
        select case when target.tablename = target.base then 'id' else c.column_name end into item_column
          from information_schema.columns c
         where c.table_schema = current_schema() and c.table_name = target.tablename
           and ((target.tablename = target.base and c.column_name = 'id') or (target.tablename <> target.base and c.column_name in ('_parent_id', 'parent_id')))
           and c.data_type = 'integer'
         limit 1;
        continue when item_column is null;
        if not exists (select 1 from pg_trigger g where g.tgname = 'calendar_changes_insert' and g.tgrelid = format('%I.%I', current_schema(), target.tablename)::regclass) then
          execute format('create trigger calendar_changes_insert after insert on %I referencing new table as new_rows for each statement execute function calendar_record_changes(%L, %L)', target.tablename, target.type, item_column);
          execute format('create trigger calendar_changes_update after update on %I referencing new table as new_rows for each statement execute function calendar_record_changes(%L, %L)', target.tablename, target.type, item_column);
          execute format('create trigger calendar_changes_delete after delete on %I referencing old table as old_rows for each statement execute function calendar_record_changes(%L, %L)', target.tablename, target.type, item_column);
        end if;
      end loop;`,
    `
      target record;
      item_column text;`,
  )
}

/** Per statement: the items a statement touched, each with a new number at once. */
const RECORD_CHANGES = `
      create or replace function calendar_record_changes() returns trigger language plpgsql as $record$
      begin
        if TG_OP = 'DELETE' then
          insert into calendar_changes (type, item_id, seq, modified_utc)
            select TG_ARGV[0], item, nextval('calendar_changes_seq'), now()
              from (select distinct (to_jsonb(r) ->> TG_ARGV[1])::integer as item from old_rows r) items where item is not null
            on conflict (type, item_id) do update set seq = excluded.seq, modified_utc = excluded.modified_utc;
        else
          insert into calendar_changes (type, item_id, seq, modified_utc)
            select TG_ARGV[0], item, nextval('calendar_changes_seq'), now()
              from (select distinct (to_jsonb(r) ->> TG_ARGV[1])::integer as item from new_rows r) items where item is not null
            on conflict (type, item_id) do update set seq = excluded.seq, modified_utc = excluded.modified_utc;
          if TG_ARGV[1] = 'id' then
            insert into calendar_public_items (type, item_id)
              select TG_ARGV[0], (to_jsonb(r) ->> 'id')::integer from new_rows r where to_jsonb(r) ->> 'status' = 'publish'
              on conflict do nothing;
          end if;
        end if;
        return null;
      end $record$;
`

/**
 * At commit: the items a statement touched, staged for the commit. The column that names the item is
 * the trigger's second argument; whether it was published is read where the row has a status.
 */
const STAGE_CHANGES = `
      create or replace function calendar_record_changes() returns trigger language plpgsql as $record$
      declare
        published text := 'false';
      begin
        if TG_OP <> 'DELETE' and TG_ARGV[1] = 'id'
           and exists (select 1 from pg_attribute where attrelid = TG_RELID and attname = 'status' and not attisdropped) then
          published := 'bool_or(status::text = ''publish'')';
        end if;
        execute format('insert into calendar_pending_changes (tx, type, item_id, published, at)
                          select txid_current(), $1, %1$I, %2$s, $2 from %3$I where %1$I is not null group by %1$I',
                       TG_ARGV[1], published, case when TG_OP = 'DELETE' then 'old_rows' else 'new_rows' end)
          using TG_ARGV[0], clock_timestamp();
        return null;
      end $record$;
`
