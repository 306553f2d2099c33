import { MigrateDownArgs, MigrateUpArgs, sql } from '@payloadcms/db-postgres'
import type { SerializedEditorState } from '@payloadcms/richtext-lexical/lexical'
import { renderDescriptionHtml } from '../collections/fields/descriptionHtml'

const TABLES = ['events_locales', 'venues_locales', 'organizers_locales'] as const
const BATCH = 500

type Row = { id: number; description: SerializedEditorState | null; description_html: string | null }

/**
 * Descriptions are rendered to HTML once, at save time; this renders the stored ones again with the
 * clean markup (no editor classes, a line between blocks), so that old and new records read alike.
 * Only rows whose HTML changes are written, in batches, so a large calendar is not held in memory.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  for (const table of TABLES) {
    let after = 0
    for (;;) {
      const { rows } = (await db.execute(sql`
        select id, description, description_html from ${sql.identifier(table)}
        where id > ${after} and description is not null order by id limit ${BATCH}`)) as unknown as { rows: Row[] }
      if (rows.length === 0) break
      after = rows.at(-1)!.id
      for (const row of rows) {
        const html = renderDescriptionHtml(row.description)
        if (html !== row.description_html) await db.execute(sql`update ${sql.identifier(table)} set description_html = ${html} where id = ${row.id}`)
      }
    }
  }
}

/** The previous rendering is not worth restoring: it differs only in markup, and the next save renders anew. */
export async function down(_: MigrateDownArgs): Promise<void> {}
