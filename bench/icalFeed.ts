/**
 * `npm run bench:ical -- [--size 10000] [--feeds 15] [--duration 5] [--recurring] [--reuse] [--save file.ics] [--profile dir]`: what the default
 * iCalendar feed (`GET /api/cal/events/v1/events.ics`, up to `icalMaxEvents`, 1000 events) costs to
 * make when no kept answer serves it. Generates a dataset as `npm run bench` does, in a fresh embedded
 * PostgreSQL, runs the built app as production runs it, then:
 *
 * - cold feeds, one after the other: before each, the content revision moves (as any write moves it),
 *   so neither the answer cache nor the feed cache holds it; the time to the last byte of each;
 * - the bench's scenario (g) after a write: 32 connections for `--duration` seconds on the feed, the
 *   first of them waiting for it to be made; p50 and p99 of the answers.
 *
 * `--reuse` serves the dataset of the previous run as it is, and `--save` writes the last feed to a
 * file: two builds' feeds of the same data can then be compared line by line. `--profile` runs the app
 * under `node --cpu-prof` and leaves its profile in that folder (for Chrome's DevTools). Prints the figures;
 * docs/performance.md ("The iCalendar feed") keeps them.
 */
import autocannon from 'autocannon'
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { SERVER_BUNDLE } from '../scripts/productionServer'
import { waitForHealth } from '../scripts/serverProcess'
import { startEmbeddedDatabase } from '../src/database/embedded'
import { cpuMs, startApp, stop, runMain } from './app'
import { generateDataset } from './dataset'

const root = path.resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const option = (name: string) =>
  args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined
const size = Number(option('size') ?? 10_000)
const feeds = Number(option('feeds') ?? 15)
const duration = Number(option('duration') ?? 5)
const recurring = args.includes('--recurring')
const reuse = args.includes('--reuse')
const save = option('save')
const profile = option('profile')
const FEED = '/api/cal/events/v1/events.ics'

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0)
}

/** Moves the content revision, as a write does; the app learns it from PostgreSQL's notification. */
async function write(db: pg.Client): Promise<void> {
  await db.query('update calendar_revision set value = value + 1 where id = 1')
  await new Promise((resolve) => setTimeout(resolve, 200))
}

/** (g): after a write, 32 connections at once on the feed for `duration` seconds. */
async function afterWrite(db: pg.Client, url: string): Promise<void> {
  await write(db)
  const served: number[] = []
  const result = await autocannon({
    url,
    connections: 32,
    duration,
    timeout: 60,
    setupClient: (client) =>
      client.on(
        'response',
        (status: number, _bytes: number, ms: number) => status === 200 && served.push(ms),
      ),
  })
  console.log(
    `(g) after a write, 32 connections for ${duration} s: ${served.length} answers, p50 ${quantile(served, 0.5)} ms, p99 ${quantile(served, 0.99)} ms, ${result.non2xx + result.errors + result.timeouts} not served, ${result.requests.sent - result.requests.total} unanswered at the end`,
  )
}

async function main(): Promise<void> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error('no production build: run `npm run build` first')
  const database = await startEmbeddedDatabase({
    directory: path.join(root, 'bench', '.datasets', `ical-${size}`),
    fresh: !reuse,
    unsafeFast: true,
  })
  const { app, base } = await startApp(
    database,
    profile ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] } : {},
  )
  const db = new pg.Client({ connectionString: database.url })
  try {
    const url = `${base}${FEED}`
    await waitForHealth(base, 180_000)
    await db.connect()
    if (!reuse) {
      await generateDataset(database.url, size, { recurring })
      // The dataset's events are in UTC: a third in Paris and one in seven all day, so that the feed writes VTIMEZONEs, TZIDs and dates too.
      await db.query(`update events set timezone = 'Europe/Paris' where id % 3 = 0`)
      await db.query(`update events set all_day = true where id % 7 = 0`)
    }
    const times: number[] = []
    const appCpu: number[] = []
    const databaseCpu: number[] = []
    const tags = new Set<string>()
    let bytes = 0
    let vevents = 0
    // The first feed also loads the code and warms the JIT: left out.
    for (let i = 0; i <= feeds; i++) {
      await write(db)
      const { rows } = await db.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      )
      const backends = rows.map((row) => row.pid)
      const [app0, database0] = [cpuMs([app.pid!]), cpuMs(backends)]
      const started = performance.now()
      const response = await fetch(url)
      const text = await response.text()
      const ms = performance.now() - started
      // Statistics and CPU counters settle once the backends are idle.
      await new Promise((resolve) => setTimeout(resolve, 100))
      if (i > 0) appCpu.push(cpuMs([app.pid!]) - app0)
      if (i > 0) databaseCpu.push(cpuMs(backends) - database0)
      const tag = response.headers.get('etag') ?? ''
      if (!response.ok) throw new Error(`${FEED} answered ${response.status}`)
      if (tags.has(tag))
        throw new Error(`${FEED} answered a kept answer (${tag}): the revision did not move`)
      tags.add(tag)
      bytes = Buffer.byteLength(text)
      vevents = text.split('BEGIN:VEVENT').length - 1
      if (i > 0) times.push(ms)
      if (save && i === feeds) writeFileSync(save, text)
    }
    console.log(
      `${size.toLocaleString('en')} events${recurring ? ' (half in weekly series)' : ''}: the feed holds ${vevents} VEVENTs, ${Math.round(bytes / 1024)} KB`,
    )
    console.log(
      `cold feeds (${feeds}, one after the other): median ${quantile(times, 0.5)} ms, fastest ${Math.round(Math.min(...times))} ms, slowest ${Math.round(Math.max(...times))} ms`,
    )
    console.log(
      `CPU per cold feed, median (fastest–slowest): app ${quantile(appCpu, 0.5)} ms (${Math.min(...appCpu)}–${Math.max(...appCpu)}), PostgreSQL ${quantile(databaseCpu, 0.5)} ms (${Math.min(...databaseCpu)}–${Math.max(...databaseCpu)})`,
    )
    await afterWrite(db, url)
  } finally {
    await db.end().catch(() => undefined)
    await stop(app)
    await database.stop()
  }
}

runMain(main)
