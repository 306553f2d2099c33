import { block } from './block'

const TABLES = "array['event_categories_locales', 'event_tags_locales']"

/**
 * Term names sort as readers expect in every language (`Apple`, `banana`, `Cherry`), not by byte
 * (`Apple`, `Cherry`, `banana` under the cluster's C collation): their columns take ICU's root
 * collation, so Payload's `sort: 'name'`, the event page's term order and the name index all follow
 * it. Payload's schema has no collations, so a later migration that redefines the column must apply
 * it again. Skipped on a PostgreSQL built without ICU and in a database not in UTF-8 (in SQL_ASCII
 * ICU cannot work at all); names then sort by the database's collation.
 */
export const TERM_NAME_COLLATION = block(
  `if current_setting('server_encoding') <> 'UTF8' or not exists (select 1 from pg_collation where collname = 'und-x-icu') then return; end if;
    foreach locales in array ${TABLES} loop
      if exists (select 1 from pg_attribute a join pg_collation c on c.oid = a.attcollation
                  where a.attrelid = to_regclass(locales) and a.attname = 'name' and c.collname <> 'und-x-icu') then
        execute format('alter table %I alter column name type varchar collate "und-x-icu"', locales);
      end if;
    end loop;`,
  'locales text;',
)

/** The database's default collation again. */
export const DEFAULT_NAME_COLLATION = block(
  `foreach locales in array ${TABLES} loop
      execute format('alter table %I alter column name type varchar collate "default"', locales);
    end loop;`,
  'locales text;',
)
