import { addTo, forgetStaged, TERM_COUNT, type Timing } from './atCommit'
import { countingFunction, keptCounts, relinking, type KeptCounts, type Pairing } from './keptCounts'

/**
 * The term a row of `events_rels` links, and its kind; null for links that are not terms. Lookups
 * by event test it rather than `path`, which the planner would take to the `path` index.
 */
const TERM = `case r.path when 'categories' then r.event_categories_id when 'tags' then r.event_tags_id end`
const KIND = `case r.path when 'categories' then 'category' when 'tags' then 'tag' end`

/**
 * What a statement that added and removed links did to the counts. For each event and term touched,
 * the event counted before when it had links to the term that the statement did not add (those it
 * has now, minus added, plus removed), and counts now when it has any; only published events count.
 * So an event that names a term twice counts once, and an update in place is a removal plus an addition.
 */
function linkDelta(timing: Timing, added: string, removed: string): string {
  return addTo(
    timing,
    TERM_COUNT,
    `select t.kind, t.term, sum(sign(n.links) - sign(n.links - t.added + t.removed)) from (
          select c.parent_id, c.path, c.kind, c.term, sum(c.added) as added, sum(c.removed) as removed from (
            select r.parent_id, r.path, ${KIND} as kind, ${TERM} as term, 1 as added, 0 as removed from ${added} r where ${TERM} is not null
            union all
            select r.parent_id, r.path, ${KIND}, ${TERM}, 0, 1 from ${removed} r where ${TERM} is not null) c
          group by 1, 2, 3, 4) t
        cross join lateral (select count(*) filter (where r.path = t.path and ${TERM} = t.term) as links from events_rels r where r.parent_id = t.parent_id) n
        where exists (select 1 from events e where e.id = t.parent_id and e.status = 'publish')
        group by 1, 2
        having sum(sign(n.links) - sign(n.links - t.added + t.removed)) <> 0`,
  )
}

/**
 * An update of events whose published state changed: each term of those events gains or loses one.
 * `summed` pairs each event's rows before and after by one aggregate over both transition tables
 * (published 1, not 0, no status 2: as `is distinct from` compares `status = 'publish'`).
 */
const statusChanges = (pairing: Pairing) =>
  pairing === 'summed'
    ? `(select id, max(p) filter (where after) = 1 as published from (
          select id, coalesce((status = 'publish')::int, 2) as p, true as after from new_events
          union all select id, coalesce((status = 'publish')::int, 2), false from old_events) s
        group by id having max(p) filter (where after) <> max(p) filter (where not after))`
    : `(select a.id, a.status = 'publish' as published from new_events a join old_events b on b.id = a.id
         where (a.status = 'publish') is distinct from (b.status = 'publish'))`

/** The trigger of an update of events: the terms of the events published or unpublished by it. */
export function termCountStatus(timing: Timing, pairing: Pairing): string {
  return `
      ${countingFunction(
        'calendar_term_count_status',
        addTo(
          timing,
          TERM_COUNT,
          `select k.kind, k.term, sum(k.delta) from (
            select distinct a.id, ${KIND} as kind, ${TERM} as term, case when a.published then 1 else -1 end as delta
              from ${statusChanges(pairing)} a join events_rels r on r.parent_id = a.id
             where ${TERM} is not null) k
           group by 1, 2`,
        ),
      )}`
}

/** Published events per term, counted from scratch: when the triggers were missing. */
const RECOUNT = `
  select ${KIND}, ${TERM}, count(distinct r.parent_id)
    from events_rels r join events e on e.id = r.parent_id
   where e.status = 'publish' and ${TERM} is not null
   group by 1, 2`

const TRIGGERS: KeptCounts['triggers'] = [
  [
    'calendar_term_count_status',
    'events',
    'after update on events referencing old table as old_events new table as new_events for each statement execute function calendar_term_count_status()',
  ],
  [
    'calendar_term_count_deleted',
    'events',
    `before delete on events for each row when (old.status = 'publish') execute function calendar_term_count_deleted()`,
  ],
  ['calendar_term_count_emptied', 'events_rels', 'after truncate on events_rels for each statement execute function calendar_term_count_emptied()'],
  ['calendar_term_count_emptied', 'events', 'after truncate on events for each statement execute function calendar_term_count_emptied()'],
]

/**
 * `calendar_term_count`: published events per category and tag, kept by triggers on `events` and
 * `events_rels`, the way WordPress keeps a term's count. Counting at read time scanned every link of
 * a term: seconds at a million events, after every write. Triggers see every writer (admin,
 * Payload's REST, the namespace, hand-written SQL) and replicate to read replicas with the data.
 *
 * Their deltas reach the counts at commit (`atCommit.ts`), one commit at a time, so two writers
 * never update the same counts in opposite orders. An event linked twice to a term
 * counts once: a link counts when it is the first of its kind for that event, and uncounts when it
 * was the last.
 */
export function termCounts(timing: Timing, pairing: Pairing): string {
  const links = relinking('calendar_term_count', (added, removed) => linkDelta(timing, added, removed))
  return keptCounts({
    setup: `
      create table if not exists calendar_term_count (
        kind text not null, term integer not null, count integer not null, primary key (kind, term));

      ${links.functions}

      ${termCountStatus(timing, pairing)}

      -- Before the row goes: its links go by cascade afterwards, when the event can no longer be seen.
      ${countingFunction('calendar_term_count_deleted', addTo(timing, TERM_COUNT, `select distinct ${KIND}, ${TERM}, -1 from events_rels r where r.parent_id = old.id and ${TERM} is not null`), 'old')}

      create or replace function calendar_term_count_rebuild() returns void language plpgsql as $f$
      begin
        perform 1 from calendar_revision where id = 1 for update;
        ${forgetStaged(timing, TERM_COUNT)}
        delete from calendar_term_count;
        insert into calendar_term_count (kind, term, count) ${RECOUNT};
      end $f$;

      -- The revision's row first, as a commit takes it: emptied counts are then never taken in the other order.
      create or replace function calendar_term_count_emptied() returns trigger language plpgsql as $f$
      begin
        perform 1 from calendar_revision where id = 1 for update;
        ${forgetStaged(timing, TERM_COUNT)}
        delete from calendar_term_count;
        return null;
      end $f$;`,
    triggers: [...links.triggers, ...TRIGGERS],
    rebuild: 'calendar_term_count_rebuild',
  })
}
