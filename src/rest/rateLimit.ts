import { LIMITS, returnToken, takeToken, type LimitKind } from '../database/rateBuckets'
import type { RestContext } from './context'
import { RestError } from '../server/errors'
import { metrics } from '../server/metrics'
import { clientOf } from '../operations/client'

/**
 * Takes a token for the caller from the bucket of `kind`, shared by every instance through
 * PostgreSQL. Returns the `RateLimit-*` headers every answer carries; past the limit, throws the
 * 429 `rest_too_many_requests` with them and `Retry-After`, counted in the metrics unless `counted` is
 * false (the front door's try, after which the namespace takes the request and counts its refusal).
 */
export async function limitRate(
  ctx: Pick<RestContext, 'req' | 'actor'>,
  kind: LimitKind,
  counted = true,
): Promise<Record<string, string>> {
  const { perMinute } = LIMITS[kind]
  if (!perMinute) return {}
  const taken = await takeToken(ctx.req.payload, subjectOf(ctx, kind), perMinute, perMinute / 60)
  const headers = {
    'RateLimit-Limit': String(perMinute),
    'RateLimit-Remaining': String(taken.remaining),
    'RateLimit-Reset': String(taken.fullInSeconds),
  }
  if (taken.allowed) return headers
  if (counted) metrics().rateLimited.inc({ kind })
  const error = new RestError(
    'rest_too_many_requests',
    `Too many requests: at most ${perMinute} ${kind}s a minute. Try again in ${taken.retryInSeconds} s.`,
    429,
  )
  Object.assign(error.headers, headers, { 'Retry-After': String(taken.retryInSeconds) })
  throw error
}

/**
 * Gives back the token `limitRate` took for a request refused before any of its work ran: the write
 * lane's refusal (docs/operations.md, "Rate limits") costs the caller nothing but the retry.
 */
export async function returnRate(
  ctx: Pick<RestContext, 'req' | 'actor'>,
  kind: LimitKind,
): Promise<void> {
  const { perMinute } = LIMITS[kind]
  if (perMinute) await returnToken(ctx.req.payload, subjectOf(ctx, kind), perMinute)
}

const subjectOf = (ctx: Pick<RestContext, 'req' | 'actor'>, kind: LimitKind) =>
  `${kind}:${clientOf(ctx)}`
