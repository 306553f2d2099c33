/** One scenario's load run: answers per second, latencies, refusals, peak memory, queries per request. */
import autocannon from 'autocannon'
import { readdirSync, readFileSync } from 'node:fs'
import pg from 'pg'
import { percentile } from './percentile'
import { pathsDrawnBy } from './varied'

/** Connections the load generator keeps open in every scenario. */
export const CONNECTIONS = 32

/** `rps` counts the answers served (2xx, 304); `refused` the other answers by status, and transport errors under 0. */
export type Row = {
  size: number
  scenario: string
  rps: number
  p50: number
  p99: number
  refused: Record<number, number>
  rssMb: number
  queries: number
  /** CPU time (ms, user and system) the measured process spent per answer served while loaded. */
  cpuMs: number
  /**
   * The part of `cpuMs` spent by threads other than the process's main thread: V8's helpers (the
   * garbage collector's concurrent marking and parallel scavenges) and libuv's pool.
   */
  helperCpuMs: number
}

/** All the answers (and transport errors) a tally of refusals holds. */
export const countOf = (refused: Record<number, number>) =>
  Object.values(refused).reduce((sum, n) => sum + n, 0)

/**
 * Counts a load run's answers by status as they arrive: the latencies of those served (2xx, 304), the
 * others by status. `counting` off leaves a warm-up out.
 */
export function responseTally() {
  const tally = { counting: true, served: [] as number[], refused: {} as Record<number, number> }
  const setupClient = (client: autocannon.Client) =>
    client.on('response', (status: number, _bytes: number, ms: number) => {
      if (!tally.counting) return
      if ((status >= 200 && status < 300) || status === 304) tally.served.push(ms)
      else tally.refused[status] = (tally.refused[status] ?? 0) + 1
    })
  return { tally, setupClient }
}

/** The resident set of a process and its descendants now, in MB (sampled for a run's peak). */
export function rssOf(pid: number): number {
  const pids = [pid]
  for (let i = 0; i < pids.length; i++) {
    try {
      const children = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8').trim()
      if (children) pids.push(...children.split(/\s+/).map(Number))
    } catch {
      // gone
    }
  }
  let kb = 0
  for (const one of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${one}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      // gone
    }
  }
  return Math.round(kb / 1024)
}

/** Samples the resident set of `pid`'s process tree every 250 ms; the function returned stops and gives the peak (MB). */
export function peakRss(pid: number): () => number {
  let peak = rssOf(pid)
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 250)
  return () => {
    clearInterval(sampler)
    return peak
  }
}

/** The CPU time (ms, user and system) a process's threads other than its main one have used so far, from /proc. */
export function helperCpuMs(pid: number): number {
  let ticks = 0
  try {
    for (const thread of readdirSync(`/proc/${pid}/task`))
      if (thread !== String(pid)) ticks += ticksOf(`/proc/${pid}/task/${thread}/stat`)
  } catch {
    // gone
  }
  return ticks * 10
}

/** utime and stime of a /proc `stat` file, in clock ticks (100 a second); 0 for a thread or process gone. */
function ticksOf(file: string): number {
  try {
    // Past the command's name: utime and stime are the 14th and 15th fields.
    const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
}

/**
 * The CPU time (ms, user and system) these processes have used so far, from /proc: on a machine shared
 * with other work the rate served follows the machine, what an answer costs much less.
 */
export function cpuMs(pids: number[]): number {
  return pids.reduce((ticks, pid) => ticks + ticksOf(`/proc/${pid}/stat`), 0) * 10
}

async function transactions(db: pg.Client): Promise<number> {
  const { rows } = await db.query(
    `select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`,
  )
  return Number(rows[0].n)
}

/**
 * What a scenario loads: one URL, or a request made afresh each time (`next`, or autocannon's
 * `requests` for writes), with headers; `queries` counts what the database was asked (transactions
 * by default: a read's statements each are one).
 */
export type Target = {
  url: string
  headers?: Record<string, string>
  next?: () => string
  requests?: autocannon.Request[]
  queries?: (db: pg.Client) => Promise<number>
  /** Seconds the load generator waits for an answer (autocannon's default: 10). */
  timeout?: number
  /** Seconds measured, instead of the run's `--duration`. */
  seconds?: number
  /** Waits, after the warm-up, for what it left behind to be done. */
  settle?: (db: pg.Client) => Promise<void>
}

/** Loads `target` for `duration` seconds (or its own), after a warm-up of a third of that. */
export async function measure(
  target: Target,
  pid: number,
  db: pg.Client,
  duration: number,
): Promise<Omit<Row, 'size' | 'scenario'>> {
  const { url, headers, next, queries = transactions, seconds = duration } = target
  const { tally, setupClient } = responseTally()
  const requests = target.requests ?? (next ? pathsDrawnBy(next) : undefined)
  const options = {
    url,
    headers,
    requests,
    connections: CONNECTIONS,
    timeout: target.timeout,
    setupClient,
  }
  // The peak of the whole scenario, its warm-up included.
  const rssPeak = peakRss(pid)
  tally.counting = false
  await autocannon({ ...options, duration: Math.max(2, Math.round(duration / 3)) })
  await target.settle?.(db)
  const before = await queries(db)
  const cpuBefore = cpuMs([pid])
  const helpersBefore = helperCpuMs(pid)
  tally.counting = true
  const result = await autocannon({ ...options, duration: seconds })
  tally.counting = false
  const cpu = cpuMs([pid]) - cpuBefore
  const helpers = helperCpuMs(pid) - helpersBefore
  if (result.errors + result.timeouts) tally.refused[0] = result.errors + result.timeouts
  const rssMb = rssPeak()
  // Statistics reach pg_stat_database when backends go idle: give them a moment.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const after = await queries(db)
  return {
    rps: Math.round(tally.served.length / seconds),
    p50: percentile(tally.served, 0.5),
    p99: percentile(tally.served, 0.99),
    refused: tally.refused,
    rssMb,
    queries: Math.round(((after - before) / Math.max(1, result.requests.total)) * 10) / 10,
    cpuMs: Math.round((cpu / Math.max(1, tally.served.length)) * 100) / 100,
    helperCpuMs: Math.round((helpers / Math.max(1, tally.served.length)) * 100) / 100,
  }
}
