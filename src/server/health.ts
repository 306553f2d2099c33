import type { Endpoint } from 'payload'
import { sql } from '@payloadcms/db-postgres'
import { rawQuery } from '../database/rawQuery'
import { RETRY_AFTER_SECONDS } from '../database/connectionErrors'

/** `GET /api/health`: 200 when the database answers, 503 otherwise; for load balancers and the launcher. */
export const healthEndpoint: Endpoint = {
  path: '/health',
  method: 'get',
  handler: async (req) => {
    try {
      await rawQuery(req.payload, sql`select 1`)
      return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } })
    } catch {
      return Response.json(
        { status: 'unavailable' },
        {
          status: 503,
          headers: { 'Cache-Control': 'no-store', 'Retry-After': RETRY_AFTER_SECONDS },
        },
      )
    }
  },
}
