import { createHmac } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import { createLocalReq, type PayloadRequest } from 'payload'
import { changeActions, changesHeard } from '../collections/changeActions'
import { webhookGuard } from '../collections/Webhooks'
import { sideBySide } from '../calendar/sideBySide'
import { changesAfter, type ChangeRow } from '../database/changeLog'
import { unlessBusy } from '../database/exclusive'
import { onPrimary } from '../database/transaction'
import { numberSetting } from '../calendar/settings'
import type { Webhook } from '../payload-types'

/** Changes sent to one endpoint per run; the next run goes on from there. */
const BATCH = 100
/** The advisory lock of one endpoint's deliveries, followed by its id. */
const DELIVER_LOCK = 'calendar-webhook'
/** The whole delivery, from connecting to the answer's last byte: a receiver that drips is cut off here. */
const DEADLINE_MS = 10_000
const MAX_BACKOFF_MS = 6 * 3600_000

/** Consecutive failures after which an endpoint is turned off (docs/operations.md). */
const maxFailures = () => numberSetting('WEBHOOK_MAX_FAILURES')
/** The first retry's wait; each failure in a row doubles it, up to six hours. */
const retryBaseMs = () => numberSetting('WEBHOOK_RETRY_BASE_SECONDS') * 1000
/** Endpoints served side by side in one pass; each holds a database connection for its lock while it is served. */
const endpointsAtOnce = () => numberSetting('WEBHOOK_ENDPOINTS_AT_ONCE')

export const backoffMs = (failures: number) =>
  Math.min(MAX_BACKOFF_MS, retryBaseMs() * 2 ** Math.max(0, failures - 1))

