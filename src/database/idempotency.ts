import { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'
import { rawQuery, requestQuery } from './rawQuery'

/** How long a key is remembered (docs/api.md §19). */
export const IDEMPOTENCY_HOURS = 24

/** A key's record: the request it was first used for, and the answer that request gave. */
export type IdempotencyRecord = { fingerprint: string; status: number; body: string }

/**
 * Claims a key inside the write's transaction, or gives the record of the request that holds it.
 * While another transaction holds the key (its write is running), PostgreSQL makes this insert wait
 * for it: if that write commits, its record is returned; if it rolls back (an error, a lost
 * connection, a dead instance), the key is free and this request claims it. A key past its 24 hours
 * is claimed afresh. The wait is bounded by `waitSeconds` (PostgreSQL's `lock_timeout`, error 55P03).
 */
export async function claimKey(
  req: PayloadRequest,
  owner: string,
  key: string,
  fingerprint: string,
  waitSeconds: number,
): Promise<true | IdempotencyRecord> {
  await requestQuery(req, sql.raw(`set local lock_timeout = '${Math.round(waitSeconds * 1000)}ms'`))
  const claimed = await requestQuery<{ claimed: boolean }>(
    req,
    sql`insert into calendar_idempotency (owner, key, fingerprint) values (${owner}, ${key}, ${fingerprint})
        on conflict (owner, key) do update set fingerprint = excluded.fingerprint, status = null, body = null, created_at = now()
          where calendar_idempotency.created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})
        returning true as claimed`,
  )
  await requestQuery(req, sql`set local lock_timeout = 0`)
  if (claimed.length) return true
  const rows = await requestQuery<IdempotencyRecord>(
    req,
    sql`select fingerprint, status, body from calendar_idempotency where owner = ${owner} and key = ${key}`,
  )
  return rows[0]!
}

/** Stores the answer in the write's transaction: the write, its key and its answer commit together or not at all. */
export async function storeAnswer(
  req: PayloadRequest,
  owner: string,
  key: string,
  status: number,
  body: string,
): Promise<void> {
  await requestQuery(
    req,
    sql`update calendar_idempotency set status = ${status}, body = ${body} where owner = ${owner} and key = ${key}`,
  )
}

/** Forgets keys past their 24 hours (the change-log task runs it daily). */
export async function pruneKeys(payload: Payload): Promise<void> {
  await rawQuery(
    payload,
    sql`delete from calendar_idempotency where created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`,
  )
}
