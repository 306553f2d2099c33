/**
 * `npm run bench`: the namespace against Payload's own REST API and a raw floor, on datasets of
 * 10k, 100k and 1M events, the service run as production runs it (built, `next start`, embedded
 * PostgreSQL). One URL asked again and again is served from the answer cache after its first time;
 * (h) varies every request, as many readers of a calendar do, and (i) is a signed-in editor's ((l) the
 * same with 50 events a page: what each event costs). Options: `--sizes 10000,100000` `--duration 15` (seconds per scenario) `--quick`
 * (10k only, 5 s) `--scenarios a,e,f` (a subset) `--recurring` (half the events are occurrences of
 * weekly series) `--tcp` (the app reaches PostgreSQL over loopback TCP, not its Unix socket). Besides the table: (a) on the smallest and the largest dataset taking turns (the p50 ratio of the largest to the smallest), the first list after another connection's write (how soon it shows, what it costs: bench/afterWrite.ts), the creation of a daily series
 * of 730 occurrences, and 500 connections for 30 s on the list, varied lists, the editor's list and signed-in writes (load shedding, bench/overload.ts). After the reads:
 * (w) events created and retitled by a signed-in editor, each against the write floor (bench/writeFloor.ts), with
 * PostgreSQL's own count of queries per write; (q) import speed from a live site and a 10,000-event .ics
 * (bench/imports.ts, at the run's smallest size); (v) the admin's events list and edit page in Chromium
 * (bench/admin.ts). Every row's RSS is the scenario's peak, flagged above 256 MB. Prints a table
 * and adds it on top of bench/results/<date>.md.
 */
import autocannon from 'autocannon'
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { SERVER_BUNDLE } from '../scripts/productionServer'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/database/embedded'
import { freePort, waitForHealth } from '../scripts/serverProcess'
import { adminToken, editorAuthorization, start, startApp, stop, runMain } from './app'
import { adminOpenings, requestSummary, type AdminFigure } from './admin'
import { generateDataset } from './dataset'
import { overloadNotes, overloadScenarios } from './overload'
import { CONNECTIONS, countOf, measure, responseTally, type Row, type Target } from './measure'
import { percentile } from './percentile'
import { listAfterWrite, type AfterWrite } from './afterWrite'
import { importDestination, importSpeed, type ImportFigure } from './imports'
import { seriesWrites } from './series'
import { ratiosAt } from './ratios'
import { dayOffset, sameAnswers, variedList } from './varied'
import { settled, statements, withStatementCounts, writeRequests, writeTargets } from './writes'

const root = path.resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const option = (name: string) =>
  args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined
const quick = args.includes('--quick')
const sizes = (option('sizes') ?? (quick ? '10000' : '10000,100000,1000000')).split(',').map(Number)
const duration = Number(option('duration') ?? (quick ? 5 : 15))
const only = option('scenarios')
  ?.split(',')
  .map((letter) => `${letter.trim()}.`)
const selected = (name: string) => !only || only.some((prefix) => name.startsWith(prefix))
const recurring = args.includes('--recurring')
const overTcp = args.includes('--tcp')
/** The namespace's event list, which most scenarios load or load below. */
const EVENT_LIST = '/api/cal/events/v1/events'
/** One write through the namespace took 0.7–2.5 s alone on the busy shared machine: 32 at once outlast autocannon's 10 s. */
const WRITE_TIMEOUT_S = 120
/** Seconds each write scenario is measured: 32 writes at once are answered tens of seconds later. */
const WRITE_SECONDS = 40
/** The peak resident set a scenario may reach (the memory target), in MB: above it, the table flags the row. */
const RSS_TARGET_MB = 256

/** Per size, the first (a) after another connection's write: how soon it showed, and what it cost to make (`listAfterWrite`). */
const afterWrite: [size: number, figure: AfterWrite][] = []
/** Per size, what a daily series of 730 occurrences costs through the namespace, in seconds. */
const seriesFigures: [size: number, create: number, retitle: number][] = []
/** Per size, import speed (q): from a live site, from a 10,000-event .ics. */
const importFigures: [size: number, ImportFigure][] = []
/** Per size, the admin's pages in Chromium (v). */
const adminFigures: [size: number, AdminFigure][] = []

const datasetDirectory = (size: number) => path.join(root, 'bench', '.datasets', String(size))