/** `sha256=` and the hex HMAC-SHA256 of `timestamp.body` with the endpoint's secret (docs/api.md §20). */
export const signature = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`

type Outcome = { ok: boolean; status?: number; error?: string; durationMs: number }

/** One POST, through the address guard, without following redirects: a receiver answers 2xx or the delivery failed. */
function post(endpoint: string, headers: Record<string, string>, body: string): Promise<Outcome> {
  const started = performance.now()
  const done = (outcome: Omit<Outcome, 'durationMs'>): Outcome => ({
    ...outcome,
    durationMs: Math.round(performance.now() - started),
  })
  return new Promise((resolve) => {
    const url = new URL(endpoint)
    if (webhookGuard.refusesLiteral(url))
      return resolve(done({ ok: false, error: 'refused address' }))
    const client = url.protocol === 'https:' ? https : http
    const deadline = setTimeout(
      () => request.destroy(new Error(`no complete answer within ${DEADLINE_MS / 1000} s`)),
      DEADLINE_MS,
    )
    const finish = (outcome: Omit<Outcome, 'durationMs'>) => {
      clearTimeout(deadline)
      resolve(done(outcome))
    }
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: webhookGuard.lookup,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        response.resume()
        const status = response.statusCode ?? 0
        const ok = status >= 200 && status < 300
        const error = ok
          ? undefined
          : status >= 300 && status < 400
            ? `HTTP ${status}: redirects are not followed`
            : `HTTP ${status}`
        response.on('end', () => finish({ ok, status, error }))
        response.on('error', (failure) => finish({ ok: false, status, error: failure.message }))
      },
    )
    request.on('error', (failure) => finish({ ok: false, error: failure.message }))
    request.end(body)
  })
}

/** Sends one change, signed, and logs the attempt. */
async function send(
  req: PayloadRequest,
  hook: Webhook,
  row: ChangeRow,
  action: string,
  attempt: number,
): Promise<Outcome> {
  const body = JSON.stringify({
    type: row.type,
    id: row.item_id,
    action,
    modified_utc: row.modified_utc,
    seq: row.seq,
  })
  const timestamp = String(Math.floor(Date.now() / 1000))
  const outcome = await post(
    hook.url,
    {
      'Content-Type': 'application/json',
      'User-Agent': 'cal-events-webhooks',
      'X-Calendar-Webhook': String(hook.id),
      'X-Calendar-Timestamp': timestamp,
      'X-Calendar-Signature': signature(hook.secret, timestamp, body),
    },
    body,
  )
  await req.payload.create({
    collection: 'webhook-deliveries',
    data: {
      webhook: hook.id,
      summary: `${row.type} ${row.item_id} ${action}`,
      seq: row.seq,
      ok: outcome.ok,
      status: outcome.status,
      attempt,
      error: outcome.error,
      durationMs: outcome.durationMs,
    },
    overrideAccess: true,
    depth: 0,
    req,
  })
  return outcome
}

/**
 * Delivers to one endpoint what changed after its cursor, in change order, one at a time: a failure
 * stops there (so an item's changes never overtake each other), and the next run retries it after the
 * backoff. Each change is sent as anonymous readers see it: an event leaving `publish` is a `delete`,
 * and an item that was never public is passed over.
 */
async function deliverTo(
  req: PayloadRequest,
  hook: Webhook,
  now: Date,
): Promise<{ delivered: number; failed: number }> {
  const progress = { delivered: 0 }
  try {
    return await deliverBatch(req, hook, now, progress)
  } catch (error) {
    // An endpoint deleted while its changes were on their way takes its delivery log along, so the
    // next log line or cursor fails: there is nothing left to record, and nothing went wrong.
    const still = await req.payload.count({
      collection: 'webhooks',
      where: { id: { equals: hook.id } },
      overrideAccess: true,
      req,
    })
    if (still.totalDocs === 0) return { delivered: progress.delivered, failed: 0 }
    throw error
  }
}

async function deliverBatch(
  req: PayloadRequest,
  hook: Webhook,
  now: Date,
  progress: { delivered: number },
): Promise<{ delivered: number; failed: number }> {
  const rows = await changesAfter(req.payload, hook.cursor || '0', BATCH, hook.types ?? undefined)
  if (!rows.length) return { delivered: 0, failed: 0 }
  const actionOf = await changeActions(req, null, rows)
  // As in the anonymous change feed, an item never public is not mentioned, not even as a delete.
  const heard = new Set(await changesHeard(req, null, rows, actionOf))
  let cursor = hook.cursor || '0'
  let delivered = 0
  for (const row of rows) {
    if (!heard.has(row)) {
      cursor = row.seq
      continue
    }
    const failures = hook.failures ?? 0
    const outcome = await send(req, hook, row, actionOf(row), failures + 1)
    if (!outcome.ok) {
      const failed = failures + 1
      await req.payload.update({
        collection: 'webhooks',
        id: hook.id,
        data: {
          cursor,
          failures: failed,
          active: failed < maxFailures(),
          retryAt: new Date(now.getTime() + backoffMs(failed)).toISOString(),
          lastError: outcome.error,
        },
        overrideAccess: true,
        depth: 0,
        req,
      })
      return { delivered, failed: 1 }
    }
    cursor = row.seq
    delivered++
    progress.delivered = delivered
    hook.failures = 0
  }
  await req.payload.update({
    collection: 'webhooks',
    id: hook.id,
    data: { cursor, failures: 0, retryAt: null, lastError: null },
    overrideAccess: true,
    depth: 0,
    req,
  })
  return { delivered, failed: 0 }
}

/**
 * One pass over the active endpoints whose retry time has come (docs/api.md §20). Endpoints are
 * served side by side (WEBHOOK_ENDPOINTS_AT_ONCE), each under a lock of its own, so a slow receiver
 * holds up only itself: an endpoint another pass (another instance's) is still serving is left to it.
 */
export async function deliverWebhooks(
  req: PayloadRequest,
  now = new Date(),
): Promise<{ delivered: number; failed: number }> {
  const { payload } = req
  const { docs } = await payload.find({
    collection: 'webhooks',
    where: {
      and: [
        { active: { equals: true } },
        {
          or: [{ retryAt: { exists: false } }, { retryAt: { less_than_equal: now.toISOString() } }],
        },
      ],
    },
    pagination: false,
    overrideAccess: true,
    depth: 0,
    req,
  })
  const results = await sideBySide(docs, endpointsAtOnce(), async (listed) => {
    // Each endpoint its own request: concurrent writes must not share one request's transaction.
    const own = await createLocalReq({}, payload)
    const held = await unlessBusy(payload, `${DELIVER_LOCK} ${listed.id}`, async () => {
      // Read again under the lock, on the primary: the pass that held it may have moved the cursor,
      // which a replica may not have had yet.
      const hook = await onPrimary(own, () =>
        payload.findByID({
          collection: 'webhooks',
          id: listed.id,
          overrideAccess: true,
          depth: 0,
          req: own,
          disableErrors: true,
        }),
      )
      const due = hook?.active && (!hook.retryAt || new Date(hook.retryAt) <= now)
      return due ? deliverTo(own, hook!, now) : { delivered: 0, failed: 0 }
    })
    return held.ran ? held.result : { delivered: 0, failed: 0 }
  })
  return results.reduce(
    (total, result) => ({
      delivered: total.delivered + result.delivered,
      failed: total.failed + result.failed,
    }),
    {
      delivered: 0,
      failed: 0,
    },
  )
}
