/** A request the load-shedding gate let in (`loadShedding.ts`): until its answer ends it counts in its lane. */
export type Admission = {
  /** Whether it waits in a lane (a namespace request with shedding on): only then does it take a turn. */
  gated: boolean
  /**
   * Whether it has waited past its deadline (`SHED_QUEUE_MS` from its arrival) by the time its answer
   * would start being made: the lane's rate foresaw a shorter wait than came. Never for one let in
   * under the lane's floor, nor outside the namespace.
   */
  late(): boolean
  /** Answers it 503 `rest_overloaded`, as one refused on arrival, instead of serving it late; its lane's rate does not count it. */
  refuse(): void
  /** Called once the server is done with it (its answer sent, or handed on and settled): only then does it stop counting. */
  ended(): void
}

/**
 * At most `size` pieces of work at once; the others start in the order they were given. An instance
 * makes its namespace answers so, `ANSWER_CONCURRENCY` at a time (docs/performance.md, "Answers made
 * in turns"), and has one thread: answers made side by side do not finish sooner, they only hold their rows, objects and
 * connections for longer. At 32 callers and a million events, varied lists made 8 at a time were
 * served 142–205 answers a second against 94–97 made 32 at a time, with about 30% less garbage
 * collection per answer (fewer half-made answers outlive each scavenge); at 10k, the same.
 */
export class Turns {
  private running = 0
  private readonly waiting: (() => void)[] = []
  /** When each piece of work in its turn began (ms since the epoch). */
  private readonly began = new Set<{ at: number }>()

  constructor(private readonly size: number) {}

  /** Work begun or handed a turn. */
  get inTurn(): number {
    return this.running
  }

  /** Work waiting for a turn. */
  get queued(): number {
    return this.waiting.length
  }

  /** How long the most recently begun work in its turn has run (ms); 0 when none runs. */
  get youngestMs(): number {
    let latest = 0
    for (const { at } of this.began) latest = Math.max(latest, at)
    return latest ? Date.now() - latest : 0
  }

  /** Runs `work` in its turn; when `signal` aborts first, it leaves the queue and this rejects with the signal's reason. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.running < this.size) this.running++
    // The turn is handed over by the work that ends, so `running` stays counted.
    else await this.turn(signal)
    const began = { at: Date.now() }
    this.began.add(began)
    try {
      return await work()
    } finally {
      this.began.delete(began)
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }

  private turn(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    return new Promise((start, giveUp) => {
      const handed = () => {
        signal?.removeEventListener('abort', leave)
        start()
      }
      const leave = () => {
        const at = this.waiting.indexOf(handed)
        if (at >= 0) this.waiting.splice(at, 1)
        giveUp(signal!.reason)
      }
      this.waiting.push(handed)
      signal?.addEventListener('abort', leave, { once: true })
    })
  }
}
