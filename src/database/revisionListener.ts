import type { Payload } from 'payload'
import type pg from 'pg'

/** The channel the revision's trigger notifies on commit, with the new value (`revision.ts`). */
export const REVISION_CHANNEL = 'calendar_revision'

/** How often the listening connection reads the revision anyway: a connection that died silently is found within this. */
const HEARTBEAT_MS = 5_000
/** A read on the listening connection that takes longer means the connection is lost. */
const QUERY_TIMEOUT_MS = 5_000
const FIRST_RETRY_MS = 500
const LAST_RETRY_MS = 30_000

type Logger = Pick<Payload['logger'], 'warn' | 'info'>

/**
 * The content revision as PostgreSQL pushes it: one dedicated connection per instance LISTENs on
 * the revision's channel, so a GET knows the revision without a query. While it is not listening
 * (not yet connected, lost, reconnecting with backoff) it knows nothing, and the revision is read per
 * request as before. Commits of this instance read the revision again on the same connection before
 * they return, so a client never reads, on the instance that took its write, what it wrote over.
 */
export class RevisionListener {
  private client: pg.Client | undefined
  private value: bigint | undefined
  private listening = false
  private retryMs = FIRST_RETRY_MS
  private retry: NodeJS.Timeout | undefined
  private heartbeat: NodeJS.Timeout | undefined
  private stopped = false
  private lostOnce = false
  private readonly advanced: ((revision: string) => void)[] = []
  /** Those waiting in `moved`: woken by a new revision, and by the connection's loss. */
  private readonly waiting = new Set<() => void>()
  private confirming = false
  private reading: Promise<void> | undefined
  private queued: Promise<void> | undefined

  constructor(
    private readonly driver: typeof pg,
    private readonly config: pg.ClientConfig,
    private readonly logger: Logger,
  ) {}

  /** The revision while listening, else undefined: read it from the database. */
  current(): string | undefined {
    return this.listening && this.value !== undefined ? this.value.toString() : undefined
  }

  start(): void {
    void this.connect()
  }

  /** Calls `then` with every revision newer than the last one known, as it is pushed or read. */
  onAdvance(then: (revision: string) => void): void {
    this.advanced.push(then)
  }

