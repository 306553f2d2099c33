import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum_imports_source" AS ENUM('csv');
  CREATE TYPE "public"."enum_imports_kind" AS ENUM('events', 'venues', 'organizers');
  CREATE TYPE "public"."enum_imports_created_status" AS ENUM('publish', 'draft');
  CREATE TYPE "public"."enum_imports_status" AS ENUM('queued', 'running', 'done', 'failed');
  ALTER TYPE "public"."enum_payload_jobs_log_task_slug" ADD VALUE 'importCalendar';
  ALTER TYPE "public"."enum_payload_jobs_task_slug" ADD VALUE 'importCalendar';
  CREATE TABLE "imports_failures" (
  	"_order" integer NOT NULL,
  	"_parent_id" integer NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"item" varchar,
  	"reason" varchar
  );
  
  CREATE TABLE "imports" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"source" "enum_imports_source" DEFAULT 'csv' NOT NULL,
  	"source_file" varchar,
  	"kind" "enum_imports_kind",
  	"created_status" "enum_imports_created_status" DEFAULT 'publish' NOT NULL,
  	"status" "enum_imports_status" DEFAULT 'queued' NOT NULL,
  	"done" numeric DEFAULT 0,
  	"total" numeric DEFAULT 0,
  	"created" numeric DEFAULT 0,
  	"updated" numeric DEFAULT 0,
  	"unchanged" numeric DEFAULT 0,
  	"failed" numeric DEFAULT 0,
  	"error" varchar,
  	"created_by_id" integer,
  	"started_at" timestamp(3) with time zone,
  	"finished_at" timestamp(3) with time zone,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"url" varchar,
  	"thumbnail_u_r_l" varchar,
  	"filename" varchar,
  	"mime_type" varchar,
  	"filesize" numeric,
  	"width" numeric,
  	"height" numeric,
  	"focal_x" numeric,
  	"focal_y" numeric
  );
  
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "imports_id" integer;
  ALTER TABLE "imports_failures" ADD CONSTRAINT "imports_failures_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "imports" ADD CONSTRAINT "imports_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  CREATE INDEX "imports_failures_order_idx" ON "imports_failures" USING btree ("_order");
  CREATE INDEX "imports_failures_parent_id_idx" ON "imports_failures" USING btree ("_parent_id");
  CREATE INDEX "imports_created_by_idx" ON "imports" USING btree ("created_by_id");
  CREATE INDEX "imports_updated_at_idx" ON "imports" USING btree ("updated_at");
  CREATE INDEX "imports_created_at_idx" ON "imports" USING btree ("created_at");
  CREATE UNIQUE INDEX "imports_filename_idx" ON "imports" USING btree ("filename");
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_imports_fk" FOREIGN KEY ("imports_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "payload_locked_documents_rels_imports_id_idx" ON "payload_locked_documents_rels" USING btree ("imports_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "imports_failures" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "imports" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "imports_failures" CASCADE;
  DROP TABLE "imports" CASCADE;
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT "payload_locked_documents_rels_imports_fk";
  
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_log_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_log_task_slug" AS ENUM('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled');
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_log_task_slug" USING "task_slug"::"public"."enum_payload_jobs_log_task_slug";
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_task_slug" AS ENUM('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled');
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_task_slug" USING "task_slug"::"public"."enum_payload_jobs_task_slug";
  DROP INDEX "payload_locked_documents_rels_imports_id_idx";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "imports_id";
  DROP TYPE "public"."enum_imports_source";
  DROP TYPE "public"."enum_imports_kind";
  DROP TYPE "public"."enum_imports_created_status";
  DROP TYPE "public"."enum_imports_status";`)
}
