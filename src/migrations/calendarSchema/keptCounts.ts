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

/**
 * A table of counts that triggers keep as content is written (`calendar_term_count`,
 * `calendar_list_days`): its table and functions, its triggers, and the function that counts it
 * again from scratch.
 */
export type KeptCounts = {
  /** Its table and trigger functions (`if not exists`, `or replace`). */
  setup: string
  triggers: [name: string, table: string, definition: string][]
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
