import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'
import { sql } from '@payloadcms/db-postgres'
import { CALENDAR_SCHEMA, CALENDAR_SCHEMA_PER_STATEMENT } from './calendarSchema'

/**
 * Content writes reach the revision, the change log and the kept counts once per transaction, at
 * its commit, instead of per statement with the revision's row held until commit: writers no longer
 * run one at a time (`calendarSchema/atCommit.ts`). Down: every statement applies its own again.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql.raw(CALENDAR_SCHEMA))
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql.raw(CALENDAR_SCHEMA_PER_STATEMENT))
}
