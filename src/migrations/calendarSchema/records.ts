/**
 * The calendar's bookkeeping tables, which are not content (no admin screen, access rules, hooks,
 * languages or change feed):
 * - `calendar_idempotency`: each key's request and answer (docs/api.md §19, `src/database/idempotency.ts`);
 * - `calendar_import_map`: which local item each source's item became, and the content hash it was
 *   last imported with (`src/imports/mapping.ts`);
 * - `calendar_login_failures`: failed sign-ins per subject (`src/database/loginThrottle.ts`);
 * - `calendar_rate_buckets`: token buckets per client and kind (`src/database/rateBuckets.ts`).
 * The last two are unlogged: counters and buckets need no crash safety (a bucket lost in a crash is
 * merely full again).
 */
export const RECORDS = `
  create table if not exists calendar_idempotency (
    owner text not null,
    key text not null,
    fingerprint text not null,
    status integer,
    body text,
    created_at timestamptz not null default now(),
    primary key (owner, key)
  );
  create index if not exists calendar_idempotency_created on calendar_idempotency (created_at);
  create table if not exists calendar_import_map (
    source text not null,
    kind text not null,
    source_id text not null,
    local_id integer not null,
    hash text,
    imported_at timestamptz not null default now(),
    primary key (source, kind, source_id)
  );
  create unlogged table if not exists calendar_login_failures (
    subject text primary key,
    failures integer not null,
    last_failure timestamptz not null
  );
  create unlogged table if not exists calendar_rate_buckets (
    subject text primary key,
    tokens double precision not null,
    taken boolean not null,
    updated_at timestamptz not null
  );`
