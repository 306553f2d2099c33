/**
 * `npm test` (inside the launcher, which has started a fresh database per lane): checks and builds
 * the app as production does, starts one server per lane, waits until they answer, then runs vitest
 * against each, a lane's share of the files each (scripts/testLanes.ts). Unit tests and API tests
 * share the run, so the command's exit code is the suite's.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import {
  buildServer,
  productionServerEnv,
  serverCommand,
  WITHOUT_RATE_LIMITS,
} from '../scripts/productionServer'
import { freePort, waitForHealth } from '../scripts/serverProcess'
import { LANES_VARIABLE, type TestLane } from '../scripts/testLanes'

const root = path.resolve(import.meta.dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)

/** A child in a process group of its own; with a `label`, each line of its output is prefixed with it. */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  label?: string,
): { child: ChildProcess; done: Promise<number>; kept: Kept } {
  const child = spawn(command, args, {
    stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env,
    cwd: root,
    detached: true,
  })
  const kept: Kept = { failures: [], tail: [] }
  if (label) {
    prefixLines(child.stdout!, process.stdout, label, kept)
    prefixLines(child.stderr!, process.stderr, label, kept)
  }
  const done = new Promise<number>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
  )
  return { child, done, kept }
}

/** Where vitest's account of what failed begins: its failed tests, failed files, or errors outside a test. */
const FAILURE_SECTION = /Failed Tests \d|Failed Suites \d|Unhandled Errors?/

/** Enough of a lane's account of its failures to name each and show its first lines. */
const FAILURE_LINES = 400

/** A lane's last lines, for a lane that fails without an account (a crash, a kill). */
const TAIL_LINES = 60

/** What is kept of a lane's output to be shown again at the end of the run. */
type Kept = { failures: string[]; tail: string[] }

/**
 * Two lanes write to one terminal: whole lines only, each saying whose it is. From vitest's account
 * of what failed on, a lane's lines are also kept, and its last ones, to be shown again at the end.
 */
function prefixLines(
  from: NodeJS.ReadableStream,
  to: NodeJS.WritableStream,
  label: string,
  kept: Kept,
): void {
  let pending = ''
  const write = (line: string) => {
    to.write(`${label} ${line}\n`)
    const { failures, tail } = kept
    if ((failures.length || FAILURE_SECTION.test(line)) && failures.length < FAILURE_LINES)
      failures.push(line)
    if (tail.push(line) > TAIL_LINES) tail.shift()
  }
  from.setEncoding('utf8')
  from.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) write(line)
  })
  from.on('end', () => pending && write(pending))
}

/**
 * The tests stand where a proxy of the site's own would: the addresses they send as `X-Forwarded-For`
 * are the clients' (docs/operations.md), so that one test process can sign in from several.
 */
const TESTS_AS_PROXY = { TRUSTED_PROXY_HOPS: '1' }

/** The webhook receivers and the import sources of the tests listen on loopback, and retries come quickly. */
const LOOPBACK_FOR_TESTS = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_SECONDS: '1',
  WEBHOOK_MAX_FAILURES: '3',
  IMPORT_ALLOW_PRIVATE: 'true',
}

/** Lint, format and type checks read only the sources: they run side by side, and all report. */
async function checks(): Promise<number> {
  const codes = await Promise.all([
    run(bin('eslint'), ['.'], process.env).done,
    run(bin('prettier'), ['--check', '--log-level', 'warn', '.'], process.env).done,
    run(bin('tsc'), ['--noEmit', '-p', root], process.env).done,
  ])
  return codes.find((code) => code !== 0) ?? 0
}

function lanesOf(env: NodeJS.ProcessEnv): TestLane[] {
  const given = env[LANES_VARIABLE]
  if (!given) throw new Error(`${LANES_VARIABLE} is not set: run through npm test`)
  return JSON.parse(given) as TestLane[]
}

type Server = { lane: TestLane; baseUrl: string; child: ChildProcess; done: Promise<number> }

