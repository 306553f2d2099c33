import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "imports" ADD COLUMN "include_trashed" boolean DEFAULT false;
  ALTER TABLE "imports" ADD COLUMN "notes" varchar;`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "imports" DROP COLUMN "include_trashed";
  ALTER TABLE "imports" DROP COLUMN "notes";`)
}
