import { createHmac } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import http from 'node:http'
import https from 'node:https'
import { createLocalReq, type PayloadRequest } from 'payload'
import { changeActions, changesHeard } from '../collections/changeActions'
import { webhookGuard } from '../collections/Webhooks'
import { changesAfter, type ChangeRow } from '../database/changeLog'
import { unlessBusy } from '../database/exclusive'
import { pushedRevision, revisionMoved } from '../database/revision'
import { onPrimary } from '../database/transaction'
import { numberSetting } from '../calendar/settings'
import type { Webhook } from '../payload-types'

/** Changes read for one endpoint at a time; its turn reads again while it has time left. */
const BATCH = 100
/**
 * How long an endpoint's turn in a pass starts deliveries: a receiver that answers slowly (10 s a
 * change, say) would otherwise keep the pass, and with it every other endpoint's next pass, for as
 * long as its backlog lasts. What is left goes to the next pass, from the same cursor.
 */
const TURN_MS = 30_000
/**
 * How often an endpoint that has caught up looks for new changes while the pass waits on another and
 * this instance does not hear of commits (read replicas, DATABASE_LISTEN_URL=off, its listening
 * connection lost); while it does, a commit wakes it instead.
 */
const WATCH_MS = 1_000
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

type Tally = { delivered: number; failed: number }
/** A batch's outcome; `more` when changes are left after it (a full batch, or the turn's time up). */
type Batch = Tally & { more: boolean }

/**
 * Delivers to one endpoint what changed after its cursor, in change order, one at a time, starting
 * none after `until`: a failure stops there (so an item's changes never overtake each other), and a
 * later pass retries it after the backoff. Each change is sent as anonymous readers see it: an event
 * leaving `publish` is a `delete`, and an item that was never public is passed over.
 */
async function deliverTo(req: PayloadRequest, hook: Webhook, until: number): Promise<Batch> {
  const progress = { delivered: 0 }
  try {
    return await deliverBatch(req, hook, until, progress)
  } catch (error) {
    // An endpoint deleted while its changes were on their way takes its delivery log along, so the
    // next log line or cursor fails: there is nothing left to record, and nothing went wrong.
    const still = await req.payload.count({
      collection: 'webhooks',
      where: { id: { equals: hook.id } },
      overrideAccess: true,
      req,
    })
    if (still.totalDocs === 0) return { delivered: progress.delivered, failed: 0, more: false }
    throw error
  }
}

async function deliverBatch(
  req: PayloadRequest,
  hook: Webhook,
  until: number,
  progress: { delivered: number },
): Promise<Batch> {
  const rows = await changesAfter(req.payload, hook.cursor || '0', BATCH, hook.types ?? undefined)
  if (!rows.length) return { delivered: 0, failed: 0, more: false }
  const actionOf = await changeActions(req, null, rows)
  // As in the anonymous change feed, an item never public is not mentioned, not even as a delete.
  const heard = new Set(await changesHeard(req, null, rows, actionOf))
  let cursor = hook.cursor || '0'
  let delivered = 0
  let more = rows.length === BATCH
  for (const row of rows) {
    if (!heard.has(row)) {
      cursor = row.seq
      continue
    }
    if (Date.now() >= until) {
      more = true
      break
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
          retryAt: new Date(Date.now() + backoffMs(failed)).toISOString(),
          lastError: outcome.error,
        },
        overrideAccess: true,
        depth: 0,
        req,
      })
      return { delivered, failed: 1, more: true }
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
  return { delivered, failed: 0, more }
}

/** Runs `work` when one of `limit` places is free, in the order asked (each holds a connection). */
function places(limit: number) {
  let free = limit
  const queue: (() => void)[] = []
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (free > 0) free--
    else await new Promise<void>((resolve) => queue.push(resolve))
    try {
      return await work()
    } finally {
      const next = queue.shift()
      if (next) next()
      else free++
    }
  }
}

/**
 * One visit to an endpoint, under its lock: its changes in order, batch after batch, until it has
 * caught up (`caughtUp`), failed, been turned off, or used its turn's time.
 */
async function visit(
  req: PayloadRequest,
  id: number,
  until: number,
): Promise<Tally & { caughtUp: boolean }> {
  const { payload } = req
  const total = { delivered: 0, failed: 0, caughtUp: false }
  for (;;) {
    // Read again under the lock, on the primary, before each batch: the pass that held it may have
    // moved the cursor, which a replica may not have had yet, and an administrator may have turned
    // the endpoint off or deleted it meanwhile.
    const hook = await onPrimary(req, () =>
      payload.findByID({
        collection: 'webhooks',
        id,
        overrideAccess: true,
        depth: 0,
        req,
        disableErrors: true,
      }),
    )
    if (!hook?.active || (hook.retryAt && new Date(hook.retryAt) > new Date())) return total
    const batch = await deliverTo(req, hook, until)
    total.delivered += batch.delivered
    total.failed += batch.failed
    if (batch.failed || (batch.more && Date.now() >= until)) return total
    if (!batch.more) return { ...total, caughtUp: true }
  }
}

/**
 * One pass over the active endpoints whose retry time has come (docs/api.md §20). Endpoints are
 * served side by side (WEBHOOK_ENDPOINTS_AT_ONCE at a time), each under a lock of its own, each for a
 * turn of bounded time (TURN_MS), so a slow receiver holds up only itself. One that has caught up
 * while the pass waits on another looks again when a write commits (the content revision's
 * notification), taking its place in line again, so that its next changes do not wait for the slow
 * one's turn to end; what decides who delivers stays the endpoint's lock and its stored cursor.
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
  const oneOfFew = places(endpointsAtOnce())
  // Endpoints that have not caught up yet in this pass: a slow receiver's, or one waiting for a place.
  let behind = docs.length
  const everyoneCaughtUp = new AbortController()
  // Each endpoint of the pass waits on it once at a time: more than Node's ten is no leak.
  setMaxListeners(docs.length, everyoneCaughtUp.signal)
  const caughtUp = () => {
    if (--behind === 0) everyoneCaughtUp.abort()
  }
  const results = await Promise.all(
    docs.map(async ({ id }) => {
      const total: Tally = { delivered: 0, failed: 0 }
      // Each endpoint its own request: concurrent writes must not share one request's transaction.
      const own = await createLocalReq({}, payload)
      let until: number | undefined
      let counted = false
      try {
        for (;;) {
          // Known before the visit reads the log: a commit after its read moves it.
          const seen = pushedRevision(payload)
          const held = await oneOfFew(() =>
            unlessBusy(payload, `${DELIVER_LOCK} ${id}`, () =>
              visit(own, id, (until ??= Date.now() + TURN_MS)),
            ),
          )
          // An endpoint that another pass (another instance's) is serving is left to it.
          if (!held.ran) return total
          total.delivered += held.result.delivered
          total.failed += held.result.failed
          if (!held.result.caughtUp) return total
          if (!counted) {
            counted = true
            caughtUp()
          }
          // Caught up while the pass still waits on another endpoint: its new changes go out now,
          // not after the other's turn. Only within its own turn, so that a steady stream of changes
          // does not keep the pass, and every endpoint's next one, going for ever.
          if (behind === 0 || Date.now() >= until!) return total
          await revisionMoved(
            payload,
            seen,
            { ms: until! - Date.now(), deafMs: WATCH_MS },
            everyoneCaughtUp.signal,
          )
          if (behind === 0) return total
        }
      } finally {
        if (!counted) caughtUp()
      }
    }),
  )
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
