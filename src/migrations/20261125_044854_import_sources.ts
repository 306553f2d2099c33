import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_import_subscriptions_format" AS ENUM('ical', 'site');
  CREATE TYPE "public"."enum_import_subscriptions_created_status" AS ENUM('publish', 'draft');
  CREATE TYPE "public"."enum_import_subscriptions_last_status" AS ENUM('running', 'done', 'failed');
  ALTER TYPE "public"."enum_imports_source" ADD VALUE 'site';
  ALTER TYPE "public"."enum_imports_source" ADD VALUE 'ical';
  ALTER TYPE "public"."enum_payload_jobs_log_task_slug" ADD VALUE 'refreshSubscriptions';
  ALTER TYPE "public"."enum_payload_jobs_task_slug" ADD VALUE 'refreshSubscriptions';
  CREATE TABLE "import_subscriptions_failures" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"item" varchar,
  	"reason" varchar
  );
  
  CREATE TABLE "import_subscriptions" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"url" varchar NOT NULL,
  	"format" "enum_import_subscriptions_format" DEFAULT 'ical' NOT NULL,
  	"credentials" varchar,
  	"interval_hours" numeric DEFAULT 24 NOT NULL,
  	"created_status" "enum_import_subscriptions_created_status" DEFAULT 'publish' NOT NULL,
  	"active" boolean DEFAULT true,
  	"last_status" "enum_import_subscriptions_last_status",
  	"last_run_at" timestamp(3) with time zone,
  	"created" numeric DEFAULT 0,
  	"updated" numeric DEFAULT 0,
  	"unchanged" numeric DEFAULT 0,
  	"trashed" numeric DEFAULT 0,
  	"failed" numeric DEFAULT 0,
  	"error" varchar,
  	"created_by_id" integer,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "import_subscriptions_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" integer NOT NULL,
  	"path" varchar NOT NULL,
  	"event_categories_id" integer
  );
  
  ALTER TABLE "imports" ADD COLUMN "source_url" varchar;
  ALTER TABLE "imports" ADD COLUMN "credentials" varchar;
  ALTER TABLE "imports" ADD COLUMN "trashed" numeric DEFAULT 0;
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "import_subscriptions_id" integer;
  ALTER TABLE "import_subscriptions_failures" ADD CONSTRAINT "import_subscriptions_failures_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."import_subscriptions"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "import_subscriptions" ADD CONSTRAINT "import_subscriptions_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "import_subscriptions_rels" ADD CONSTRAINT "import_subscriptions_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."import_subscriptions"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "import_subscriptions_rels" ADD CONSTRAINT "import_subscriptions_rels_event_categories_fk" FOREIGN KEY ("event_categories_id") REFERENCES "public"."event_categories"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "import_subscriptions_failures_order_idx" ON "import_subscriptions_failures" USING btree ("_order");
  CREATE INDEX "import_subscriptions_failures_parent_id_idx" ON "import_subscriptions_failures" USING btree ("_parent_id");
  CREATE INDEX "import_subscriptions_created_by_idx" ON "import_subscriptions" USING btree ("created_by_id");
  CREATE INDEX "import_subscriptions_updated_at_idx" ON "import_subscriptions" USING btree ("updated_at");
  CREATE INDEX "import_subscriptions_created_at_idx" ON "import_subscriptions" USING btree ("created_at");
  CREATE INDEX "import_subscriptions_rels_order_idx" ON "import_subscriptions_rels" USING btree ("order");
  CREATE INDEX "import_subscriptions_rels_parent_idx" ON "import_subscriptions_rels" USING btree ("parent_id");
  CREATE INDEX "import_subscriptions_rels_path_idx" ON "import_subscriptions_rels" USING btree ("path");
  CREATE INDEX "import_subscriptions_rels_event_categories_id_idx" ON "import_subscriptions_rels" USING btree ("event_categories_id");
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_import_subscriptions_fk" FOREIGN KEY ("import_subscriptions_id") REFERENCES "public"."import_subscriptions"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "payload_locked_documents_rels_import_subscriptions_id_idx" ON "payload_locked_documents_rels" USING btree ("import_subscriptions_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "import_subscriptions_failures" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "import_subscriptions" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "import_subscriptions_rels" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "import_subscriptions_failures" CASCADE;
  DROP TABLE "import_subscriptions" CASCADE;
  DROP TABLE "import_subscriptions_rels" CASCADE;
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT IF EXISTS "payload_locked_documents_rels_import_subscriptions_fk";
  
  ALTER TABLE "imports" ALTER COLUMN "source" SET DATA TYPE text;
  ALTER TABLE "imports" ALTER COLUMN "source" SET DEFAULT 'csv'::text;
  DROP TYPE "public"."enum_imports_source";
  CREATE TYPE "public"."enum_imports_source" AS ENUM('csv');
  ALTER TABLE "imports" ALTER COLUMN "source" SET DEFAULT 'csv'::"public"."enum_imports_source";
  ALTER TABLE "imports" ALTER COLUMN "source" SET DATA TYPE "public"."enum_imports_source" USING "source"::"public"."enum_imports_source";
  DELETE FROM "payload_jobs" WHERE "task_slug"::text NOT IN ('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled', 'deliverWebhooks', 'importCalendar');
  DELETE FROM "payload_jobs_log" WHERE "task_slug"::text NOT IN ('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled', 'deliverWebhooks', 'importCalendar');
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_log_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_log_task_slug" AS ENUM('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled', 'deliverWebhooks', 'importCalendar');
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_log_task_slug" USING "task_slug"::"public"."enum_payload_jobs_log_task_slug";
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_task_slug" AS ENUM('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled', 'deliverWebhooks', 'importCalendar');
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_task_slug" USING "task_slug"::"public"."enum_payload_jobs_task_slug";
  DROP INDEX "payload_locked_documents_rels_import_subscriptions_id_idx";
  ALTER TABLE "imports" DROP COLUMN "source_url";
  ALTER TABLE "imports" DROP COLUMN "credentials";
  ALTER TABLE "imports" DROP COLUMN "trashed";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "import_subscriptions_id";
  DROP TYPE "public"."enum_import_subscriptions_format";
  DROP TYPE "public"."enum_import_subscriptions_created_status";
  DROP TYPE "public"."enum_import_subscriptions_last_status";`)
}
