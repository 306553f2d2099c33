import { createHash } from 'node:crypto'
import { claimKey, releaseKey, storeAnswer, type IdempotencyRecord } from '../database/idempotency'
import type { RestContext } from './context'
import { RestError } from './http/errors'
import { inTransaction } from './operations/transaction'
import type { RestResult } from './route'

export const IDEMPOTENCY_HEADER = 'Idempotency-Key'
/** Marks an answer given again for a retried key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed'

/** How long a retry waits for the first request with its key to finish before a 409. */
const WAIT_MS = 10_000
const POLL_MS = 100

const KEY = /^[\x21-\x7e]{1,255}$/

/** What makes two requests the same: method, path and every parameter, in a stable order. */
export function fingerprintOf(method: string, path: string, params: Record<string, unknown>): string {
  const sorted = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
        )
      : Array.isArray(value)
        ? value.map(sorted)
        : value
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(sorted(params))}`)
    .digest('base64url')
}

function replay(record: IdempotencyRecord): RestResult {
  return { status: record.status ?? 200, body: JSON.parse(record.body ?? 'null'), headers: { [REPLAYED_HEADER]: 'true' } }
}

const mismatch = () =>
  new RestError('rest_idempotency_mismatch', `This ${IDEMPOTENCY_HEADER} was used for a different request: use a new key for a new write.`, 422)

/**
 * Runs a namespace write at most once per key and caller (docs/api.md §19). The first request
 * claims the key and stores its answer in the write's own transaction, so a write is never
 * committed without its answer; a retry with the same request gets that answer again, a concurrent
 * one waits for it, and the same key on another request is a 422. A first request that fails gives
 * the key back: its retry runs again.
 */
export async function idempotently(ctx: RestContext, key: string, fingerprint: string, write: () => Promise<RestResult>): Promise<RestResult> {
  if (!KEY.test(key)) throw RestError.invalidParams({ [IDEMPOTENCY_HEADER]: 'Between 1 and 255 visible ASCII characters.' })
  const { payload } = ctx.req
  const owner = ctx.actor ? `user:${ctx.actor.id}` : 'anonymous'
  const deadline = Date.now() + WAIT_MS
  for (;;) {
    const claim = await claimKey(payload, owner, key, fingerprint)
    if (claim === true) break
    if (claim.fingerprint !== fingerprint) throw mismatch()
    if (claim.state === 'done') return replay(claim)
    if (Date.now() > deadline) {
      const busy = new RestError('rest_idempotency_in_progress', `A request with this ${IDEMPOTENCY_HEADER} is still running: retry shortly.`, 409)
      busy.headers['Retry-After'] = '1'
      throw busy
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  try {
    return await inTransaction(ctx, async () => {
      const result = await write()
      await storeAnswer(ctx.req, owner, key, result.status ?? 200, JSON.stringify(result.body))
      return result
    })
  } catch (error) {
    // With the database gone the key stays pending: its lease frees it for the retry a minute later.
    await releaseKey(payload, owner, key).catch(() => undefined)
    throw error
  }
}