/** Imports (q) from the dataset's app at `site` and from an iCalendar file. */
async function importRuns(size: number, site: string, sitePid: number): Promise<void> {
  const destination = () => importDestination(path.join(root, 'bench', '.datasets'), overTcp)
  for (const figure of await importSpeed(destination, `${site}/api/cal/events/v1`, sitePid))
    importFigures.push([size, figure])
}

/** Events created and retitled (w) through the namespace by an editor, and by the write floor. */
async function writeRows(
  size: number,
  base: string,
  db: pg.Client,
  env: NodeJS.ProcessEnv,
  pid: number,
  authorization: string,
): Promise<Row[]> {
  const floorPort = await freePort()
  const floor = start(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'writeFloor.ts')],
    { ...env, PORT: String(floorPort) },
  )
  const rows: Row[] = []
  try {
    await waitForHealth(`http://127.0.0.1:${floorPort}`, 30_000)
    const targets = await writeTargets(db)
    for (const [scenario, url, path, writer, as] of [
      ['w. create event, editor', base, EVENT_LIST, pid, authorization],
      [
        'w. create event, write floor',
        `http://127.0.0.1:${floorPort}`,
        '/events',
        floor.pid!,
        undefined,
      ],
      ['w. update event, editor', base, EVENT_LIST, pid, authorization],
      [
        'w. update event, write floor',
        `http://127.0.0.1:${floorPort}`,
        '/events',
        floor.pid!,
        undefined,
      ],
    ] as const) {
      const requests = writeRequests(
        scenario.startsWith('w. create') ? 'create' : 'update',
        path,
        targets,
        as,
      )
      const row = {
        size,
        scenario,
        ...(await measure(
          {
            url,
            requests,
            queries: statements,
            timeout: WRITE_TIMEOUT_S,
            seconds: WRITE_SECONDS,
            settle: settled,
          },
          writer,
          db,
          duration,
        )),
      }
      console.error(JSON.stringify(row))
      rows.push(row)
      await settled(db)
    }
  } finally {
    await stop(floor)
  }
  return rows
}

/** The read scenarios (a to k), each a target and the process whose memory it watches. */
function readScenarios(
  base: string,
  sampleId: number,
  editor: Record<string, string> | undefined,
  appPid: number,
  floor: { port: number; pid: number },
): [string, Target, number][] {
  const window = `start_date=${dayOffset(0, 1)}&end_date=${dayOffset(0, 3)}`
  const payloadWindow = `where[status][equals]=publish&where[startLocal][greater_than_equal]=${dayOffset(-1)}%2000:00:00&where[endLocal][less_than_equal]=${dayOffset(0, 24)}%2023:59:59`
  return [
    ['a. namespace /events', { url: `${base}${EVENT_LIST}` }, appPid],
    [
      'b. /events window + category',
      { url: `${base}${EVENT_LIST}?${window}&categories=3` },
      appPid,
    ],
    ['c. /events/{id}', { url: `${base}${EVENT_LIST}/${sampleId}` }, appPid],
    ['d. /venues', { url: `${base}/api/cal/events/v1/venues` }, appPid],
    [
      'e. Payload /api/events depth=1',
      { url: `${base}/api/events?limit=10&depth=1&sort=startLocal&${payloadWindow}` },
      appPid,
    ],
    ['f. raw floor (node:http + 1 SQL)', { url: `http://127.0.0.1:${floor.port}/` }, floor.pid],
    [
      'f. raw floor, varied lists (h)',
      { url: `http://127.0.0.1:${floor.port}`, next: variedList },
      floor.pid,
    ],
    ...(editor
      ? ([
          [
            "f. raw floor, the editor's list (i)",
            { url: `http://127.0.0.1:${floor.port}${EVENT_LIST}`, headers: editor },
            floor.pid,
          ],
        ] satisfies [string, Target, number][])
      : []),
    // The default feed: every event of the default window, up to icalMaxEvents (1000), as iCalendar.
    ['g. iCalendar feed /events.ics', { url: `${base}${EVENT_LIST}.ics` }, appPid],
    [
      'j. /events/by-slug/{slug}',
      { url: `${base}${EVENT_LIST}/by-slug/event-${sampleId}` },
      appPid,
    ],
    ['k. /fr/ language root /events', { url: `${base}/fr${EVENT_LIST}` }, appPid],
    // Last: requests the load generator gives up on at the end of a scenario are still being made, and
    // at a million events those of (h) took the next scenario's machine for seconds.
    ['h. /events varied (page, terms, window, language)', { url: base, next: variedList }, appPid],
    ['i. /events signed-in editor', { url: `${base}${EVENT_LIST}`, headers: editor }, appPid],
    // (i) with five times the events: what each event of a made list costs beside the request.
    [
      'l. /events signed-in editor, 50 a page',
      { url: `${base}${EVENT_LIST}?per_page=50`, headers: editor },
      appPid,
    ],
  ]
}

