import { readFileSync } from 'node:fs'
import pg from 'pg'
import type { Ack, Kind, LoadResult, Sample } from './load'
import type { Stack } from './stack'

type Phase = 'before the kill' | 'database away' | 'after the restart'
const PHASES: Phase[] = ['before the kill', 'database away', 'after the restart']
const KINDS: Kind[] = ['write', 'read (anonymous)', 'read (signed in)', 'health']

/** A load whose fault struck: the database was killed and came back. */
export type FaultedLoad = LoadResult & { killedAt: number; restartedAt: number }

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

const statusOf = (sample: Sample) =>
  sample.status === 0
    ? `no answer`
    : sample.code && sample.status >= 400 && sample.kind !== 'health'
      ? `${sample.status} ${sample.code}`
      : String(sample.status)

/** Requests by phase and status. */
function phaseTable(samples: Sample[], phaseOf: (at: number) => Phase): string[][] {
  const statusNames = [...new Set(samples.map(statusOf))].sort()
  const byPhase = [['phase / kind', ...statusNames, 'total']]
  for (const phase of PHASES) {
    for (const kind of KINDS) {
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
  return byPhase
}

/** Recovery: first success of each kind that started after the restart, and the last failure. */
function recoveryOf(samples: Sample[], restartedAt: number) {
  const recovery = KINDS.map((kind) => {
    const first = samples
      .filter(
        (sample) =>
          sample.kind === kind &&
          sample.started >= restartedAt &&
          sample.status >= 200 &&
          sample.status < 300,
      )
      .sort((a, b) => a.ended - b.ended)[0]
    return [kind, first ? `${((first.ended - restartedAt) / 1000).toFixed(2)} s` : 'never']
  })
  const lastFailure = samples
    .filter(
      (sample) => sample.started >= restartedAt && (sample.status >= 500 || sample.status === 0),
    )
    .sort((a, b) => b.ended - a.ended)[0]
  return { recovery, lastFailure }
}

/** Acknowledged writes against the database. */
async function storedWrites(databaseUrl: string, run: string, acks: Ack[]) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const stored = await client.query<{ id: number; title: string }>(
    `select e.id, l.title from events e join events_locales l on l._parent_id = e.id and l._locale = 'en' where l.title like $1`,
    [`fault ${run} %`],
  )
  await client.end()
  const byId = new Map(stored.rows.map((row) => [row.id, row.title]))
  const titles = stored.rows.map((row) => row.title)
  const missing = acks.filter((ack) => byId.get(ack.id) !== ack.title)
  const duplicated = [...new Set(titles.filter((title, n) => titles.indexOf(title) !== n))]
  const acknowledgedTitles = new Set(acks.map((ack) => ack.title))
  const unacknowledgedPresent = titles.filter((title) => !acknowledgedTitles.has(title))
  return { missing, duplicated, unacknowledgedPresent }
}

/** The answers while the database was away, and every answer that was neither 2xx nor 503. */
function answersOf(samples: Sample[], phaseOf: (at: number) => Phase) {
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
  return { awayStatuses, wrong, wrongKinds, unavailableWhileAway }
}

/** The stack under test and the run's id, which the titles of its writes carry. */
type Run = Stack & { run: string }

type Findings = {
  answers: ReturnType<typeof answersOf>
  recovery: ReturnType<typeof recoveryOf>
  writes: Awaited<ReturnType<typeof storedWrites>>
  appStillUp: boolean
  uncaught: number
}

function printAnswers(stack: Run, load: FaultedLoad, byPhase: string[][], found: Findings) {
  const { samples, t0, killedAt, restartedAt } = load
  const { awayStatuses, wrong, wrongKinds } = found.answers
  console.log(
    `\n=== fault run ${stack.run}: ${samples.length} requests in ${((Date.now() - t0) / 1000).toFixed(0)} s; database killed at +${((killedAt - t0) / 1000).toFixed(1)} s, back at +${((restartedAt - t0) / 1000).toFixed(1)} s ===\n`,
  )
  console.log(table(byPhase))
  console.log(
    `\nwhile the database was away (${((restartedAt - killedAt) / 1000).toFixed(1)} s), requests answered: ${[...awayStatuses.entries()].map(([name, count]) => `${name} × ${count}`).join(', ') || 'none'}`,
  )
  console.log(
    `answers other than 2xx or 503: ${wrong.length}${[...wrongKinds.entries()].map(([kind, count]) => `\n  ${count} × ${kind}`).join('')}`,
  )
  console.log(
    `\ntime to recovery after PostgreSQL was back (no app restart; app pid ${stack.appPid} ${found.appStillUp ? 'still serving' : `NOT serving: ${stack.appExited() ?? 'pid changed'}`}):`,
  )
  console.log(table([['first success of', 'after'], ...found.recovery.recovery]))
  console.log(`uncaught exceptions in the app's log (${stack.appLogPath}): ${found.uncaught}`)
  const { lastFailure } = found.recovery
  if (lastFailure)
    console.log(
      `last failure after the restart: ${lastFailure.kind} ${statusOf(lastFailure)} at +${((lastFailure.ended - restartedAt) / 1000).toFixed(2)} s`,
    )
}

function printWrites(
  load: FaultedLoad,
  { missing, duplicated, unacknowledgedPresent }: Findings['writes'],
) {
  const { acks, attempted } = load
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
}

/** Prints the run's report and returns its exit code: 0 when every promise was kept, else 1. */
export async function report(
  stack: Run,
  load: FaultedLoad,
  lateRecovery: boolean,
): Promise<number> {
  const { killedAt, restartedAt } = load
  const phaseOf = (at: number): Phase =>
    at < killedAt ? 'before the kill' : at < restartedAt ? 'database away' : 'after the restart'
  const byPhase = phaseTable(load.samples, phaseOf)
  const found: Findings = {
    recovery: recoveryOf(load.samples, restartedAt),
    writes: await storedWrites(stack.databaseUrl, stack.run, load.acks),
    answers: answersOf(load.samples, phaseOf),
    appStillUp: stack.app.exitCode === null && stack.app.pid === stack.appPid && !stack.appExited(),
    // Next.js logs an uncaught exception and keeps serving; a plain Node process would have died of it.
    uncaught: (
      readFileSync(stack.appLogPath, 'utf8').match(/uncaughtException|unhandledRejection/g) ?? []
    ).length,
  }
  printAnswers(stack, load, byPhase, found)
  printWrites(load, found.writes)

  const { missing, duplicated } = found.writes
  const recovered =
    found.recovery.recovery.find(([kind]) => kind === 'write')?.[1] !== 'never' && lateRecovery
  const failures = [
    missing.length && 'acknowledged writes missing',
    duplicated.length && 'duplicates',
    found.answers.wrong.length && 'answers other than 2xx or 503',
    !found.answers.unavailableWhileAway && 'no 503 while the database was away',
    !recovered && 'no recovery',
    !found.appStillUp && 'the app did not survive',
    found.uncaught && 'uncaught exceptions',
  ].filter(Boolean)
  const ok = failures.length === 0
  console.log(`\nresult: ${ok ? 'PASS' : `FAIL (${failures.join(', ')})`}`)
  return ok ? 0 : 1
}
