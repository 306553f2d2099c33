import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { numberSetting } from '../calendar/settings'
import { rawQuery } from './rawQuery'

/** A limit: this many requests a minute, which is also the burst a full bucket allows (docs/operations.md). */
export type Limit = { perMinute: number }

/** Per client (the signed-in user, else the address); 0 turns a kind off. */
export const LIMITS = {
  read: { perMinute: numberSetting('RATE_LIMIT_READS_PER_MINUTE') },
  write: { perMinute: numberSetting('RATE_LIMIT_WRITES_PER_MINUTE') },
  login: { perMinute: numberSetting('RATE_LIMIT_LOGINS_PER_MINUTE') },
} as const

export type LimitKind = keyof typeof LIMITS

/** A bucket's answer: whether this request may go, what is left, and when the bucket is full again. */
export type Taken = {
  allowed: boolean
  remaining: number
  fullInSeconds: number
  retryInSeconds: number
}

/**
 * Token buckets shared by every instance (docs/operations.md), one row per client and kind in
 * `calendar_rate_buckets`.
 * Takes one token from a bucket of `capacity` tokens refilled at `perSecond`, in one statement: the
 * refill since the last take, the take, and the answer. A request refused takes nothing.
 */
export async function takeToken(
  payload: Payload,
  subject: string,
  capacity: number,
  perSecond: number,
): Promise<Taken> {
  // SET expressions read the row as it was, so `taken` records whether this take found a whole token.
  const rows = await rawQuery<{ tokens: number; taken: boolean }>(
    payload,
    sql`insert into calendar_rate_buckets as b (subject, tokens, taken, updated_at) values (${subject}, ${capacity - 1}, true, clock_timestamp())
        on conflict (subject) do update set
          tokens = least(${capacity}::float8, b.tokens + extract(epoch from clock_timestamp() - b.updated_at) * ${perSecond}::float8)
                   - case when least(${capacity}::float8, b.tokens + extract(epoch from clock_timestamp() - b.updated_at) * ${perSecond}::float8) >= 1 then 1 else 0 end,
          taken = least(${capacity}::float8, b.tokens + extract(epoch from clock_timestamp() - b.updated_at) * ${perSecond}::float8) >= 1,
          updated_at = clock_timestamp()
        returning tokens, taken`,
  )
  const left = Number(rows[0]?.tokens ?? capacity - 1)
  const allowed = rows[0]?.taken ?? true
  return {
    allowed,
    remaining: Math.max(0, Math.floor(left)),
    fullInSeconds: Math.ceil((capacity - left) / perSecond),
    retryInSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - left) / perSecond)),
  }
}

/**
 * Gives back the token a request took, for a request refused before any of its work ran (a write the
 * write lane refused): the bucket as if it had not come. Its refill clock is left as it was, and a
 * bucket pruned meanwhile is full anyway.
 */
export async function returnToken(
  payload: Payload,
  subject: string,
  capacity: number,
): Promise<void> {
  await rawQuery(
    payload,
    sql`update calendar_rate_buckets set tokens = least(${capacity}::float8, tokens + 1) where subject = ${subject}`,
  )
}

/**
 * Forgets buckets untouched for a minute: every limit refills its whole capacity within a minute, so
 * such a bucket is full, as a missing one is. The table would otherwise keep every client ever seen.
 */
export async function pruneRateBuckets(payload: Payload): Promise<number> {
  return (
    await rawQuery(
      payload,
      sql`delete from calendar_rate_buckets where updated_at < clock_timestamp() - interval '1 minute' returning 1`,
    )
  ).length
}
