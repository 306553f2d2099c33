import { monitorEventLoopDelay } from 'node:perf_hooks'
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Turns } from './turns'

/**
 * This instance's metrics (docs/operations.md, "Metrics"), in Prometheus' text format through
 * prom-client. Per instance: a Prometheus scrapes each one and sums across them.
 *
 * The server in front of Next (scripts/server.ts) and Next's own bundle each load this module; the
 * instruments live under a registered symbol so that both count into the same ones. What only the
 * namespace's side can read (route patterns, the database) it installs as `source` when Payload starts.
 */

/** What the namespace's side gives the metrics (installed by `rest/metricsSource.ts`). */
export type MetricsSource = {
  /** The route pattern of a namespace request (`/events/{id}`), `unmatched` when no route has it; undefined outside the namespace. */
  routeOf(method: string, url: string): string | undefined
  /** The database pool now, and the backlog read from PostgreSQL at scrape time. */
  read(): Promise<Readings>
}

export type Readings = {
  pool: { total: number; idle: number; waiting: number } | undefined
  /** Undefined when the query failed (the database away): the gauges are then left out. */
  backlog:
    | { jobsWaiting: number; jobsFailed: number; webhooksFailing: number; deliveriesFailed: number }
    | undefined
}

export type Metrics = {
  registry: Registry
  requests: Counter<'method' | 'route' | 'status'>
  duration: Histogram<'method' | 'route' | 'status'>
  answerCache: Counter<'layer' | 'result'>
  answerCacheBytes: Gauge<'layer'>
  shed: Counter<'lane'>
  rateLimited: Counter<'kind'>
  source: MetricsSource | undefined
  /** The namespace writes' turns, once the production server has made them (`writeLane.ts`). */
  writeTurns: Turns | undefined
}

const METRICS = Symbol.for('calendar.metrics')

function create(): Metrics {
  const registry = new Registry()
  const registers = [registry]
  const metrics: Metrics = {
    registry,
    source: undefined,
    writeTurns: undefined,
    requests: new Counter({
      name: 'calendar_http_requests_total',
      help: 'HTTP requests answered, by method, namespace route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    duration: new Histogram({
      name: 'calendar_http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, by method, namespace route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    answerCache: new Counter({
      name: 'calendar_answer_cache_requests_total',
      help: 'Anonymous namespace GETs looked up in a cache of answers: layer front_door or namespace, result hit or miss.',
      labelNames: ['layer', 'result'],
      registers,
    }),
    answerCacheBytes: new Gauge({
      name: 'calendar_answer_cache_bytes',
      help: 'Bytes of answers the caches of answers hold (layer front_door or namespace): all of one content revision, dropped when a newer one is known.',
      labelNames: ['layer'],
      registers,
    }),
    shed: new Counter({
      name: 'calendar_shed_requests_total',
      help: 'Namespace requests refused 503 rest_overloaded by load shedding, by lane (made, signed_in_write, or write_turn: a write past its deadline for a turn).',
      labelNames: ['lane'],
      registers,
    }),
    rateLimited: new Counter({
      name: 'calendar_rate_limited_requests_total',
      help: 'Namespace requests refused 429 rest_too_many_requests, by limit (read or write).',
      labelNames: ['kind'],
      registers,
    }),
  }
  readingGauges(metrics, registers)
  writeTurnGauge(metrics, registers)
  eventLoopDelay(registers)
  return metrics
}

/** The gauges of the readings, by reading and field: each one's name and help. */
const READING_GAUGES: {
  [R in keyof Readings]: Record<keyof NonNullable<Readings[R]>, [name: string, help: string]>
} = {
  pool: {
    total: [
      'calendar_db_pool_connections',
      'Connections the database pool holds (lent out and idle).',
    ],
    idle: ['calendar_db_pool_idle_connections', 'Connections of the database pool not lent out.'],
    waiting: [
      'calendar_db_pool_waiting_requests',
      'Queries waiting for a connection of the database pool.',
    ],
  },
  backlog: {
    jobsWaiting: [
      'calendar_jobs_waiting',
      'Jobs of the queue not yet run or being run (whole site).',
    ],
    jobsFailed: [
      'calendar_jobs_failed',
      'Jobs that failed for good and are kept in the queue (whole site).',
    ],
    webhooksFailing: [
      'calendar_webhooks_failing',
      'Webhooks whose last delivery failed (whole site).',
    ],
    deliveriesFailed: [
      'calendar_webhook_deliveries_failed',
      'Failed attempts in the webhook delivery log (whole site, as long as it keeps them).',
    ],
  },
}

/** The gauges read at scrape time from what the namespace's side installs: the pool and the backlog. */
function readingGauges(metrics: Metrics, registers: Registry[]): void {
  const read = () =>
    metrics.source?.read() ?? Promise.resolve<Readings>({ pool: undefined, backlog: undefined })
  // One reading per scrape, shared by the gauges that show it: prom-client starts their collects together.
  let reading: Promise<Readings> | undefined
  const readOnce = () => {
    reading ??= read().finally(() => (reading = undefined))
    return reading
  }
  const gauge = (name: string, help: string, value: (readings: Readings) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        this.reset()
        const found = value(await readOnce())
        if (found !== undefined) this.set(found)
      },
    })
  for (const reading of Object.keys(READING_GAUGES) as (keyof Readings)[])
    for (const [field, [name, help]] of Object.entries(READING_GAUGES[reading]))
      gauge(name, help, (r) => (r[reading] as Record<string, number> | undefined)?.[field])
}

/** The write lane's turns now: writes running in one, and writes waiting for one. */
function writeTurnGauge(metrics: Metrics, registers: Registry[]): void {
  new Gauge({
    name: 'calendar_write_turns',
    help: 'Namespace writes in the write lane, by state: running (in a turn) or waiting (for one).',
    labelNames: ['state'],
    registers,
    collect() {
      this.reset()
      const turns = metrics.writeTurns
      if (!turns) return
      this.set({ state: 'running' }, turns.inTurn)
      this.set({ state: 'waiting' }, turns.queued)
    },
  })
}

/**
 * How long a ready callback (a socket with a request to read, a query's result) waited for the thread
 * since the previous scrape, at a few quantiles: what a request waits before the server can even read
 * it, which no request's own timing shows (docs/performance.md, "Where a refusal's time goes").
 */
function eventLoopDelay(registers: Registry[]): void {
  const resolutionMs = 10
  const delay = monitorEventLoopDelay({ resolution: resolutionMs })
  delay.enable()
  // The histogram records the time between the sampling timer's calls, its own interval included.
  const seconds = (nanoseconds: number) => Math.max(0, nanoseconds / 1e9 - resolutionMs / 1000)
  new Gauge({
    name: 'calendar_event_loop_delay_seconds',
    help: "Delay of the server thread's event loop since the previous scrape, by quantile (1 is the longest).",
    labelNames: ['quantile'],
    registers,
    collect() {
      this.reset()
      // Nothing sampled yet: no series rather than the histogram's empty readings.
      if (delay.count) {
        for (const quantile of [0.5, 0.99])
          this.set({ quantile: String(quantile) }, seconds(delay.percentile(quantile * 100)))
        this.set({ quantile: '1' }, seconds(delay.max))
      }
      delay.reset()
    },
  })
}

/** The instance's metrics, created by whichever bundle asks first. */
export function metrics(): Metrics {
  const global = globalThis as { [METRICS]?: Metrics }
  return (global[METRICS] ??= create())
}
