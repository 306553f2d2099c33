import { RestError } from './errors'
import { metrics } from './metrics'
import { concurrencyFrom, Turns } from './turns'

/**
 * The write lane (docs/performance.md, "A write lane that does not wait on the network"): how many
 * namespace writes one instance runs at once in the part that uses the database and the CPU, after
 * their body is read and their images are downloaded. A write costs the thread 100–200 ms: 32 let in
 * side by side each took seconds, as every one waited for the thread the others held, and each held
 * its half-built objects and its connection for as long. The network part takes no turn, so a
 * source that drips holds no other write.
 */
export const DEFAULT_WRITE_CONCURRENCY = 4

/** `WRITE_CONCURRENCY` from the environment: a whole number, at least 1. */
export const writeConcurrency = (env: Record<string, string | undefined>): number =>
  concurrencyFrom(env, 'WRITE_CONCURRENCY', DEFAULT_WRITE_CONCURRENCY)

export type WriteLane = {
  /**
   * Runs a write's database part in its turn. While the instance sheds, a write that would wait for
   * its turn longer than the deadline is refused 503 `rest_overloaded` before any of it runs: at once
   * when the turns' measured length foretells it, else when the deadline passes. `refusal` makes
   * the error, as the caller's bundle knows it: the server's own copy of `RestError` is another class
   * than the namespace's, which would render it as a 500.
   */
  run<T>(work: () => Promise<T>, refusal: () => Error): Promise<T>
}

/** The lane the production server installs (scripts/server.ts) for the namespace in Next's bundle. */
const WRITE_LANE = Symbol.for('calendar.writeLane')

export function installWriteLane(lane: WriteLane): void {
  ;(globalThis as { [WRITE_LANE]?: WriteLane })[WRITE_LANE] = lane
}

/** A namespace write's database part, in its turn; at once in an app served without the production server, which has no gate. */
export function inWriteTurn<T>(work: () => Promise<T>): Promise<T> {
  const lane = (globalThis as { [WRITE_LANE]?: WriteLane })[WRITE_LANE]
  return lane ? lane.run(work, () => RestError.overloaded()) : work()
}

export function writeLane(options: {
  size: number
  /** The longest wait for a turn while shedding (`SHED_QUEUE_MS`); 0: no deadline. */
  queueMs: number
  /** Whether the load-shedding gate refused a request lately: only then do writes get a deadline. */
  shedding: () => boolean
}): WriteLane {
  const turns = new Turns(options.size)
  const registry = metrics()
  registry.writeTurns = turns
  const { shed } = registry
  shed.inc({ lane: 'write_turn' }, 0)
  const refused = (refusal: () => Error) => {
    shed.inc({ lane: 'write_turn' })
    return refusal()
  }
  /** How long a turn lasts, smoothed: a write that finds `queued` ahead waits about that many over `size` turns. */
  let turnMs = 0
  return {
    async run(work, refusal) {
      const deadline = options.queueMs > 0 && options.shedding() ? options.queueMs : Infinity
      if (turns.inTurn >= options.size && ((turns.queued + 1) * turnMs) / options.size > deadline)
        throw refused(refusal)
      const giveUp = new AbortController()
      const timer =
        deadline === Infinity
          ? undefined
          : setTimeout(() => giveUp.abort(refused(refusal)), deadline)
      return turns.run(async () => {
        clearTimeout(timer)
        const started = Date.now()
        try {
          return await work()
        } finally {
          turnMs = turnMs ? 0.8 * turnMs + 0.2 * (Date.now() - started) : Date.now() - started
        }
      }, giveUp.signal)
    },
  }
}
