import { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'
import { rawQuery, rawQueryIn } from './rawQuery'

/** How long a key is remembered (docs/api.md §19). */
export const IDEMPOTENCY_HOURS = 24

/**
 * A claim still pending after this long belongs to a request that died: its write never committed
 * (the answer is stored in the write's own transaction), so another request may take the key over.
 */
const LEASE_SECONDS = 60

/** A key's record: pending while its first request runs, then the answer that request gave. */
export type IdempotencyRecord = { fingerprint: string; state: 'pending' | 'done'; status: number | null; body: string | null }

/** The table, installed at start like the content revision: idempotently, under an advisory lock. */
export async function installIdempotency(payload: Payload): Promise<void> {
  await rawQuery(
    payload,
    sql`do $install$
    begin
      perform pg_advisory_xact_lock(hashtext('calendar_idempotency'));
      create table if not exists calendar_idempotency (
        owner text not null,
        key text not null,
        fingerprint text not null,
        state text not null,
        status integer,
        body text,
        created_at timestamptz not null default now(),
        primary key (owner, key)
      );
      create index if not exists calendar_idempotency_created on calendar_idempotency (created_at);
    end $install$`,
  )
}

/**
 * Claims a key for a request, in its own statement (committed at once, so concurrent requests see
 * it). A key past its 24 hours, or abandoned while pending, is claimed afresh. Returns true when
 * this request is the one to write; otherwise the key's record says what happened.
 */
export async function claimKey(payload: Payload, owner: string, key: string, fingerprint: string): Promise<true | IdempotencyRecord> {
  const claimed = await rawQuery<{ claimed: boolean }>(
    payload,
    sql`insert into calendar_idempotency (owner, key, fingerprint, state) values (${owner}, ${key}, ${fingerprint}, 'pending')
        on conflict (owner, key) do update set fingerprint = excluded.fingerprint, state = 'pending', status = null, body = null, created_at = now()
          where calendar_idempotency.created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})
             or (calendar_idempotency.state = 'pending' and calendar_idempotency.created_at < now() - make_interval(secs => ${LEASE_SECONDS}))
        returning true as claimed`,
  )
  if (claimed.length) return true
  const rows = await rawQuery<IdempotencyRecord>(
    payload,
    sql`select fingerprint, state, status, body from calendar_idempotency where owner = ${owner} and key = ${key}`,
  )
  // Gone in between (released by a failed first request): try again.
  return rows[0] ?? claimKey(payload, owner, key, fingerprint)
}

/** Stores the answer inside the write's transaction: the write and its answer commit together or not at all. */
export async function storeAnswer(req: PayloadRequest, owner: string, key: string, status: number, body: string): Promise<void> {
  await rawQueryIn(req, sql`update calendar_idempotency set state = 'done', status = ${status}, body = ${body} where owner = ${owner} and key = ${key}`)
}

/** A first request that failed gives its key back, so a retry writes. */
export async function releaseKey(payload: Payload, owner: string, key: string): Promise<void> {
  await rawQuery(payload, sql`delete from calendar_idempotency where owner = ${owner} and key = ${key} and state = 'pending'`)
}

/** Forgets keys past their 24 hours (the change-log task runs it daily). */
export async function pruneKeys(payload: Payload): Promise<void> {
  await rawQuery(payload, sql`delete from calendar_idempotency where created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`)
}
