import type { IncomingMessage, ServerResponse } from 'node:http'
import { gateCorsHeaders, namespaceFacts } from './namespaceFacts'
import { errorResponse, RestError } from './errors'
import { metrics } from './metrics'
import { inNamespace, NAMESPACE_ROOT } from './namespacePath'
import { numberSetting } from '../calendar/settings'
import type { Admission } from './turns'

/**
 * Bounds how long a request waits in this instance (docs/operations.md): when a new namespace request
 * would wait longer than `SHED_QUEUE_MS` behind those in flight, it is answered 503 `rest_overloaded`
 * at once instead of queueing for seconds. The wait is foreseen from the rate at which the instance
 * completes requests of the same kind (Little's law: in flight over rate served), measured, so the
 * bound follows the machine and the query mix. Per instance by nature: it protects this process's
 * event loop and connection pool. Only the namespace is gated.
 *
 * Kept answers (the front door) never reach it: they cost microseconds, and counted beside made ones
 * (milliseconds) they raised the measured rate until nothing made was ever refused. Made reads and
 * signed-in writes each have a lane of their own, with their own rate, so that neither's cost sets the
 * other's bound and a flood of reads never crowds out an editor's write.
 *
 * It runs in the HTTP server in front of Next (scripts/server.ts), before any routing: a refusal
 * costs microseconds, where one refused inside the namespace's pipeline cost the router's and
 * Payload's work (about 2 ms), and a flood of refusals then starved the requests being served.
 */
export type LoadGate = {
  /** Called with each request the front door did not serve: undefined when it was refused (and answered). */
  admit(request: IncomingMessage, response: ServerResponse): Admission | undefined
  /** Whether any lane refused a request in the last `SHEDDING_MS`: the write lane's turns then have a deadline too (`writeLane.ts`). */
  shedding(): boolean
}

const RATE_WINDOW_MS = 1000
/**
 * How long a lane counts as shedding after it last refused a request. Longer than any one answer here
 * (a write took up to 2.5 s on the busy machine), so that through a flood the requests let in as
 * others end keep their deadline.
 */
const SHEDDING_MS = 10_000

/**
 * Signed-in editors' writes wait in their own lane: they are few, and what the site is for. Signed in
 * means a token this site signed (`signedToken.ts`), not any `Authorization` header, which anyone can
 * send to jump the queue; an API key's writes wait with the reads, since checking one costs a query.
 */
const signedInWrite = (request: IncomingMessage) =>
  request.method !== 'GET' &&
  request.method !== 'HEAD' &&
  request.method !== 'OPTIONS' &&
  Boolean(namespaceFacts()?.signedIn(request.headers))

/** The lanes, as `calendar_shed_requests_total` labels them. */
type LaneName = 'made' | 'signed_in_write'

/**
 * Requests of one kind: how many are in flight, and how many the instance completes a second while
 * it has some in flight. Measured over busy time only, so an idle spell does not lower the bound.
 * Never fewer than `minInFlight` are let in, so a cold instance is not starved and a burst is served
 * whole. While the lane is shedding (it refused one within the last `SHEDDING_MS`), those under
 * the floor get the deadline too: under a flood the floor was all the rate let in, and without a
 * deadline its requests waited seconds for their turn. Never one that finds the lane empty: it waits
 * behind nobody, and refusing it for a late turn (a busy event loop, a tiny `SHED_QUEUE_MS`) would
 * turn away the first request after a flood, which nothing queues ahead of.
 */
function lane(queueSeconds: number, minInFlight: number) {
  let inFlight = 0
  let refusedAt = -Infinity
  /** Busy time (ms) and completions since the rate was last measured; `busySince` while some are in flight. */
  let busyMs = 0
  let busySince = 0
  let completedInWindow = 0
  let ratePerSecond = 0
  const completed = (counted: boolean) => {
    if (counted) completedInWindow++
    if (--inFlight === 0) {
      busyMs += Date.now() - busySince
      busySince = 0
    }
    const busy = busyMs + (busySince ? Date.now() - busySince : 0)
    if (busy < RATE_WINDOW_MS) return
    const measured = (completedInWindow * 1000) / busy
    // Smoothed, so one slow second does not halve the bound at once.
    ratePerSecond = ratePerSecond ? 0.5 * ratePerSecond + 0.5 * measured : measured
    busyMs = 0
    if (busySince) busySince = Date.now()
    completedInWindow = 0
  }
  return {
    /**
     * The request's deadline (ms since the epoch; Infinity under the floor) when it is let in, and what
     * to call once its work is over; undefined when it is refused. Given a refusal (`counted` false), its
     * end is not a completion of the lane's work.
     */
    enter(): { deadline: number; ended: (counted: boolean) => void } | undefined {
      const now = Date.now()
      const underFloor = inFlight < minInFlight
      // A new request would wait about inFlight / rate: kept within the queue bound.
      if (!underFloor && inFlight >= Math.ceil(ratePerSecond * queueSeconds)) {
        refusedAt = now
        return undefined
      }
      const alone = inFlight++ === 0
      if (alone) busySince = now
      const shedding = now - refusedAt < SHEDDING_MS
      return {
        deadline: alone || (underFloor && !shedding) ? Infinity : now + queueSeconds * 1000,
        ended: completed,
      }
    },
    /** A request let in was refused at its deadline: the lane is shedding. */
    refusedLate() {
      refusedAt = Date.now()
    },
    shedding: () => Date.now() - refusedAt < SHEDDING_MS,
  }
}

