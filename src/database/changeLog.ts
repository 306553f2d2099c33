import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { rawQuery } from './rawQuery'

/** A content table family (`events`, `events_locales`, `events_rels`...) and the type its rows are reported as. */
export type ChangeSource = { table: string; type: string }

/** One item's latest change: the feed keeps one row per item, moved to the end of the log by each write. */
export type ChangeRow = { seq: string; type: string; item_id: number; modified_utc: string }

/**
 * The change log behind `/changes` (docs/api.md §18): statement triggers on every table of a
 * content item (its row, translations, links, values) record the item's id with a new sequence
 * number, so every door counts: the admin, Payload's APIs, the namespace, imports, hand-written SQL.
 * The revision trigger already serializes content writes, so sequence order is commit order and a
 * reader never passes a change still to commit. The same trigger keeps which items were ever
 * published (`calendar_public_items`, never forgotten: a deletion of such an item is news to every
 * mirror, however late). Installed at start like the revision, idempotently and under an advisory lock.
 */
export async function installChangeLog(payload: Payload, sources: ChangeSource[]): Promise<void> {
  const families = sources.map(({ table, type }) => `('${table}', '${type}')`).join(', ')
  await rawQuery(
    payload,
    sql.raw(`
    do $install$
    declare
      target record;
      item_column text;
    begin
      perform pg_advisory_xact_lock(hashtext('calendar_changes'));
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
      end loop;
    end $install$`),
  )
}

/** The log's last sequence number: `since=now`. */
export async function lastChange(payload: Payload): Promise<string> {
  const rows = await rawQuery<{ seq: string | null }>(payload, sql`select max(seq)::text as seq from calendar_changes`)
  return rows[0]?.seq ?? '0'
}

/** Up to `limit` items changed after `after`, in the order of their latest change; only of `types` when given. */
export async function changesAfter(payload: Payload, after: string, limit: number, types?: string[]): Promise<ChangeRow[]> {
  const ofTypes = types?.length
    ? sql`and c.type in (${sql.join(
        types.map((type) => sql`${type}`),
        sql`, `,
      )})`
    : sql``
  return rawQuery<ChangeRow>(
    payload,
    sql`select c.seq::text as seq, c.type, c.item_id, to_char(c.modified_utc at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as modified_utc
          from calendar_changes c where c.seq > ${after}::bigint ${ofTypes} order by c.seq limit ${limit}`,
  )
}

/** Which of `rows` name an item that was public at some time (`type:id`). */
export async function everPublic(payload: Payload, rows: ChangeRow[]): Promise<Set<string>> {
  if (!rows.length) return new Set()
  const found = await rawQuery<{ type: string; item_id: number }>(
    payload,
    sql`select p.type, p.item_id from calendar_public_items p
          join unnest(${`{${rows.map((row) => `"${row.type}"`).join(',')}}`}::text[], ${`{${rows.map((row) => row.item_id).join(',')}}`}::int[]) as k(type, item_id)
            on p.type = k.type and p.item_id = k.item_id`,
  )
  return new Set(found.map((row) => `${row.type}:${row.item_id}`))
}

/** Forgets changes older than the retention; the feed answers cursors that old with a 410. */
export async function pruneChanges(payload: Payload, retentionDays: number): Promise<number> {
  const rows = await rawQuery<{ pruned: number }>(
    payload,
    sql`with gone as (delete from calendar_changes where modified_utc < now() - make_interval(days => ${retentionDays}) returning 1)
        select count(*)::integer as pruned from gone`,
  )
  return rows[0]?.pruned ?? 0
}