/** The scenarios measured once per size after the load runs: imports, the admin, (a) after a write, series, overload. */
async function laterScenarios(
  size: number,
  base: string,
  db: pg.Client,
  sampleId: number,
  listUrl: string,
  editor: { Authorization: string } | undefined,
  appPid: number,
): Promise<void> {
  // A site import copies the whole dataset: measured on the run's smallest.
  if (selected('q.') && size === Math.min(...sizes)) await importRuns(size, base, appPid)
  if (selected('v.'))
    for (const figure of await adminOpenings(base, sampleId)) adminFigures.push([size, figure])
  if (!only || only.includes('a.'))
    afterWrite.push([size, await listAfterWrite(listUrl, db, sampleId)])
  if (!only || only.includes('s.')) {
    const series = await seriesWrites(base)
    seriesFigures.push([size, series.create.seconds, series.retitle.seconds])
  }
  if (!only || only.includes('o.'))
    await overloadScenarios({
      size,
      base,
      editor: editor?.Authorization ?? (await editorAuthorization(base)),
      adminToken: await adminToken(base),
      db,
    })
}

async function benchSize(size: number): Promise<Row[]> {
  const directory = datasetDirectory(size)
  const fresh = await startEmbeddedDatabase({ directory, fresh: true, unsafeFast: true })
  // Queries per write are PostgreSQL's own count, which needs its statistics loaded before anyone connects.
  const database = selected('w.') ? await withStatementCounts(fresh, directory) : fresh
  const { app, port, env } = await startApp(database, { overTcp })
  const db = new pg.Client({ connectionString: database.url })
  let floor: ChildProcess | undefined
  const rows: Row[] = []
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, 180_000)
    const generatedAt = Date.now()
    await generateDataset(database.url, size, { recurring })
    console.error(`${size} events generated in ${((Date.now() - generatedAt) / 1000).toFixed(1)} s`)
    await db.connect()
    const {
      rows: [sample],
    } = await db.query(
      `select id from events where status = 'publish' and not has_password and start > now() order by start limit 1`,
    )
    const floorPort = await freePort()
    floor = start(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'rawFloor.ts')], {
      ...env,
      PORT: String(floorPort),
    })
    const base = `http://127.0.0.1:${port}`
    const editor =
      selected('i.') || selected('l.') || selected('w.')
        ? { Authorization: await editorAuthorization(base) }
        : undefined
    const scenarios = readScenarios(base, sample.id, editor, app.pid!, {
      port: floorPort,
      pid: floor.pid!,
    })
    await waitForHealth(`http://127.0.0.1:${floorPort}`, 30_000).catch(() => undefined)
    if (selected('f.')) {
      const floorBase = `http://127.0.0.1:${floorPort}`
      await sameAnswers(base, floorBase, Array.from({ length: 60 }, variedList))
      if (editor)
        await sameAnswers(base, floorBase, [EVENT_LIST], { headers: editor, served: true })
    }
    for (const [scenario, target, pid] of scenarios.filter(([name]) => selected(name))) {
      const row = { size, scenario, ...(await measure(target, pid, db, duration)) }
      console.error(JSON.stringify(row))
      rows.push(row)
    }
    if (editor && selected('w.'))
      rows.push(...(await writeRows(size, base, db, env, app.pid!, editor.Authorization)))
    await laterScenarios(size, base, db, sample.id, scenarios[0]![1].url, editor, app.pid!)
  } finally {
    // The bench's connection and the floor's pool end before their cluster: stopped under them, the
    // cluster ends them with 57P01, and that client's error, unhandled, would end the bench with it
    // instead of with the failure that stopped the run.
    await db.end()
    if (floor) await stop(floor)
    await stop(app)
    await database.stop()
  }
  return rows
}

