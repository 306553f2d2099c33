import { AsyncLocalStorage } from 'node:async_hooks'
import { RestError } from './errors'
import { metrics } from './metrics'
import { Turns } from './turns'

/**
 * The write lane (docs/performance.md, "A write lane that does not wait on the network"): how many
 * namespace writes one instance runs at once in the part that uses the database and the CPU, after
 * their body is read and their images are downloaded. A write costs the thread 100–200 ms: 32 let in
 * side by side each took seconds, as every one waited for the thread the others held, and each held
 * its half-built objects and its connection for as long. The network part takes no turn, so a
 * source that drips holds no other write.
 */
export type WriteLane = {
  /**
   * Runs `handling` (a write's whole handling, from the server in front of Next) with the time the
   * request arrived: a write's deadline counts from then, not from when it asks for its turn.
   */
  arriving<T>(arrivedAt: number, handling: () => T): T
  /**
   * Whether a write asking now would be refused its turn: while the instance sheds, when the turns'
   * measured length, or the youngest turn's age, foretells a wait past its deadline. Asked before a
   * write takes a rate-limit token or downloads an image, so that one refused at once costs neither.
   */
  foreseesRefusal(): boolean
  /**
   * Runs a write's database part in its turn. While the instance sheds, a write that would wait for
   * its turn past its deadline (`SHED_QUEUE_MS` from its arrival, later by the `networkMs` it spent
   * downloading its images, which take no turn) is refused before any of it runs: at once when the
   * turns' measured length or the youngest turn's age foretells it, else when the deadline passes. `refusal` makes the error, as
   * the caller's bundle knows it: the server's own copy of `RestError` is another class than the
   * namespace's, which would render it as a 500.
   */
  run<T>(work: () => Promise<T>, refusal: () => Error, networkMs: number): Promise<T>
}

/** The lane the production server installs (scripts/server.ts) for the namespace in Next's bundle. */
const WRITE_LANE = Symbol.for('calendar.writeLane')

export function installWriteLane(lane: WriteLane): void {
  ;(globalThis as { [WRITE_LANE]?: WriteLane })[WRITE_LANE] = lane
}

const installed = () => (globalThis as { [WRITE_LANE]?: WriteLane })[WRITE_LANE]

/** Refuses 503 `rest_overloaded` a write the lane would refuse anyway, before it costs anything (`foreseesRefusal`). */
export function refuseForeseenWrite(): void {
  if (installed()?.foreseesRefusal()) throw refusedTurn()
}

/**
 * A namespace write's database part, in its turn; at once in an app served without the production
 * server, which has no gate. `refused` runs when the lane refuses it (what was taken for it is given
 * back), before the refusal is thrown.
 */
export async function inWriteTurn<T>(
  work: () => Promise<T>,
  { networkMs, refused }: { networkMs: number; refused: () => Promise<void> },
): Promise<T> {
  const lane = installed()
  if (!lane) return work()
  let turnRefused = false
  try {
    return await lane.run(
      work,
      () => {
        turnRefused = true
        return refusedTurn()
      },
      networkMs,
    )
  } catch (error) {
    if (turnRefused) await refused()
    throw error
  }
}

function refusedTurn(): Error {
  metrics().shed.inc({ lane: 'write_turn' })
  return RestError.overloaded()
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
  registry.shed.inc({ lane: 'write_turn' }, 0)
  const arrivals = new AsyncLocalStorage<number>()
  /** How long a turn lasts, smoothed: a write that finds `queued` ahead waits about that many over `size` turns. */
  let turnMs = 0
  /** How long a write asking now may still wait for its turn (ms; Infinity outside a flood). */
  const patience = (networkMs: number) =>
    options.queueMs > 0 && options.shedding()
      ? (arrivals.getStore() ?? Date.now()) + networkMs + options.queueMs - Date.now()
      : Infinity
  // A turn that has already lasted long is taken to last about as long again (a write held by a lock
  // or a slow statement is seldom about to end): the first turn to come free is then the youngest.
  const foretold = (patienceMs: number) =>
    turns.inTurn >= options.size &&
    (patienceMs <= 0 ||
      Math.max(((turns.queued + 1) * turnMs) / options.size, turns.youngestMs) > patienceMs)
  return {
    arriving: (arrivedAt, handling) => arrivals.run(arrivedAt, handling),
    foreseesRefusal: () => foretold(patience(0)),
    async run(work, refusal, networkMs) {
      const patienceMs = patience(networkMs)
      if (foretold(patienceMs)) throw refusal()
      const giveUp = new AbortController()
      const timer =
        patienceMs === Infinity ? undefined : setTimeout(() => giveUp.abort(refusal()), patienceMs)
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
