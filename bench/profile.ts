/**
 * `npm run bench:profile -- [path|varied|editor|create|update] [--size 10000] [--duration 10] [--writes 100] [--top 40] [--connections 32] [--database URL] [--heap] [--allocations] [--signed-in]`: where a request's
 * time goes. Starts the production build under `node --cpu-prof` on a fresh embedded PostgreSQL with a generated
 * dataset (or on the database at `--database`, as it is: a bench's million events take a quarter of an hour to make), loads `path` (the event list by default; `varied`: the bench's varied lists; `editor`: the event list signed in as the bench's editor, its (i); `create`, `update`: `--writes` of the bench's (w) writes by its editor, with the statements a write sent, by PostgreSQL's count) with autocannon at 32 connections (`--connections`: reads at another count, 500 for the overload scenario's flood and what its refusals cost), stops the app
 * and prints where the CPU went while it was loaded (start-up, data generation and idle time left
 * out): by package, by function's self time and by function's total time (callees included), mapped
 * back to their sources through the build's source maps. The raw profile stays in bench/.profiles/
 * for Chrome's DevTools (Performance → Load profile). `--heap`: also a heap snapshot once the load is
 * over, and what it holds by kind of object (bench/heapSummary.ts), for what stays after the requests.
 * `--allocations` (reads): also what the measured load allocated, by place and by module, dropped
 * objects included (bench/allocations.ts): what the garbage collector's share of the CPU comes from.
 * `--signed-in`: `path` read as the bench's editor, so that every answer is made (a page of 50 events
 * weighs what each event costs against what each request costs).
 */
import autocannon from 'autocannon'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { SourceMapConsumer } from 'source-map-js'
import { SERVER_BUNDLE } from '../scripts/productionServer'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/database/embedded'
import { freePort, waitForHealth } from '../scripts/serverProcess'
import pg from 'pg'
import { editorAuthorization, runMain, startApp, stop } from './app'
import { heapKinds } from './heapSummary'
import { bytesByPlace, sampleAllocations, type AllocationNode } from './allocations'
import { cpuMs } from './measure'
import { generateDataset } from './dataset'
import { pathsDrawnBy, variedList } from './varied'
import { settled, withStatementCounts, writeRequests, writeTargets } from './writes'

const root = path.resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const option = (name: string) =>
  args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined
const EVENT_LIST = '/api/cal/events/v1/events'
const target =
  args.find((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--')) ??
  EVENT_LIST
const size = Number(option('size') ?? 10_000)
const duration = Number(option('duration') ?? 10)
/** How many functions each list shows. */
const shown = Number(option('top') ?? 40)
const output = path.join(root, 'bench', '.profiles')
const givenDatabase = option('database')
const writeKind = target === 'create' || target === 'update' ? target : undefined
const writes = Number(option('writes') ?? 100)
const heap = args.includes('--heap')
const allocations = args.includes('--allocations')
const connections = Number(option('connections') ?? 32)
/** A path's reads signed in as the bench's editor, so that none is served from a kept answer. */
const signedIn = args.includes('--signed-in')

type ProfileNode = {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number }

/** Microseconds on the clock V8 stamps profiles with (the monotonic clock, as `process.hrtime`). */
const now = () => Number(process.hrtime.bigint() / 1000n)

/**
 * Names a call frame `package/file:line function`, mapped back to its source through the build's
 * source maps where it has them.
 */
function placeNamer(): (frame: ProfileNode['callFrame']) => string {
  const maps = new Map<string, SourceMapConsumer | undefined>()
  return ({ functionName, url, lineNumber, columnNumber }) => {
    const where = `${url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '') || '(native)'}:${lineNumber + 1} ${functionName}`
    const file = url.replace(/^file:\/\//, '')
    if (!file.includes(`${path.sep}.next${path.sep}`)) return where
    if (!maps.has(file))
      maps.set(
        file,
        existsSync(`${file}.map`)
          ? new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8')))
          : undefined,
      )
    const original = maps
      .get(file)
      ?.originalPositionFor({ line: lineNumber + 1, column: columnNumber })
    const source = original?.source
    return source
      ? `${source.includes('node_modules/') ? source.replace(/.*node_modules\//, '') : source.replace(/^.*?\/src\//, 'src/')}:${original.line} ${original.name ?? functionName}`
      : where
  }
}

/**
 * CPU time per source location (`package/file:line function`) between `from` and `to`, idle left
 * out: `self` where the samples landed, `total` with callees (a function counts once per sample,
 * however deep it recurses). Source-mapped where the build has maps.
 */
function cpuTimes(
  profile: Profile,
  from: number,
  to: number,
): { self: Map<string, number>; total: Map<string, number> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id)
  const place = placeNamer()
  const names = new Map<number, string>()
  const nameOf = (node: ProfileNode): string => {
    let known = names.get(node.id)
    if (known === undefined) names.set(node.id, (known = place(node.callFrame)))
    return known
  }
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  let at = profile.startTime
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0
    at += micros
    const node = byId.get(id)
    if (at < from || at > to || !node || node.callFrame.functionName === '(idle)') return
    const where = nameOf(node)
    self.set(where, (self.get(where) ?? 0) + micros)
    const counted = new Set<string>()
    for (let up: number | undefined = id; up !== undefined; up = parentOf.get(up)) {
      const caller = nameOf(byId.get(up)!)
      if (counted.has(caller)) continue
      counted.add(caller)
      total.set(caller, (total.get(caller) ?? 0) + micros)
    }
  })
  return { self, total }
}