/**
 * `SHED_QUEUE_MS` (0 turns shedding off) and `SHED_MIN_IN_FLIGHT` from the environment. The floor is
 * at least 1: with none, a cold lane has no rate yet and would refuse every request, for ever, since
 * only requests let in measure one.
 */
export const sheddingSettings = (env: Record<string, string | undefined>) => ({
  queueMs: numberSetting('SHED_QUEUE_MS', env),
  minInFlight: numberSetting('SHED_MIN_IN_FLIGHT', env),
})

export function loadGate(options: {
  queueMs: number
  minInFlight: number
  namespaceRoot?: string
  /** Whether the write lane would refuse a write arriving now (`writeLane.ts`, `foreseesRefusal`). */
  refusesWrite?: () => boolean
}): LoadGate {
  const root = options.namespaceRoot ?? NAMESPACE_ROOT
  const queueSeconds = options.queueMs / 1000
  const lanes = {
    made: lane(queueSeconds, options.minInFlight),
    signed_in_write: lane(queueSeconds, options.minInFlight),
  }
  // The refusal is the same every time: rendered once, in the contract's envelope.
  const refusal = errorResponse(RestError.overloaded(), { 'Cache-Control': 'no-store' })
  const refusalHeaders = Object.fromEntries(refusal.headers)
  const refusalBody = refusal.text()
  const { shed } = metrics()
  // Each lane shows from the start, at 0, so that an operator's rate() has a series before the first refusal.
  for (const name of Object.keys(lanes)) shed.inc({ lane: name }, 0)
  const refuse = (
    request: IncomingMessage,
    response: ServerResponse,
    name: LaneName | 'write_turn',
  ) => {
    shed.inc({ lane: name })
    // Its body is never read: drained as it comes, so the connection serves the caller's next request.
    request.resume()
    const cors = gateCorsHeaders(request.headers.origin)
    void refusalBody.then((body) => {
      response.writeHead(503, { ...refusalHeaders, ...cors })
      response.end(body)
    })
  }
  const always: Admission = {
    gated: false,
    late: () => false,
    refuse: () => undefined,
    ended: () => undefined,
  }

  return {
    admit(request, response) {
      if (queueSeconds <= 0 || !inNamespace(request.url ?? '/', root)) return always
      // Its caller gone before it was let in (waiting at the front door): its close has come and
      // gone, and would never take it out of its lane.
      if (response.destroyed) return undefined
      const name: LaneName = signedInWrite(request) ? 'signed_in_write' : 'made'
      // A write the write lane would refuse at its turn is refused here, before the namespace reads its body
      // (an upload's megabytes) and signs its caller in (a query): refused in the namespace, each
      // refusal cost both. Not a refusal of a lane here: the instance sheds already, and counting it
      // would keep it shedding for as long as writers send.
      if (name === 'signed_in_write' && options.refusesWrite?.()) {
        refuse(request, response, 'write_turn')
        return undefined
      }
      const entered = lanes[name].enter()
      if (!entered) {
        refuse(request, response, name)
        return undefined
      }
      let refusedLate = false
      // In flight until both its answer is over and the server is done with its work: a caller that
      // leaves closes the answer, while a write it started goes on, holding the database as before.
      let waitingFor = 2
      const end = () => --waitingFor === 0 && entered.ended(!refusedLate)
      response.once('close', end)
      return {
        gated: true,
        late: () => Date.now() > entered.deadline,
        refuse() {
          refusedLate = true
          lanes[name].refusedLate()
          refuse(request, response, name)
        },
        ended: end,
      }
    },
    shedding: () => Object.values(lanes).some((each) => each.shedding()),
  }
}
