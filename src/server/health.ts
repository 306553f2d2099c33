import type { Endpoint, Payload } from 'payload'
import { sql } from '@payloadcms/db-postgres'
import { rawQuery, replicaQueries } from '../database/rawQuery'
import { RETRY_AFTER_SECONDS } from '../database/connectionErrors'

/**
 * How long the health check waits for the database. One that stops answering without closing its
 * connections (a frozen server, a network that drops packets) left `/api/health` waiting with
 * everything else, 30 s and more, and a load balancer could not tell it from a dead instance.
 */
const HEALTH_DEADLINE_MS = 3000

/** Whether `query` answers within 3 s: refused, reset, ended or silent, it does not. */
async function answersInTime(query: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), HEALTH_DEADLINE_MS)
  })
  try {
    return (await Promise.race([query(), late])) !== 'late'
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** Whether the primary database answers `select 1` within 3 s. */
export const databaseAnswers = (payload: Payload): Promise<boolean> =>
  answersInTime(() => rawQuery(payload, sql`select 1`))

const state = (answers: boolean) => (answers ? 'ok' : 'unavailable')

/**
 * `GET /api/health`: 200 when the primary and every read replica answer within 3 s, 503 otherwise;
 * for load balancers and the launcher. A replica lost fails the reads sent to it (docs/operations.md),
 * so an instance that reads there is not healthy: it said 200 while its reads were 503s. The answer
 * names which database failed by its place in `DATABASE_READ_REPLICAS`, never by its URL.
 */
export const healthEndpoint: Endpoint = {
  path: '/health',
  method: 'get',
  handler: async (req) => {
    const [primary, ...replicas] = await Promise.all([
      databaseAnswers(req.payload),
      ...replicaQueries(req.payload).map((query) => answersInTime(() => query(sql`select 1`))),
    ])
    const healthy = primary && replicas.every(Boolean)
    const databases = {
      primary: state(primary),
      ...(replicas.length ? { replicas: replicas.map(state) } : {}),
    }
    return Response.json(
      { status: healthy ? 'ok' : 'unavailable', databases },
      {
        status: healthy ? 200 : 503,
        headers: {
          'Cache-Control': 'no-store',
          ...(healthy ? {} : { 'Retry-After': RETRY_AFTER_SECONDS }),
        },
      },
    )
  },
}