function top(entries: Map<string, number>, count: number, total: number): string {
  return [...entries]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => `${((micros / total) * 100).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n')
}

async function main(): Promise<void> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error('no production build: run `npm run build` first')
  rmSync(output, { recursive: true, force: true })
  mkdirSync(output, { recursive: true })
  const directory = path.join(root, 'bench', '.datasets', `profile-${size}`)
  const fresh = givenDatabase
    ? { url: givenDatabase, socketUrl: givenDatabase, stop: async () => undefined }
    : await startEmbeddedDatabase({ directory, fresh: true, unsafeFast: true })
  const database =
    writeKind && !givenDatabase
      ? await withStatementCounts(fresh as EmbeddedDatabase, directory)
      : fresh
  let loaded: Load
  const inspector = allocations && !writeKind ? await freePort() : undefined
  const { app, base } = await startApp(database, {
    nodeFlags: [
      '--cpu-prof',
      `--cpu-prof-dir=${output}`,
      ...(heap ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${output}`] : []),
      ...(inspector ? [`--inspect=127.0.0.1:${inspector}`] : []),
    ],
  })
  try {
    await waitForHealth(base, 180_000)
    if (!givenDatabase) await generateDataset(database.url, size)
    loaded = writeKind
      ? await profileWrites(writeKind, base, database.url, app.pid!)
      : await profileReads(base, inspector)
    if (heap) {
      process.kill(app.pid!, 'SIGUSR2')
      // The snapshot is written on the app's own thread: once its file is there and the app answers
      // again, the file is whole.
      for (let waited = 0; !readdirSync(output).some((name) => name.endsWith('.heapsnapshot'));) {
        if ((waited += 100) > 60_000) throw new Error('the app wrote no heap snapshot')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      await waitForHealth(base, 180_000)
    }
  } finally {
    // The profile is written when the process exits normally: Next exits on SIGTERM.
    await stop(app)
    await database.stop()
  }
  printCpu(loaded)
  if (loaded.allocated) printAllocations(loaded.allocated, loaded.requests)
  const snapshot = readdirSync(output).find((name) => name.endsWith('.heapsnapshot'))
  if (heap && snapshot) {
    const { total: bytes, kinds } = heapKinds(path.join(output, snapshot))
    const mb = (of: number) => (of / 1048576).toFixed(1).padStart(7)
    console.log(
      `\nThe heap after the load, ${mb(bytes).trim()} MB live, by kind (own size, count):\n${kinds
        .slice(0, shown)
        .map((kind) => `${mb(kind.bytes)} MB ${String(kind.count).padStart(8)}  ${kind.kind}`)
        .join('\n')}\nRaw snapshot: ${path.join(output, snapshot)}`,
    )
  }
}

/** Where the CPU went while `loaded`: by package, the app's modules, functions' self and total time. */
function printCpu(loaded: Load): void {
  const file = readdirSync(output).find((name) => name.endsWith('.cpuprofile'))
  if (!file) throw new Error('the app wrote no profile')
  const { self, total: inclusive } = cpuTimes(
    JSON.parse(readFileSync(path.join(output, file), 'utf8')) as Profile,
    loaded.from,
    loaded.to,
  )
  const total = [...self.values()].reduce((sum, micros) => sum + micros, 0)
  const byPackage = new Map<string, number>()
  for (const [where, micros] of self) {
    const name = where.startsWith('src/') ? 'src (this app)' : packageOf(where)
    byPackage.set(name, (byPackage.get(name) ?? 0) + micros)
  }
  // The app's own share by module: its functions are many and small, each under a percent.
  const byFile = new Map<string, number>()
  for (const [where, micros] of self)
    if (where.startsWith('src/')) {
      const file = where.split(':')[0]!
      byFile.set(file, (byFile.get(file) ?? 0) + micros)
    }
  const busyFor = loaded.to - loaded.from
  console.log(
    `\nCPU under load: ${(total / 1e6).toFixed(1)} s busy of ${(busyFor / 1e6).toFixed(1)} s (${Math.round((total / busyFor) * 100)}% of one core); per write or request: ${(total / 1e3 / loaded.requests).toFixed(0)} ms; shares of the busy time below`,
  )
  console.log(`\nBy package:\n${top(byPackage, 15, total)}`)
  console.log(`\nThis app's modules, self time:\n${top(byFile, 25, total)}`)
  console.log(`\nBy function, self time:\n${top(self, shown, total)}`)
  console.log(`\nBy function, total time (callees included):\n${top(inclusive, shown, total)}`)
  console.log(`\nRaw profile: ${path.join(output, file)}`)
}

