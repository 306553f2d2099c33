import { createHash } from 'node:crypto'
import { claimKey, storeAnswer, type IdempotencyRecord } from '../database/idempotency'
import type { RestContext } from './context'
import { RestError } from '../server/errors'
import { inTransaction } from '../database/transaction'
import type { RestResult } from './route'
import { jsonOf, JsonText } from './http/jsonText'

export const IDEMPOTENCY_HEADER = 'Idempotency-Key'
/** Marks an answer given again for a retried key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed'

/** How long a retry waits for the first request with its key to finish before a 409. */
const WAIT_SECONDS = 10

const KEY = /^[\x20-\x7e]{1,255}$/

/**
 * What makes two requests the same: method, path, language and every other parameter, in a stable
 * order. The language whichever way it was given (the `/fr/` root or `i18n_language`,
 * docs/api.md §10): a French write is not an English one's retry.
 */
export function fingerprintOf(
  method: string,
  path: string,
  language: string,
  { i18n_language: _spelled, ...params }: Record<string, unknown>,
): string {
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
    .update(`${method} ${path} ${language}\n${JSON.stringify(sorted(params))}`)
    .digest('base64url')
}

function replay(record: IdempotencyRecord): RestResult {
  return {
    status: record.status,
    body: new JsonText(record.body),
    headers: { [REPLAYED_HEADER]: 'true' },
  }
}

const mismatch = () =>
  new RestError(
    'rest_idempotency_mismatch',
    `This ${IDEMPOTENCY_HEADER} was used for a different request: use a new key for a new write.`,
    422,
  )

/** PostgreSQL's lock_timeout: the first request with the key is still writing. */
const isLockTimeout = (error: unknown): boolean => {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause)
    if ((cause as { code?: unknown }).code === '55P03') return true
  return false
}

/**
 * Runs a namespace write at most once per key and caller (docs/api.md §19). The key is claimed and
 * the answer stored in the write's own transaction, so a write never commits without its answer,
 * and a write that fails (any error, a lost database) leaves no claim behind: its retry runs again.
 * A retry of a committed write gets its answer again; a concurrent one waits for it; the same key on
 * another request is a 422.
 */
export async function idempotently(
  ctx: RestContext,
  key: string,
  fingerprint: string,
  write: () => Promise<RestResult>,
): Promise<RestResult> {
  if (!KEY.test(key))
    throw RestError.invalidParams({
      [IDEMPOTENCY_HEADER]: 'Between 1 and 255 printable ASCII characters.',
    })
  const owner = ctx.actor ? `user:${ctx.actor.id}` : 'anonymous'
  try {
    return await inTransaction(ctx.req, async () => {
      const claim = await claimKey(ctx.req, owner, key, fingerprint, WAIT_SECONDS)
      if (claim !== true) {
        if (claim.fingerprint !== fingerprint) throw mismatch()
        return replay(claim)
      }
      const result = await write()
      await storeAnswer(ctx.req, owner, key, result.status ?? 200, jsonOf(result.body) ?? '')
      return result
    })
  } catch (error) {
    if (!isLockTimeout(error)) throw error
    const busy = new RestError(
      'rest_idempotency_in_progress',
      `A request with this ${IDEMPOTENCY_HEADER} is still running: retry shortly.`,
      409,
    )
    busy.headers['Retry-After'] = '1'
    throw busy
  }
}
