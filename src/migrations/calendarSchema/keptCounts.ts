import { block } from './block'

/**
 * For the trigger functions, which look up the links of the events a statement touched by
 * `parent_id` alone (the rest is a filter, not an index condition). During a bulk load the
 * statistics still describe the tables empty, and the planner combined the `path` index (every link
 * of that kind) with the parent's, or scanned the table, once per touched event: a 100k-event load
 * went from 21 s to 17 minutes.
 */
export const BY_INDEX = 'set enable_seqscan = off'

/**
 * How the triggers of an update of events compare each event's row before and after. `summed`: what
 * the rows count after, less what they counted before, with no pairing of the two (an event that did
 * not change cancels out), or paired by one aggregate over both; `joined`: the two transition tables
 * joined on the id, which PostgreSQL, having no statistics for them, planned as a nested loop over
 * both: a series' update of 729 occurrences compared 531,441 pairs (1.2 s), the schema before.
 */
export type Pairing = 'summed' | 'joined'

/** No rows of `events_rels`: the links a statement did not add, or did not remove. */
export const NO_LINKS = '(select * from events_rels limit 0)'

type Trigger = [name: string, table: string, definition: string]

/**
 * A trigger function of kept counts, the planner held to the indexes (`BY_INDEX`): `body`, then
 * `return returns` (`old` before a delete, which would otherwise not happen).
 */
export function countingFunction(name: string, body: string, returns = 'null'): string {
  return `create or replace function ${name}() returns trigger language plpgsql ${BY_INDEX} as $f$
      begin
        ${body}
        return ${returns};
      end $f$;`
}

/**
 * The statement triggers of `events_rels` for the kept counts `prefix`, and their functions: links
 * added, removed, or both by an update, each counting `delta(added, removed)` of the statement's
 * transition tables (`NO_LINKS` for the one it has not).
 */
export function relinking(
  prefix: string,
  delta: (added: string, removed: string) => string,
): { functions: string; triggers: Trigger[] } {
  const kinds: [kind: string, event: string, tables: string, body: string][] = [
    ['added', 'insert', 'new table as added', delta('added', NO_LINKS)],
    ['removed', 'delete', 'old table as removed', delta(NO_LINKS, 'removed')],
    ['relinked', 'update', 'old table as removed new table as added', delta('added', 'removed')],
  ]
  return {
    functions: kinds
      .map(([kind, , , body]) => countingFunction(`${prefix}_${kind}`, body))
      .join('\n\n      '),
    triggers: kinds.map(([kind, event, tables]) => [
      `${prefix}_${kind}`,
      'events_rels',
      `after ${event} on events_rels referencing ${tables} for each statement execute function ${prefix}_${kind}()`,
    ]),
  }
}

/**
 * A table of counts that triggers keep as content is written (`calendar_term_count`,
 * `calendar_list_days`): its table and functions, its triggers, and the function that counts it
 * again from scratch.
 */
export type KeptCounts = {
  /** Its table and trigger functions (`if not exists`, `or replace`). */
  setup: string
  triggers: Trigger[]
  /** A function without arguments that counts the table again from the content. */
  rebuild: string
}

/**
 * Kept counts' schema. When any of their triggers is missing (a new database, a table recreated by a
 * schema push) the triggers are made again and the counts rebuilt, holding the commits of content
 * writes meanwhile: they take the revision row first (`calendar_revision`), as each commit does
 * (`atCommit.ts`), so the recount and the triggers start from the same state. A database whose triggers are all there keeps its counts.
 */
export function keptCounts(counts: KeptCounts): string {
  const missing = counts.triggers.map(([name, table]) => `(${quote(name)}, ${quote(table)})`).join(', ')
  return block(
    `${counts.setup}
      if exists (select 1 from (values ${missing}) t(name, target)
                  where not exists (select 1 from pg_trigger g where g.tgname = t.name and g.tgrelid = t.target::regclass)) then
        perform 1 from calendar_revision where id = 1 for update;
${counts.triggers.map(([name, table]) => `        drop trigger if exists ${name} on ${table};`).join('\n')}
${counts.triggers.map(([name, , definition]) => `        create trigger ${name} ${definition};`).join('\n')}
        perform ${counts.rebuild}();
      end if;`,
  )
}

function quote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`
}