async function startServer(lane: TestLane): Promise<Server> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const server = run(
    ...serverCommand(port, '127.0.0.1'),
    productionServerEnv({
      ...process.env,
      ...WITHOUT_RATE_LIMITS,
      DATA_DIR: lane.dataDir,
      DATABASE_URL: lane.socketUrl,
      SERVER_URL: baseUrl,
      QUERY_COUNT_HEADER: 'true',
      ...LOOPBACK_FOR_TESTS,
      ...TESTS_AS_PROXY,
    }),
  )
  return { lane, baseUrl, ...server }
}

/** A lane's server answering, or the run stopped at once if it exits first: its output says why. */
function healthy(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // After the answer this rejects nothing: a promise settles once.
    void server.done.then((code) =>
      reject(
        new Error(`the test server at ${server.baseUrl} exited with ${code} before it answered`),
      ),
    )
    waitForHealth(server.baseUrl, 180_000).then(resolve, reject)
  })
}

/** Vitest on one lane: its share of the files when there are several (the sequencer in vitest.config.ts). */
function vitest(
  server: Server,
  index: number,
  count: number,
): Promise<{ code: number; kept: Kept }> {
  const shard = count > 1 ? [`--shard=${index}/${count}`] : []
  // The import CLI the tests run reads its sources on loopback too; the second instances they start stand behind them as the first does.
  const env = {
    ...process.env,
    ...TESTS_AS_PROXY,
    DATA_DIR: server.lane.dataDir,
    DATABASE_URL: server.lane.url,
    APP_DATABASE_URL: server.lane.socketUrl,
    CAL_TEST_URL: server.baseUrl,
    IMPORT_ALLOW_PRIVATE: 'true',
  }
  const lane = run(
    bin('vitest'),
    ['run', ...shard, ...process.argv.slice(2)],
    env,
    count > 1 ? `[lane ${index}]` : undefined,
  )
  return lane.done.then((code) => ({ code, kept: lane.kept }))
}

/**
 * A lane that failed early has its account far above the end of the run's output, under the other
 * lane's thousands of lines, where a reader of the output's tail (a CI page) never sees it: it is
 * printed again last, under a heading naming the lane.
 */
function repeatFailures(lanes: { code: number; kept: Kept }[]): void {
  if (lanes.length < 2) return
  lanes.forEach(({ code, kept }, at) => {
    if (code === 0) return
    const { failures, tail } = kept
    const what = failures.length ? 'what it said of its failures' : 'its last lines'
    console.error(`\n[lane ${at + 1}] failed (exit ${code}); ${what}:`)
    for (const line of failures.length ? failures : tail) console.error(`[lane ${at + 1}] ${line}`)
    // The names last, where a tail cut short by the account's length still shows them.
    const names = failures.filter((line) => /\bFAIL\b/.test(line))
    if (names.length) console.error(`[lane ${at + 1}] failed:\n${names.join('\n')}`)
  })
}

async function main(): Promise<number> {
  const production = { ...process.env, NODE_ENV: 'production' as const }
  // SKIP_BUILD=1 is for iterating on tests against an existing build: no lint, no type check, no build.
  if (process.env.SKIP_BUILD !== '1') {
    const checked = await checks()
    if (checked !== 0) return checked
    // After the checks, not beside them: the type check reads the route types the build rewrites (.next/types).
    const code = await run(bin('next'), ['build'], production).done
    if (code !== 0) return code
    await buildServer()
  }
  const servers: Server[] = []
  try {
    for (const lane of lanesOf(process.env)) servers.push(await startServer(lane))
    await Promise.all(servers.map(healthy))
    const lanes = await Promise.all(
      servers.map((server, at) => vitest(server, at + 1, servers.length)),
    )
    repeatFailures(lanes)
    return lanes.find(({ code }) => code !== 0)?.code ?? 0
  } finally {
    for (const { child } of servers)
      if (child.pid && child.exitCode === null && child.signalCode === null)
        process.kill(-child.pid, 'SIGTERM')
    await Promise.all(servers.map((server) => server.done))
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
