import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import type pg from 'pg'
import { rawQuery } from './rawQuery'

/** What waits or failed, site-wide (docs/operations.md, "Metrics"): read when the metrics are scraped, in one query. */
export type Backlog = {
  jobsWaiting: number
  jobsFailed: number
  webhooksFailing: number
  deliveriesFailed: number
}

export async function readBacklog(payload: Payload): Promise<Backlog> {
  const [row] = await rawQuery<Backlog>(
    payload,
    sql`select
      (select count(*) from payload_jobs where completed_at is null and not coalesce(has_error, false))::int as "jobsWaiting",
      (select count(*) from payload_jobs where has_error)::int as "jobsFailed",
      (select count(*) from webhooks where failures > 0)::int as "webhooksFailing",
      (select count(*) from webhook_deliveries where not coalesce(ok, false))::int as "deliveriesFailed"`,
  )
  return row!
}

/** The adapter's pool now: its connections, the idle ones, and the queries waiting for one. */
export function poolUse(
  payload: Payload,
): { total: number; idle: number; waiting: number } | undefined {
  const pool = (payload.db as unknown as { pool?: pg.Pool }).pool
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }
}
