import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'

/**
 * Each request's id (docs/operations.md, "Request ids"): sent back in `X-Request-Id` and carried by
 * every log line written while the request runs. A client's or proxy's own id is kept when it is a
 * short token of safe characters, so that one id follows the request through the proxy's log and
 * ours; anything else could inject text into the log, and a fresh id is made instead.
 *
 * The id is set by the server in front of Next (scripts/server.ts) and read by Payload's logger in
 * Next's bundle: one store for both, under a registered symbol.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id'

const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/

const STORE = Symbol.for('calendar.requestIds')

type Running = { id: string; ended: boolean }

function store(): AsyncLocalStorage<Running> {
  const global = globalThis as { [STORE]?: AsyncLocalStorage<Running> }
  return (global[STORE] ??= new AsyncLocalStorage<Running>())
}

/** The id for a request that came with this `X-Request-Id` (or none). */
export function requestIdFor(given: string | string[] | undefined): string {
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID()
}

/**
 * Runs a request's handling with its id, until the returned `end` is called. Work the request started
 * that goes on after it (Payload starts up in the first request, and its timers, the jobs runner's
 * among them, inherit that request's context for good) then logs without the id.
 */
export function withRequestId(id: string, run: () => void): () => void {
  const running = { id, ended: false }
  store().run(running, run)
  return () => {
    running.ended = true
  }
}

/** pino's `mixin` (payload.config.ts): the running request's id in each line, nothing outside a request. */
export function requestLogFields(): { requestId?: string } {
  const running = store().getStore()
  return running === undefined || running.ended ? {} : { requestId: running.id }
}
