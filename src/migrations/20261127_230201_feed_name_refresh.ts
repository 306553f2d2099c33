import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "settings" ADD COLUMN "site_name" varchar;
  ALTER TABLE "settings" ADD COLUMN "ical_refresh_minutes" numeric DEFAULT 60;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "settings" DROP COLUMN "site_name";
  ALTER TABLE "settings" DROP COLUMN "ical_refresh_minutes";`)
}
