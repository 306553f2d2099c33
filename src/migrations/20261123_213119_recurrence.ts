import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "events" ADD COLUMN "recurrence" varchar;
  ALTER TABLE "events" ADD COLUMN "recurrence_exception" boolean DEFAULT false;
  ALTER TABLE "settings" ADD COLUMN "recurrence_horizon_months" numeric DEFAULT 24;
  ALTER TABLE "settings" ADD COLUMN "max_occurrences" numeric DEFAULT 730;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "events" DROP COLUMN "recurrence";
  ALTER TABLE "events" DROP COLUMN "recurrence_exception";
  ALTER TABLE "settings" DROP COLUMN "recurrence_horizon_months";
  ALTER TABLE "settings" DROP COLUMN "max_occurrences";`)
}
