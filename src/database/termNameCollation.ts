import type { Payload } from 'payload'
import { installBlock } from './installBlock'

/**
 * Term names sort as readers expect in every language (`Apple`, `banana`, `Cherry`), not by byte
 * (`Apple`, `Cherry`, `banana` under the cluster's C collation): their columns take ICU's root
 * collation, so Payload's `sort: 'name'`, the event page's term order and the name index all follow
 * it. Payload's schema has no collations, so this is installed at start, as the term counts are: it
 * holds in any app that uses the plugin, comes back if a later migration redefines the column, and
 * is skipped on a PostgreSQL built without ICU (names then sort by the cluster's collation).
 */
export async function installTermNameCollation(payload: Payload): Promise<void> {
  await installBlock(
    payload,
    'calendar_term_name_collation',
    `if not exists (select 1 from pg_collation where collname = 'und-x-icu') then return; end if;
      foreach locales in array array['event_categories_locales', 'event_tags_locales'] loop
        if exists (select 1 from pg_attribute a join pg_collation c on c.oid = a.attcollation
                    where a.attrelid = to_regclass(locales) and a.attname = 'name' and c.collname <> 'und-x-icu') then
          execute format('alter table %I alter column name type varchar collate "und-x-icu"', locales);
        end if;
      end loop;`,
    'locales text;',
  )
}