/** Slices of (a) per size for the p50 ratio of the sizes, the sizes taking turns: seconds per slice, and how many. */
const TURN = { seconds: 3, rounds: 8 }
/** Per size, the latencies (ms) of (a) served in its turns. */
const servedInTurns: Record<number, number[]> = {}

/**
 * The p50 of (a) at 1M against 10k (the run's largest size against its smallest): the two
 * datasets are served at once, by an app each, and (a) is run on them in turn, in short slices;
 * the p50 is taken over all the answers of each size's slices. Measured a quarter of an hour apart, as
 * the size blocks are, the same kept answer's p50 moved by up to 60% whatever the size; slices taken
 * in turn give both sizes the same machine (docs/performance.md, "Measuring").
 */
async function inTurns(compared: number[]): Promise<void> {
  const databases: EmbeddedDatabase[] = []
  const apps: ChildProcess[] = []
  const lists: { size: number; url: string }[] = []
  try {
    for (const size of compared) {
      const database = await startEmbeddedDatabase({
        directory: datasetDirectory(size),
        fresh: false,
        unsafeFast: true,
      })
      databases.push(database)
      const { app, port } = await startApp(database, { overTcp })
      apps.push(app)
      await waitForHealth(`http://127.0.0.1:${port}`, 180_000)
      const url = `http://127.0.0.1:${port}${EVENT_LIST}`
      await autocannon({ url, connections: CONNECTIONS, duration: 2 })
      lists.push({ size, url })
    }
    for (let round = 0; round < TURN.rounds; round++) {
      // Each size goes first in every other round, so that neither always follows the other's load.
      for (const { size, url } of round % 2 ? [...lists].reverse() : lists) {
        const { tally, setupClient } = responseTally()
        await autocannon({ url, connections: CONNECTIONS, duration: TURN.seconds, setupClient })
        ;(servedInTurns[size] ??= []).push(...tally.served)
        console.error(`(a) at ${size}, turn ${round + 1}: p50 ${percentile(tally.served, 0.5)} ms`)
      }
    }
  } finally {
    for (const app of apps) await stop(app)
    for (const database of databases) await database.stop()
  }
}

/** A peak resident set in MB, in bold with the target when over it. */
const flagged = (mb: number) => (mb > RSS_TARGET_MB ? `**${mb} > ${RSS_TARGET_MB}**` : String(mb))

function table(rows: Row[]): string {
  const lines = [
    '| events | scenario | served/s | p50 ms | p99 ms | errors | peak RSS MB | queries/req |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
  ]
  for (const r of rows) {
    lines.push(
      `| ${r.size.toLocaleString('en')} | ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${countOf(r.refused)} | ${flagged(r.rssMb)} | ${r.queries} |`,
    )
  }
  return lines.join('\n')
}