  /**
   * Resolves when the revision known is no longer `known` (at once if it is not now), when the
   * listener stops listening (no notification would come: the caller reads for itself), after `ms`,
   * or when `signal` aborts. A commit on any instance moves it, by its notification or, were that
   * lost, by the heartbeat's read or the read after listening again.
   */
  moved(known: string | undefined, ms: number, signal: AbortSignal): Promise<void> {
    if (this.current() !== known || signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        this.waiting.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      signal.addEventListener('abort', done)
      this.waiting.add(done)
    })
  }

  private wake(): void {
    for (const done of [...this.waiting]) done()
  }

  /**
   * Reads the revision on the listening connection: after a commit of this instance, and as the
   * heartbeat. One read at a time on the one connection: a caller that comes while a read runs (which
   * may have begun before its commit) waits for one more read after it, shared by every caller that
   * came meanwhile, so many commits at once cost two reads, not one each.
   */
  sync(): Promise<void> {
    if (!this.reading)
      return (this.reading = this.readNow().finally(() => {
        this.reading = undefined
      }))
    this.queued ??= this.reading.then(() => {
      this.queued = undefined
      return this.sync()
    })
    return this.queued
  }

  private async readNow(): Promise<void> {
    const client = this.client
    if (!client || !this.listening) return
    try {
      this.raise(await this.read(client))
    } catch (error) {
      this.lost(client, error)
    }
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.retry)
    clearInterval(this.heartbeat)
    const client = this.client
    this.client = undefined
    this.listening = false
    // Those waiting for a commit would otherwise sleep out their turn on a pool about to close.
    this.wake()
    await client?.end().catch(() => undefined)
  }

  private async connect(): Promise<void> {
    if (this.stopped) return
    const client = new this.driver.Client({
      ...this.config,
      keepAlive: true,
      query_timeout: QUERY_TIMEOUT_MS,
    })
    this.client = client
    // The value known is kept: a database restored meanwhile may have gone back (`movePast`).
    client.on('error', (error) => this.lost(client, error))
    client.on('end', () => this.lost(client, new Error('connection closed')))
    client.on('notification', ({ channel, payload }) => {
      if (
        client === this.client &&
        channel === REVISION_CHANNEL &&
        payload &&
        /^\d+$/.test(payload)
      )
        this.raise(BigInt(payload))
    })
    try {
      await client.connect()
      await client.query(`listen ${REVISION_CHANNEL}`)
      // Read after LISTEN: a commit before it is in what is read, one after it is notified.
      const read = await this.read(client)
      if (client !== this.client) return
      // A new connection's first read is later than anything known before it: lower, it went back.
      if (this.value !== undefined && read < this.value)
        await this.movePast(client, this.value, read)
      else this.raise(read)
      this.listening = true
      this.retryMs = FIRST_RETRY_MS
      this.heartbeat = setInterval(() => void this.sync(), HEARTBEAT_MS).unref()
      if (this.lostOnce) this.logger.info('revision listener: listening again')
    } catch (error) {
      this.lost(client, error)
    }
  }

  private async read(client: pg.Client): Promise<bigint> {
    const { rows } = await client.query<{ value: string }>(
      'select value from calendar_revision where id = 1',
    )
    if (!rows[0]) throw new Error('calendar_revision has no row')
    return BigInt(rows[0].value)
  }

  private raise(value: bigint): void {
    if (this.value !== undefined && value < this.value) void this.confirmWentBack()
    if (this.value !== undefined && value <= this.value) return
    this.value = value
    this.wake()
    for (const then of this.advanced)
      try {
        then(value.toString())
      } catch (error) {
        // Raised from pg's socket handler or a read: a throw there would end the listening or the process.
        this.logger.warn(
          `revision listener: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
  }

  /**
   * A lower value than the one known: a read's result can come after a notification of a commit the
   * read began before (pg hands the notification on first), so only a read begun after it decides.
   */
  private async confirmWentBack(): Promise<void> {
    const client = this.client
    const known = this.value
    if (this.confirming || !client || !this.listening || known === undefined) return
    this.confirming = true
    try {
      const read = await this.read(client)
      if (client !== this.client) return
      if (read < known) await this.movePast(client, known, read)
      else this.raise(read)
    } catch (error) {
      this.lost(client, error)
    } finally {
      this.confirming = false
    }
  }

  /**
   * The database's revision went back below `known` (a backup restored under running instances).
   * Numbers it will reach again named other content here, in every instance's caches and in the
   * ETags clients hold: the counter is moved past `known`, and its notification moves every
   * instance on from what it kept, as after any write.
   */
  private async movePast(client: pg.Client, known: bigint, read: bigint): Promise<void> {
    this.logger.warn(
      `revision listener: the content revision went back from ${known} to ${read} (a restored database?); moving it past ${known}`,
    )
    const { rows } = await client.query<{ value: string }>(
      'update calendar_revision set value = greatest(value, $1::bigint) + 1 where id = 1 returning value',
      [known.toString()],
    )
    if (rows[0]) this.raise(BigInt(rows[0].value))
  }

  private lost(client: pg.Client, error: unknown): void {
    if (client !== this.client) return
    const wasListening = this.listening
    this.client = undefined
    this.listening = false
    clearInterval(this.heartbeat)
    this.wake()
    void client.end().catch(() => undefined)
    if (this.stopped) return
    if (wasListening || !this.lostOnce) {
      const reason = error instanceof Error ? error.message : String(error)
      this.logger.warn(
        `revision listener: ${reason}; reading the revision per request until it listens again`,
      )
    }
    this.lostOnce = true
    this.retry = setTimeout(() => void this.connect(), this.retryMs).unref()
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS)
  }
}
