import type { Endpoint, Payload } from 'payload'
import { sql } from '@payloadcms/db-postgres'
import { rawQuery } from '../database/rawQuery'
import { RETRY_AFTER_SECONDS } from '../database/connectionErrors'

/**
 * How long the health check waits for the database. One that stops answering without closing its
 * connections (a frozen server, a network that drops packets) left `/api/health` waiting with
 * everything else, 30 s and more, and a load balancer could not tell it from a dead instance.
 */
const HEALTH_DEADLINE_MS = 3000

/** Whether the database answers `select 1` within 3 s: refused, reset, ended or silent, it does not. */
export async function databaseAnswers(payload: Payload): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), HEALTH_DEADLINE_MS)
  })
  try {
    return (await Promise.race([rawQuery(payload, sql`select 1`), late])) !== 'late'
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** `GET /api/health`: 200 when the database answers within 3 s, 503 otherwise; for load balancers and the launcher. */
export const healthEndpoint: Endpoint = {
  path: '/health',
  method: 'get',
  handler: async (req) => {
    if (await databaseAnswers(req.payload))
      return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } })
    return Response.json(
      { status: 'unavailable' },
      {
        status: 503,
        headers: { 'Cache-Control': 'no-store', 'Retry-After': RETRY_AFTER_SECONDS },
      },
    )
  },
}