/** The reads' goals, as ratios within this run. */
function targets(rows: Row[]): string[] {
  const find = (size: number, prefix: string) =>
    rows.find((r) => r.size === size && r.scenario.startsWith(prefix))
  const notes: string[] = []
  for (const size of sizes) notes.push(...ratiosAt(rows, size))
  const small = find(10_000, 'a.')
  const large = find(1_000_000, 'a.')
  if (small && large)
    notes.push(
      `p50 of (a) at 1M / at 10k, a quarter of an hour apart: ${large.p50} / ${small.p50} ms = ${(large.p50 / Math.max(0.1, small.p50)).toFixed(2)}×`,
    )
  const [smallest, largest] = [Math.min(...sizes), Math.max(...sizes)]
  const [turnsSmall, turnsLarge] = [servedInTurns[smallest], servedInTurns[largest]]
  if (turnsSmall && turnsLarge) {
    const [p50Small, p50Large] = [percentile(turnsSmall, 0.5), percentile(turnsLarge, 0.5)]
    notes.push(
      `p50 of (a) at ${largest.toLocaleString('en')} / at ${smallest.toLocaleString('en')}, taking turns (${TURN.rounds} × ${TURN.seconds} s each): ${p50Large} / ${p50Small} ms = ${(p50Large / Math.max(0.1, p50Small)).toFixed(2)}× (target ≤ 1.1× at 1M / 10k)`,
    )
  }
  for (const row of rows.filter((r) => Object.keys(r.refused).length))
    notes.push(
      `not served in ${row.scenario.slice(0, 2)} at ${row.size.toLocaleString('en')}: ${Object.entries(
        row.refused,
      )
        .map(([status, n]) => `${n} × ${status === '0' ? 'transport error' : status}`)
        .join(', ')}`,
    )
  for (const [size, create, retitle] of seriesFigures)
    notes.push(
      `daily series of 730 occurrences at ${size.toLocaleString('en')}: created in ${create} s, parent retitled in ${retitle} s`,
    )
  notes.push(...overloadNotes())
  for (const [size, figure] of importFigures) {
    const {
      source,
      seconds,
      items,
      total,
      events,
      failed,
      finished,
      statements,
      rssMb,
      siteRssMb,
    } = figure
    notes.push(
      `import from ${source} (bench at ${size.toLocaleString('en')} events): ${events} events created, ${items} of ${total} items done (${failed} failed) in ${Math.round(seconds)} s${finished ? '' : ', stopped there'}: ${(events / seconds).toFixed(1)} events, ${(items / seconds).toFixed(1)} items a second, ${(statements / Math.max(items, 1)).toFixed(1)} statements an item; peak RSS ${flagged(rssMb)} importing${siteRssMb === undefined ? '' : `, ${flagged(siteRssMb)} the site read`}`,
    )
  }
  for (const [size, figure] of adminFigures)
    notes.push(
      `admin ${figure.page} in Chromium at ${size.toLocaleString('en')}, signed in, to a settled page (its last request, long task and largest paint over): median ${figure.medianMs} ms, slowest ${figure.slowestMs} ms of 5 (target < 1500); medians of the server's first byte ${figure.firstByteMs} ms, of the last request's end ${figure.lastRequestMs} ms, of the last long task's or paint's end ${figure.lastRenderMs} ms and of the settling seen (500 ms of quiet after it) ${figure.seenMs} ms; load average ${figure.loadAverage.toFixed(1)}; ${requestSummary(figure.requests)}`,
    )
  if (afterWrite.length)
    notes.push(
      `first (a) after a write on another connection, medians of 5: ${afterWrite.map(([size, { heardMs, latestMs, madeMs, staleReads }]) => `at ${size.toLocaleString('en')} the first answer showing it asked ${heardMs} ms after the commit, ${latestMs} ms at the latest (${staleReads} reads of 5 writes still showed the list before), made in ${madeMs} ms`).join('; ')}`,
    )
  // A run of the later scenarios alone (imports, the admin) has no load rows to report on.
  if (!rows.length) return notes
  const over = rows
    .filter((r) => r.rssMb > RSS_TARGET_MB)
    .map((r) => `${r.scenario} at ${r.size.toLocaleString('en')} ${r.rssMb} MB`)
  notes.push(
    `largest RSS under load: ${Math.max(...rows.map((r) => r.rssMb))} MB (target ≤ ${RSS_TARGET_MB} MB${over.length ? `; over it: ${over.join(', ')}` : ''}); errors: ${rows.reduce((n, r) => n + countOf(r.refused), 0)}`,
  )
  return notes
}

async function main(): Promise<void> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error('no production build: run `npm run build` first')
  const rows: Row[] = []
  for (const size of sizes) rows.push(...(await benchSize(size)))
  if (sizes.length > 1 && (!only || only.includes('a.')))
    await inTurns([Math.min(...sizes), Math.max(...sizes)])
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load generator (autocannon, ${CONNECTIONS} connections, ${duration} s per scenario after a warm-up) on the same machine`
  const report = [
    `# Benchmark ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC${recurring ? ' (half the events are occurrences of weekly series)' : ''}${overTcp ? ' (PostgreSQL over loopback TCP)' : ''}`,
    '',
    machine,
    '',
    table(rows),
    '',
    ...targets(rows).map((t) => `- ${t}`),
    '',
  ].join('\n')
  mkdirSync(path.join(root, 'bench', 'results'), { recursive: true })
  // The day's file keeps every run of the day, the newest first.
  const file = path.join(root, 'bench', 'results', `${new Date().toISOString().slice(0, 10)}.md`)
  writeFileSync(file, existsSync(file) ? `${report}\n${readFileSync(file, 'utf8')}` : report)
  console.log(report)
}

runMain(main)
