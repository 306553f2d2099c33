import { block } from './block'

/**
 * When a content write reaches what is kept beside the content (the revision, the change log, the
 * kept counts). `at commit`: each statement's triggers stage what it changed under the transaction's
 * id, and one deferred trigger applies it all as the transaction commits, so a writer holds the
 * shared rows (the revision's, a day's or a term's count) only for the instant of its commit and
 * writers run side by side. `per statement`: each statement applies its own at once and holds those
 * rows until commit, so content writes ran one at a time; the schema before, which a `down` restores.
 */
export type Timing = 'at commit' | 'per statement'

/** A table of counts kept by adding deltas: the columns that name a count, and the count. */
type Kept = { table: string; key: string[]; value: string }

export const TERM_COUNT: Kept = { table: 'calendar_term_count', key: ['kind', 'term'], value: 'count' }
export const LIST_DAYS: Kept = { table: 'calendar_list_days', key: ['category', 'tag', 'day'], value: 'n' }

const pendingOf = (kept: Kept) => kept.table.replace(/^calendar_/, 'calendar_pending_')

const merge = (kept: Kept) =>
  `on conflict (${kept.key.join(', ')}) do update set ${kept.value} = ${kept.table}.${kept.value} + excluded.${kept.value}`

/** Adds the rows of `select` (the key's columns, then the delta) to `kept`: at once, or staged for the commit. */
export function addTo(timing: Timing, kept: Kept, select: string): string {
  const columns = [...kept.key, kept.value].join(', ')
  if (timing === 'at commit') return `insert into ${pendingOf(kept)} (tx, ${columns}) select txid_current(), d.* from (${select}) d;`
  return `insert into ${kept.table} (${columns}) ${select} ${merge(kept)};`
}

/** Forgets what this transaction staged for `kept`: for a recount, which sees the transaction's own writes. */
export function forgetStaged(timing: Timing, kept: Kept): string {
  return timing === 'at commit' ? `delete from ${pendingOf(kept)} where tx = txid_current_if_assigned();` : ''
}

const applyStaged = (kept: Kept) => {
  const key = kept.key.join(', ')
  return `with staged as (delete from ${pendingOf(kept)} where tx = new.tx returning ${key}, ${kept.value})
      insert into ${kept.table} (${key}, ${kept.value})
      select ${key}, sum(${kept.value}) from staged group by ${key} having sum(${kept.value}) <> 0
      ${merge(kept)};`
}

/**
 * The staging tables and the commit trigger. Unlogged: what they hold lives no longer than its
 * transaction (a crash aborts it, and empties them). A transaction's first content statement adds
 * its row to `calendar_pending_commits`, whose deferred trigger runs once, at commit. It takes the
 * revision's row first: commits apply one at a time (never in opposite orders, so never a deadlock),
 * and the change log's sequence numbers are drawn under it, so their order is commit order and a
 * reader of the feed never passes a change still to commit. Readers wait for nothing.
 */
export const AT_COMMIT = `
  create unlogged table if not exists calendar_pending_commits (tx bigint primary key);
  create unlogged table if not exists calendar_pending_changes (
    tx bigint not null, type text not null, item_id integer not null, published boolean not null, at timestamptz not null);
  create index if not exists calendar_pending_changes_tx on calendar_pending_changes (tx);
  create unlogged table if not exists calendar_pending_term_count (tx bigint not null, kind text not null, term integer not null, count integer not null);
  create index if not exists calendar_pending_term_count_tx on calendar_pending_term_count (tx);
  create unlogged table if not exists calendar_pending_list_days (
    tx bigint not null, category integer not null, tag integer not null, day date not null, n integer not null);
  create index if not exists calendar_pending_list_days_tx on calendar_pending_list_days (tx);
  create or replace function calendar_commit() returns trigger language plpgsql as $commit$
  begin
    update calendar_revision set value = value + 1 where id = 1;
    ${applyStaged(TERM_COUNT)}
    ${applyStaged(LIST_DAYS)}
    -- Each item once, in the order of its latest change in the transaction.
    with staged as (delete from calendar_pending_changes where tx = new.tx returning type, item_id, published, at),
      items as (select type, item_id, bool_or(published) as published, max(at) as at from staged group by type, item_id),
      logged as (
        insert into calendar_changes (type, item_id, seq, modified_utc)
        select type, item_id, nextval('calendar_changes_seq'), now() from (select type, item_id from items order by at, type, item_id) ordered
        on conflict (type, item_id) do update set seq = excluded.seq, modified_utc = excluded.modified_utc)
    insert into calendar_public_items (type, item_id) select type, item_id from items where published on conflict do nothing;
    delete from calendar_pending_commits where tx = new.tx;
    return null;
  end $commit$;
  ${block(
    `if not exists (select 1 from pg_trigger where tgname = 'calendar_commit' and tgrelid = 'calendar_pending_commits'::regclass) then
        create constraint trigger calendar_commit after insert on calendar_pending_commits
          deferrable initially deferred for each row execute function calendar_commit();
      end if;`,
  )}`

/** Takes the staging away again (the commit trigger goes with its table). */
export const WITHOUT_AT_COMMIT = `
  drop table if exists calendar_pending_commits, calendar_pending_changes, calendar_pending_term_count, calendar_pending_list_days;
  drop function if exists calendar_commit();`
