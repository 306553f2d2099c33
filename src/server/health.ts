import type { Endpoint } from 'payload'
import { sql } from '@payloadcms/db-postgres'
import { rawQuery } from '../database/rawQuery'
import { RETRY_AFTER_SECONDS } from '../database/connectionErrors'

/**
 * How long the health check waits for the database. One that stops answering without closing its
 * connections (a frozen server, a network that drops packets) left `/api/health` waiting with
 * everything else, 30 s and more, and a load balancer could not tell it from a dead instance.
 */
const HEALTH_DEADLINE_MS = 3000

/** `GET /api/health`: 200 when the database answers within 3 s, 503 otherwise; for load balancers and the launcher. */
export const healthEndpoint: Endpoint = {
  path: '/health',
  method: 'get',
  handler: async (req) => {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), HEALTH_DEADLINE_MS)
    })
    try {
      const answered = await Promise.race([rawQuery(req.payload, sql`select 1`), late])
      if (answered !== 'late')
        return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } })
    } catch {
      // Refused, reset or ended: unavailable, as when it does not answer.
    } finally {
      clearTimeout(timer)
    }
    return Response.json(
      { status: 'unavailable' },
      {
        status: 503,
        headers: { 'Cache-Control': 'no-store', 'Retry-After': RETRY_AFTER_SECONDS },
      },
    )
  },
}
