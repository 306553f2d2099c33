import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum__events_v_version_status" AS ENUM('publish', 'future', 'draft', 'pending', 'private', 'trash');
  CREATE TYPE "public"."enum__events_v_version_currency_position" AS ENUM('prefix', 'postfix');
  CREATE TYPE "public"."enum__venues_v_version_status" AS ENUM('publish', 'future', 'draft', 'pending', 'private', 'trash');
  CREATE TYPE "public"."enum__organizers_v_version_status" AS ENUM('publish', 'future', 'draft', 'pending', 'private', 'trash');
  CREATE TYPE "public"."enum_webhooks_types" AS ENUM('event', 'venue', 'organizer', 'category', 'tag');
  CREATE TYPE "public"."enum_imports_source" AS ENUM('csv');
  CREATE TYPE "public"."enum_imports_kind" AS ENUM('events', 'venues', 'organizers');
  CREATE TYPE "public"."enum_imports_created_status" AS ENUM('publish', 'draft');
  CREATE TYPE "public"."enum_imports_status" AS ENUM('queued', 'running', 'done', 'failed');
  ALTER TYPE "public"."enum_payload_jobs_log_task_slug" ADD VALUE 'deliverWebhooks';
  ALTER TYPE "public"."enum_payload_jobs_log_task_slug" ADD VALUE 'importCalendar';
  ALTER TYPE "public"."enum_payload_jobs_task_slug" ADD VALUE 'deliverWebhooks';
  ALTER TYPE "public"."enum_payload_jobs_task_slug" ADD VALUE 'importCalendar';
  CREATE TABLE "_events_v" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"parent_id" integer,
  	"version_status" "enum__events_v_version_status" DEFAULT 'draft' NOT NULL,
  	"version_author_id" integer,
  	"version_edited_by_id" integer,
  	"version_published_at" timestamp(3) with time zone,
  	"version_password" varchar,
  	"version_has_password" boolean DEFAULT false,
  	"version_start" timestamp(3) with time zone NOT NULL,
  	"version_end" timestamp(3) with time zone NOT NULL,
  	"version_all_day" boolean DEFAULT false,
  	"version_timezone" varchar,
  	"version_start_local" varchar,
  	"version_end_local" varchar,
  	"version_image_id" integer,
  	"version_currency_symbol" varchar,
  	"version_currency_code" varchar,
  	"version_currency_position" "enum__events_v_version_currency_position",
  	"version_website" varchar,
  	"version_venue_id" integer,
  	"version_parent_id" integer,
  	"version_recurrence" varchar,
  	"version_recurrence_exception" boolean DEFAULT false,
  	"version_show_map" boolean DEFAULT true,
  	"version_show_map_link" boolean DEFAULT true,
  	"version_hide_from_listings" boolean DEFAULT false,
  	"version_sticky" boolean DEFAULT false,
  	"version_featured" boolean DEFAULT false,
  	"version_ticketed" boolean DEFAULT false,
  	"version_updated_at" timestamp(3) with time zone,
  	"version_created_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_events_v_locales" (
  	"version_title" varchar NOT NULL,
  	"version_description" jsonb,
  	"version_description_html" varchar,
  	"version_excerpt" varchar,
  	"version_slug" varchar,
  	"version_meta_title" varchar,
  	"version_meta_description" varchar,
  	"version_meta_image_id" integer,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_events_v_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" integer NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_events_v_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" integer NOT NULL,
  	"path" varchar NOT NULL,
  	"organizers_id" integer,
  	"event_categories_id" integer,
  	"event_tags_id" integer
  );
  
  CREATE TABLE "_venues_v" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"parent_id" integer,
  	"version_status" "enum__venues_v_version_status" DEFAULT 'draft' NOT NULL,
  	"version_author_id" integer,
  	"version_edited_by_id" integer,
  	"version_published_at" timestamp(3) with time zone,
  	"version_password" varchar,
  	"version_has_password" boolean DEFAULT false,
  	"version_image_id" integer,
  	"version_address" varchar,
  	"version_city" varchar,
  	"version_zip" varchar,
  	"version_state" varchar,
  	"version_province" varchar,
  	"version_stateprovince" varchar,
  	"version_country" varchar,
  	"version_phone" varchar,
  	"version_website" varchar,
  	"version_geo_lat" numeric,
  	"version_geo_lng" numeric,
  	"version_show_map" boolean DEFAULT true,
  	"version_show_map_link" boolean DEFAULT true,
  	"version_updated_at" timestamp(3) with time zone,
  	"version_created_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_venues_v_locales" (
  	"version_name" varchar NOT NULL,
  	"version_description" jsonb,
  	"version_description_html" varchar,
  	"version_excerpt" varchar,
  	"version_slug" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "_organizers_v" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"parent_id" integer,
  	"version_status" "enum__organizers_v_version_status" DEFAULT 'draft' NOT NULL,
  	"version_author_id" integer,
  	"version_edited_by_id" integer,
  	"version_published_at" timestamp(3) with time zone,
  	"version_password" varchar,
  	"version_has_password" boolean DEFAULT false,
  	"version_image_id" integer,
  	"version_phone" varchar,
  	"version_website" varchar,
  	"version_email" varchar,
  	"version_updated_at" timestamp(3) with time zone,
  	"version_created_at" timestamp(3) with time zone,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_organizers_v_locales" (
  	"version_name" varchar NOT NULL,
  	"version_description" jsonb,
  	"version_description_html" varchar,
  	"version_excerpt" varchar,
  	"version_slug" varchar,
  	"id" serial PRIMARY KEY NOT NULL,
  	"_locale" "_locales" NOT NULL,
  	"_parent_id" integer NOT NULL
  );
  
  CREATE TABLE "webhooks_types" (
  	"order" integer NOT NULL,
  	"parent_id" integer NOT NULL,
  	"value" "enum_webhooks_types",
  	"id" serial PRIMARY KEY NOT NULL
  );
  
  CREATE TABLE "webhooks" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"url" varchar NOT NULL,
  	"secret" varchar NOT NULL,
  	"active" boolean DEFAULT true,
  	"cursor" varchar,
  	"failures" numeric DEFAULT 0,
  	"retry_at" timestamp(3) with time zone,
  	"last_error" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "webhook_deliveries" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"webhook_id" integer NOT NULL,
  	"summary" varchar NOT NULL,
  	"seq" varchar NOT NULL,
  	"ok" boolean DEFAULT false,
  	"status" numeric,
  	"attempt" numeric NOT NULL,
  	"error" varchar,
  	"duration_ms" numeric,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
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
  
  ALTER TABLE "events" ADD COLUMN "edited_by_id" integer;
  ALTER TABLE "venues" ADD COLUMN "edited_by_id" integer;
  ALTER TABLE "organizers" ADD COLUMN "edited_by_id" integer;
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "webhooks_id" integer;
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "webhook_deliveries_id" integer;
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "imports_id" integer;
  ALTER TABLE "settings" ADD COLUMN "ical_max_events" numeric DEFAULT 1000;
  ALTER TABLE "_events_v" ADD CONSTRAINT "_events_v_parent_id_events_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_events_v" ADD CONSTRAINT "_events_v_version_author_id_users_id_fk" FOREIGN KEY ("version_author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_events_v" ADD CONSTRAINT "_events_v_version_edited_by_id_users_id_fk" FOREIGN KEY ("version_edited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_events_v" ADD CONSTRAINT "_events_v_version_image_id_media_id_fk" FOREIGN KEY ("version_image_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_events_v" ADD CONSTRAINT "_events_v_version_venue_id_venues_id_fk" FOREIGN KEY ("version_venue_id") REFERENCES "public"."venues"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_events_v" ADD CONSTRAINT "_events_v_version_parent_id_events_id_fk" FOREIGN KEY ("version_parent_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_events_v_locales" ADD CONSTRAINT "_events_v_locales_version_meta_image_id_media_id_fk" FOREIGN KEY ("version_meta_image_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_events_v_locales" ADD CONSTRAINT "_events_v_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_events_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_events_v_texts" ADD CONSTRAINT "_events_v_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_events_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_events_v_rels" ADD CONSTRAINT "_events_v_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_events_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_events_v_rels" ADD CONSTRAINT "_events_v_rels_organizers_fk" FOREIGN KEY ("organizers_id") REFERENCES "public"."organizers"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_events_v_rels" ADD CONSTRAINT "_events_v_rels_event_categories_fk" FOREIGN KEY ("event_categories_id") REFERENCES "public"."event_categories"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_events_v_rels" ADD CONSTRAINT "_events_v_rels_event_tags_fk" FOREIGN KEY ("event_tags_id") REFERENCES "public"."event_tags"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_venues_v" ADD CONSTRAINT "_venues_v_parent_id_venues_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."venues"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_venues_v" ADD CONSTRAINT "_venues_v_version_author_id_users_id_fk" FOREIGN KEY ("version_author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_venues_v" ADD CONSTRAINT "_venues_v_version_edited_by_id_users_id_fk" FOREIGN KEY ("version_edited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_venues_v" ADD CONSTRAINT "_venues_v_version_image_id_media_id_fk" FOREIGN KEY ("version_image_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_venues_v_locales" ADD CONSTRAINT "_venues_v_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_venues_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_organizers_v" ADD CONSTRAINT "_organizers_v_parent_id_organizers_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."organizers"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_organizers_v" ADD CONSTRAINT "_organizers_v_version_author_id_users_id_fk" FOREIGN KEY ("version_author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_organizers_v" ADD CONSTRAINT "_organizers_v_version_edited_by_id_users_id_fk" FOREIGN KEY ("version_edited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_organizers_v" ADD CONSTRAINT "_organizers_v_version_image_id_media_id_fk" FOREIGN KEY ("version_image_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_organizers_v_locales" ADD CONSTRAINT "_organizers_v_locales_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_organizers_v"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "webhooks_types" ADD CONSTRAINT "webhooks_types_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "imports_failures" ADD CONSTRAINT "imports_failures_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "imports" ADD CONSTRAINT "imports_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  CREATE INDEX "_events_v_parent_idx" ON "_events_v" USING btree ("parent_id");
  CREATE INDEX "_events_v_version_version_status_idx" ON "_events_v" USING btree ("version_status");
  CREATE INDEX "_events_v_version_version_author_idx" ON "_events_v" USING btree ("version_author_id");
  CREATE INDEX "_events_v_version_version_edited_by_idx" ON "_events_v" USING btree ("version_edited_by_id");
  CREATE INDEX "_events_v_version_version_published_at_idx" ON "_events_v" USING btree ("version_published_at");
  CREATE INDEX "_events_v_version_version_start_idx" ON "_events_v" USING btree ("version_start");
  CREATE INDEX "_events_v_version_version_end_idx" ON "_events_v" USING btree ("version_end");
  CREATE INDEX "_events_v_version_version_start_local_idx" ON "_events_v" USING btree ("version_start_local");
  CREATE INDEX "_events_v_version_version_end_local_idx" ON "_events_v" USING btree ("version_end_local");
  CREATE INDEX "_events_v_version_version_image_idx" ON "_events_v" USING btree ("version_image_id");
  CREATE INDEX "_events_v_version_version_venue_idx" ON "_events_v" USING btree ("version_venue_id");
  CREATE INDEX "_events_v_version_version_parent_idx" ON "_events_v" USING btree ("version_parent_id");
  CREATE INDEX "_events_v_version_version_hide_from_listings_idx" ON "_events_v" USING btree ("version_hide_from_listings");
  CREATE INDEX "_events_v_version_version_featured_idx" ON "_events_v" USING btree ("version_featured");
  CREATE INDEX "_events_v_version_version_ticketed_idx" ON "_events_v" USING btree ("version_ticketed");
  CREATE INDEX "_events_v_version_version_updated_at_idx" ON "_events_v" USING btree ("version_updated_at");
  CREATE INDEX "_events_v_version_version_created_at_idx" ON "_events_v" USING btree ("version_created_at");
  CREATE INDEX "_events_v_created_at_idx" ON "_events_v" USING btree ("created_at");
  CREATE INDEX "_events_v_updated_at_idx" ON "_events_v" USING btree ("updated_at");
  CREATE INDEX "version_status_version_hideFromListings_version_startLoc_idx" ON "_events_v" USING btree ("version_status","version_hide_from_listings","version_start_local");
  CREATE INDEX "_events_v_version_version_slug_idx" ON "_events_v_locales" USING btree ("version_slug","_locale");
  CREATE INDEX "_events_v_version_meta_version_meta_image_idx" ON "_events_v_locales" USING btree ("version_meta_image_id","_locale");
  CREATE UNIQUE INDEX "_events_v_locales_locale_parent_id_unique" ON "_events_v_locales" USING btree ("_locale","_parent_id");
  CREATE INDEX "_events_v_texts_order_parent" ON "_events_v_texts" USING btree ("order","parent_id");
  CREATE INDEX "_events_v_rels_order_idx" ON "_events_v_rels" USING btree ("order");
  CREATE INDEX "_events_v_rels_parent_idx" ON "_events_v_rels" USING btree ("parent_id");
  CREATE INDEX "_events_v_rels_path_idx" ON "_events_v_rels" USING btree ("path");
  CREATE INDEX "_events_v_rels_organizers_id_idx" ON "_events_v_rels" USING btree ("organizers_id");
  CREATE INDEX "_events_v_rels_event_categories_id_idx" ON "_events_v_rels" USING btree ("event_categories_id");
  CREATE INDEX "_events_v_rels_event_tags_id_idx" ON "_events_v_rels" USING btree ("event_tags_id");
  CREATE INDEX "_venues_v_parent_idx" ON "_venues_v" USING btree ("parent_id");
  CREATE INDEX "_venues_v_version_version_status_idx" ON "_venues_v" USING btree ("version_status");
  CREATE INDEX "_venues_v_version_version_author_idx" ON "_venues_v" USING btree ("version_author_id");
  CREATE INDEX "_venues_v_version_version_edited_by_idx" ON "_venues_v" USING btree ("version_edited_by_id");
  CREATE INDEX "_venues_v_version_version_published_at_idx" ON "_venues_v" USING btree ("version_published_at");
  CREATE INDEX "_venues_v_version_version_image_idx" ON "_venues_v" USING btree ("version_image_id");
  CREATE INDEX "_venues_v_version_version_geo_lat_idx" ON "_venues_v" USING btree ("version_geo_lat");
  CREATE INDEX "_venues_v_version_version_geo_lng_idx" ON "_venues_v" USING btree ("version_geo_lng");
  CREATE INDEX "_venues_v_version_version_updated_at_idx" ON "_venues_v" USING btree ("version_updated_at");
  CREATE INDEX "_venues_v_version_version_created_at_idx" ON "_venues_v" USING btree ("version_created_at");
  CREATE INDEX "_venues_v_created_at_idx" ON "_venues_v" USING btree ("created_at");
  CREATE INDEX "_venues_v_updated_at_idx" ON "_venues_v" USING btree ("updated_at");
  CREATE INDEX "_venues_v_version_version_slug_idx" ON "_venues_v_locales" USING btree ("version_slug","_locale");
  CREATE UNIQUE INDEX "_venues_v_locales_locale_parent_id_unique" ON "_venues_v_locales" USING btree ("_locale","_parent_id");
  CREATE INDEX "_organizers_v_parent_idx" ON "_organizers_v" USING btree ("parent_id");
  CREATE INDEX "_organizers_v_version_version_status_idx" ON "_organizers_v" USING btree ("version_status");
  CREATE INDEX "_organizers_v_version_version_author_idx" ON "_organizers_v" USING btree ("version_author_id");
  CREATE INDEX "_organizers_v_version_version_edited_by_idx" ON "_organizers_v" USING btree ("version_edited_by_id");
  CREATE INDEX "_organizers_v_version_version_published_at_idx" ON "_organizers_v" USING btree ("version_published_at");
  CREATE INDEX "_organizers_v_version_version_image_idx" ON "_organizers_v" USING btree ("version_image_id");
  CREATE INDEX "_organizers_v_version_version_updated_at_idx" ON "_organizers_v" USING btree ("version_updated_at");
  CREATE INDEX "_organizers_v_version_version_created_at_idx" ON "_organizers_v" USING btree ("version_created_at");
  CREATE INDEX "_organizers_v_created_at_idx" ON "_organizers_v" USING btree ("created_at");
  CREATE INDEX "_organizers_v_updated_at_idx" ON "_organizers_v" USING btree ("updated_at");
  CREATE INDEX "_organizers_v_version_version_slug_idx" ON "_organizers_v_locales" USING btree ("version_slug","_locale");
  CREATE UNIQUE INDEX "_organizers_v_locales_locale_parent_id_unique" ON "_organizers_v_locales" USING btree ("_locale","_parent_id");
  CREATE INDEX "webhooks_types_order_idx" ON "webhooks_types" USING btree ("order");
  CREATE INDEX "webhooks_types_parent_idx" ON "webhooks_types" USING btree ("parent_id");
  CREATE INDEX "webhooks_updated_at_idx" ON "webhooks" USING btree ("updated_at");
  CREATE INDEX "webhooks_created_at_idx" ON "webhooks" USING btree ("created_at");
  CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id");
  CREATE INDEX "webhook_deliveries_updated_at_idx" ON "webhook_deliveries" USING btree ("updated_at");
  CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" USING btree ("created_at");
  CREATE INDEX "imports_failures_order_idx" ON "imports_failures" USING btree ("_order");
  CREATE INDEX "imports_failures_parent_id_idx" ON "imports_failures" USING btree ("_parent_id");
  CREATE INDEX "imports_created_by_idx" ON "imports" USING btree ("created_by_id");
  CREATE INDEX "imports_updated_at_idx" ON "imports" USING btree ("updated_at");
  CREATE INDEX "imports_created_at_idx" ON "imports" USING btree ("created_at");
  CREATE UNIQUE INDEX "imports_filename_idx" ON "imports" USING btree ("filename");
  ALTER TABLE "events" ADD CONSTRAINT "events_edited_by_id_users_id_fk" FOREIGN KEY ("edited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "venues" ADD CONSTRAINT "venues_edited_by_id_users_id_fk" FOREIGN KEY ("edited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "organizers" ADD CONSTRAINT "organizers_edited_by_id_users_id_fk" FOREIGN KEY ("edited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_webhooks_fk" FOREIGN KEY ("webhooks_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_webhook_deliveries_fk" FOREIGN KEY ("webhook_deliveries_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_imports_fk" FOREIGN KEY ("imports_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "events_edited_by_idx" ON "events" USING btree ("edited_by_id");
  CREATE INDEX "venues_edited_by_idx" ON "venues" USING btree ("edited_by_id");
  CREATE INDEX "organizers_edited_by_idx" ON "organizers" USING btree ("edited_by_id");
  CREATE INDEX "payload_locked_documents_rels_webhooks_id_idx" ON "payload_locked_documents_rels" USING btree ("webhooks_id");
  CREATE INDEX "payload_locked_documents_rels_webhook_deliveries_id_idx" ON "payload_locked_documents_rels" USING btree ("webhook_deliveries_id");
  CREATE INDEX "payload_locked_documents_rels_imports_id_idx" ON "payload_locked_documents_rels" USING btree ("imports_id");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   ALTER TABLE "_events_v" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_events_v_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_events_v_texts" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_events_v_rels" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_venues_v" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_venues_v_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_organizers_v" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "_organizers_v_locales" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "webhooks_types" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "webhooks" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "webhook_deliveries" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "imports_failures" DISABLE ROW LEVEL SECURITY;
  ALTER TABLE "imports" DISABLE ROW LEVEL SECURITY;
  DROP TABLE "_events_v" CASCADE;
  DROP TABLE "_events_v_locales" CASCADE;
  DROP TABLE "_events_v_texts" CASCADE;
  DROP TABLE "_events_v_rels" CASCADE;
  DROP TABLE "_venues_v" CASCADE;
  DROP TABLE "_venues_v_locales" CASCADE;
  DROP TABLE "_organizers_v" CASCADE;
  DROP TABLE "_organizers_v_locales" CASCADE;
  DROP TABLE "webhooks_types" CASCADE;
  DROP TABLE "webhooks" CASCADE;
  DROP TABLE "webhook_deliveries" CASCADE;
  DROP TABLE "imports_failures" CASCADE;
  DROP TABLE "imports" CASCADE;
  ALTER TABLE "events" DROP CONSTRAINT "events_edited_by_id_users_id_fk";
  
  ALTER TABLE "venues" DROP CONSTRAINT "venues_edited_by_id_users_id_fk";
  
  ALTER TABLE "organizers" DROP CONSTRAINT "organizers_edited_by_id_users_id_fk";
  
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT IF EXISTS "payload_locked_documents_rels_webhooks_fk";
  
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT IF EXISTS "payload_locked_documents_rels_webhook_deliveries_fk";
  
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT IF EXISTS "payload_locked_documents_rels_imports_fk";
  
  DELETE FROM "payload_jobs" WHERE "task_slug"::text NOT IN ('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled');
  DELETE FROM "payload_jobs_log" WHERE "task_slug"::text NOT IN ('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled');
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_log_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_log_task_slug" AS ENUM('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled');
  ALTER TABLE "payload_jobs_log" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_log_task_slug" USING "task_slug"::"public"."enum_payload_jobs_log_task_slug";
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE text;
  DROP TYPE "public"."enum_payload_jobs_task_slug";
  CREATE TYPE "public"."enum_payload_jobs_task_slug" AS ENUM('inline', 'extendRecurrenceHorizons', 'pruneChangeLog', 'publishScheduled');
  ALTER TABLE "payload_jobs" ALTER COLUMN "task_slug" SET DATA TYPE "public"."enum_payload_jobs_task_slug" USING "task_slug"::"public"."enum_payload_jobs_task_slug";
  DROP INDEX "events_edited_by_idx";
  DROP INDEX "venues_edited_by_idx";
  DROP INDEX "organizers_edited_by_idx";
  DROP INDEX "payload_locked_documents_rels_webhooks_id_idx";
  DROP INDEX "payload_locked_documents_rels_webhook_deliveries_id_idx";
  DROP INDEX "payload_locked_documents_rels_imports_id_idx";
  ALTER TABLE "events" DROP COLUMN "edited_by_id";
  ALTER TABLE "venues" DROP COLUMN "edited_by_id";
  ALTER TABLE "organizers" DROP COLUMN "edited_by_id";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "webhooks_id";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "webhook_deliveries_id";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "imports_id";
  ALTER TABLE "settings" DROP COLUMN "ical_max_events";
  DROP TYPE "public"."enum__events_v_version_status";
  DROP TYPE "public"."enum__events_v_version_currency_position";
  DROP TYPE "public"."enum__venues_v_version_status";
  DROP TYPE "public"."enum__organizers_v_version_status";
  DROP TYPE "public"."enum_webhooks_types";
  DROP TYPE "public"."enum_imports_source";
  DROP TYPE "public"."enum_imports_kind";
  DROP TYPE "public"."enum_imports_created_status";
  DROP TYPE "public"."enum_imports_status";`)
}
