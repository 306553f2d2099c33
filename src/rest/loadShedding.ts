/**
 * Bounds how long a request waits in this instance (docs/operations.md): when more requests are in
 * flight than it serves in `SHED_QUEUE_MS`, a new one is answered 503 `rest_overloaded` at once
 * instead of queueing for seconds. The rate served is measured, so the bound follows the machine and
 * the query mix. Per instance by nature: it protects this process's event loop and connection pool.
 * Signed-in writes are never shed, and the health check does not pass through here.
 */
const QUEUE_SECONDS = Number(process.env.SHED_QUEUE_MS ?? 500) / 1000
/** Never shed below this many requests in flight: a cold or idle instance has no rate measured yet. */
const FLOOR = Number(process.env.SHED_MIN_IN_FLIGHT ?? 32)
const WINDOW_MS = 1000

let inFlight = 0
let windowStart = Date.now()
let completedInWindow = 0
let ratePerSecond = 0

function completed(): void {
  inFlight--
  completedInWindow++
  const now = Date.now()
  if (now - windowStart >= WINDOW_MS) {
    const measured = (completedInWindow * 1000) / (now - windowStart)
    // Smoothed, so one slow second does not halve the bound at once.
    ratePerSecond = ratePerSecond ? 0.5 * ratePerSecond + 0.5 * measured : measured
    windowStart = now
    completedInWindow = 0
  }
}

/** What the instance accepts in flight now. */
export const admissionLimit = (): number => Math.max(FLOOR, Math.ceil(ratePerSecond * QUEUE_SECONDS))

/** Admits a request, giving back the function to call when it is done, or undefined when it is shed. */
export function admit(priority: boolean): (() => void) | undefined {
  if (!priority && QUEUE_SECONDS > 0 && inFlight >= admissionLimit()) return undefined
  inFlight++
  let done = false
  return () => {
    if (done) return
    done = true
    completed()
  }
}