/** A load's span on the profile's clock, the requests it made and, if asked, what it allocated. */
type Load = { from: number; to: number; requests: number; allocated?: AllocationNode }

/** `duration` seconds of `target`'s reads after 3 unmeasured ones. */
async function profileReads(base: string, inspector?: number): Promise<Load> {
  // `varied`: a list drawn afresh for every request, as the bench's (h); `editor`: the event list
  // signed in as the bench's editor, as its (i).
  const requests = target === 'varied' ? pathsDrawnBy(variedList) : undefined
  const headers =
    target === 'editor' || signedIn ? { Authorization: await editorAuthorization(base) } : undefined
  const url = target === 'varied' ? base : `${base}${target === 'editor' ? EVENT_LIST : target}`
  const load = { url, requests, headers, connections }
  await autocannon({ ...load, duration: 3 })
  const sampling = inspector === undefined ? undefined : await sampleAllocations(inspector)
  const from = now()
  const result = await autocannon({ ...load, duration })
  const to = now()
  const allocated = await sampling?.stop()
  console.log(
    `${target} at ${givenDatabase ? 'the given database' : `${size.toLocaleString('en')} events`}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, ${result.non2xx + result.errors} errors`,
  )
  return { from, to, requests: result.requests.total, allocated }
}

/**
 * `writes` of the bench's (w) writes after a few unmeasured ones, and the statements they sent by
 * PostgreSQL's count (pg_stat_statements, reset after the warm-up): per write, and the most called.
 */
async function profileWrites(
  kind: 'create' | 'update',
  base: string,
  url: string,
  pid: number,
): Promise<Load> {
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    const requests = writeRequests(
      kind,
      '/api/cal/events/v1/events',
      await writeTargets(db),
      await editorAuthorization(base),
    )
    const load = { url: base, requests, connections: 32, timeout: 120 }
    await autocannon({ ...load, amount: 32 })
    await settled(db)
    await db.query('select pg_stat_statements_reset()')
    const backends = await clientBackends(db)
    const cpu = [cpuMs([pid]), cpuMs(backends)]
    const from = now()
    const result = await autocannon({ ...load, amount: writes })
    const to = now()
    await settled(db)
    const [appMs, databaseMs] = [cpuMs([pid]) - cpu[0]!, cpuMs(backends) - cpu[1]!]
    const { rows } = await db.query(
      `select calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query from pg_stat_statements where query not like '%pg_stat_statements%' order by calls desc`,
    )
    const sent = rows.reduce((sum: number, row: { calls: string }) => sum + Number(row.calls), 0)
    console.log(
      `${kind} at ${size.toLocaleString('en')} events: ${result.requests.total} writes, ${(result.requests.total / ((to - from) / 1e6)).toFixed(1)}/s, p50 ${result.latency.p50} ms, ${result.non2xx + result.errors} errors; ${(sent / result.requests.total).toFixed(1)} statements a write; CPU a write by /proc: app ${(appMs / result.requests.total).toFixed(0)} ms, PostgreSQL ${(databaseMs / result.requests.total).toFixed(0)} ms`,
    )
    console.log(
      `\nStatements a write, most called:\n${rows
        .slice(0, shown)
        .map(
          (row: { calls: string; query: string }) =>
            `${(Number(row.calls) / result.requests.total).toFixed(2).padStart(6)}  ${row.query}`,
        )
        .join('\n')}`,
    )
    return { from, to, requests: result.requests.total }
  } finally {
    await db.end()
  }
}

/** The package a place (`placeNamer`) is in, a scoped one with its scope; `node:…` and `(native)` as named. */
function packageOf(where: string): string {
  const parts = where.split(/[/:]/)
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
}

/** What the load allocated, by place and by the app's module: the garbage collector's work. */
function printAllocations(head: AllocationNode, requests: number): void {
  const bytes = bytesByPlace(head, placeNamer())
  const all = [...bytes.values()].reduce((sum, size) => sum + size, 0)
  const byModule = new Map<string, number>()
  for (const [where, size] of bytes) {
    const module = where.startsWith('src/') ? where.split(':')[0]! : packageOf(where)
    byModule.set(module, (byModule.get(module) ?? 0) + size)
  }
  console.log(
    `\nAllocated under load (sampled, collected objects included): ${(all / 1048576).toFixed(0)} MB, ${(all / 1024 / requests).toFixed(1)} KB a request\n\nBy module (this app's by file):\n${top(byModule, 25, all)}\n\nBy place:\n${top(bytes, shown, all)}`,
  )
}

/** The app's connections to the database (its pool is full after the warm-up), for their CPU time. */
async function clientBackends(db: pg.Client): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>(
    `select pid from pg_stat_activity where backend_type = 'client backend' and datname = current_database() and pid <> pg_backend_pid()`,
  )
  return rows.map((row) => row.pid)
}

runMain(main)
