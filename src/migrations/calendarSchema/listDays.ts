import { addTo, forgetStaged, LIST_DAYS, type Timing } from './atCommit'
import { countingFunction, keptCounts, relinking, type Pairing } from './keptCounts'

/**
 * `calendar_list_days`: how many events a visitor's list shows per day of their start (UTC), for
 * every category, every tag and every category and tag together (0: any). An event counts when it
 * is published, not hidden from listings, and has a start and an end: what every anonymous list
 * asks, whatever else it filters on. A list's total then reads the days its window covers whole from
 * here, instead of counting every match (docs/performance.md, "Totals by day").
 *
 * Each trigger adds what the events it touched count now and takes away what they counted before,
 * whatever wrote them (admin, either REST API, imports, hand-written SQL). Like `calendar_term_count`,
 * their deltas reach the counts at commit, one commit at a time (`atCommit.ts`).
 */
export function listDays(timing: Timing, pairing: Pairing): string {
  const apply = (now: string, before: string) => addTo(timing, LIST_DAYS, difference(now, before))
  const links = relinking('calendar_list_days', (added, removed) => apply(...relinkedEvents(added, removed)))
  return keptCounts({
    setup: `
      create table if not exists calendar_list_days (
        category integer not null, tag integer not null, day date not null, n integer not null, primary key (category, tag, day));

      ${countingFunction('calendar_list_days_inserted', apply(contributions('new_events', CURRENT_LINKS('new_events')), NOTHING))}

      ${listDaysUpdated(timing, pairing)}

      -- Before the row goes: its links go by cascade afterwards, when the event can no longer be seen.
      ${countingFunction('calendar_list_days_deleted', apply(NOTHING, contributions('(select e.* from events e where e.id = old.id)', '(select r.* from events_rels r where r.parent_id = old.id)')), 'old')}

      ${links.functions}

      create or replace function calendar_list_days_rebuild() returns void language plpgsql as $f$
      begin
        perform 1 from calendar_revision where id = 1 for update;
        ${forgetStaged(timing, LIST_DAYS)}
        delete from calendar_list_days;
        insert into calendar_list_days (category, tag, day, n) ${difference(contributions('events', 'events_rels'), NOTHING)};
      end $f$;

      create or replace function calendar_list_days_emptied() returns trigger language plpgsql as $f$
      begin
        perform calendar_list_days_rebuild();
        return null;
      end $f$;`,
    triggers: [
      [
        'calendar_list_days_inserted',
        'events',
        'after insert on events referencing new table as new_events for each statement execute function calendar_list_days_inserted()',
      ],
      [
        'calendar_list_days_updated',
        'events',
        'after update on events referencing old table as old_events new table as new_events for each statement execute function calendar_list_days_updated()',
      ],
      ['calendar_list_days_deleted', 'events', `before delete on events for each row when (${LISTED('old')}) execute function calendar_list_days_deleted()`],
      ...links.triggers,
      ['calendar_list_days_emptied', 'events_rels', 'after truncate on events_rels for each statement execute function calendar_list_days_emptied()'],
      ['calendar_list_days_emptied', 'events', 'after truncate on events for each statement execute function calendar_list_days_emptied()'],
    ],
    rebuild: 'calendar_list_days_rebuild',
  })
}

/**
 * The trigger of an update of events: what the events count now, less what they counted before. The
 * links are the same before and after (an update of events changes none), so an event that neither
 * moved in or out of the counts nor to another day cancels out.
 */
export function listDaysUpdated(timing: Timing, pairing: Pairing): string {
  const [now, before] =
    pairing === 'summed'
      ? ['new_events', 'old_events']
      : [
          `(select a.* from new_events a join old_events b on b.id = a.id where ${MOVED})`,
          `(select b.* from old_events b join new_events a on a.id = b.id where ${MOVED})`,
        ]
  return `
      ${countingFunction('calendar_list_days_updated', addTo(timing, LIST_DAYS, difference(contributions(now, CURRENT_LINKS('new_events')), contributions(before, CURRENT_LINKS('new_events')))))}`
}

/** Whether the event row `alias` counts in visitors' lists. */
const LISTED = (alias: string) =>
  `${alias}.status = 'publish' and ${alias}.hide_from_listings is not true and ${alias}.start is not null and ${alias}."end" is not null`

/** An update moved the event in or out of the counts, or to another day. */
const MOVED = `(${LISTED('a')}, (a.start at time zone 'UTC')::date) is distinct from (${LISTED('b')}, (b.start at time zone 'UTC')::date)`

const NOTHING = '(select null::date as day, 0 as category, 0 as tag limit 0)'

/** The links of the events in a transition table, as they are now. */
const CURRENT_LINKS = (events: string) => `(select r.* from events_rels r where r.parent_id in (select id from ${events}))`

/**
 * What the listed events among `events` (rows of `events`) count, with the links `links` (rows of
 * `events_rels`): a row per day and (category or 0, tag or 0), each term once per event.
 */
function contributions(events: string, links: string): string {
  return `(with ev as (select e.id, (e.start at time zone 'UTC')::date as day from ${events} e where ${LISTED('e')}),
      l as (select * from ${links} l),
      c as (select distinct parent_id, event_categories_id as term from l where path = 'categories' and event_categories_id is not null),
      t as (select distinct parent_id, event_tags_id as term from l where path = 'tags' and event_tags_id is not null)
    select ev.day, 0 as category, 0 as tag from ev
    union all select ev.day, c.term, 0 from ev join c on c.parent_id = ev.id
    union all select ev.day, 0, t.term from ev join t on t.parent_id = ev.id
    union all select ev.day, c.term, t.term from ev join c on c.parent_id = ev.id join t on t.parent_id = ev.id)`
}

/** The rows of `now` less those of `before`, per day and terms. */
function difference(now: string, before: string): string {
  return `select category, tag, day, sum(delta)::int from (
        select day, category, tag, 1 as delta from ${now} a
        union all select day, category, tag, -1 from ${before} b) d
      group by 1, 2, 3
      having sum(delta) <> 0`
}

/**
 * A statement that added and removed links: the events whose terms it touched count with their links
 * now, and no longer with those before. Links to organizers count for nothing.
 */
function relinkedEvents(added: string, removed: string): [now: string, before: string] {
  const terms = `path in ('categories', 'tags')`
  const touched = `(select parent_id from ${added} a where ${terms} union select parent_id from ${removed} r where ${terms})`
  const events = `(select e.* from events e where e.id in ${touched})`
  return [
    contributions(events, `(select r.* from events_rels r where r.parent_id in ${touched})`),
    contributions(
      events,
      `(select r.* from events_rels r where r.parent_id in ${touched} and not exists (select 1 from ${added} n where n.id = r.id) union all select * from ${removed})`,
    ),
  ]
}
