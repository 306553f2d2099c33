/**
 * `npm run import -- --csv <file> [--kind events|venues|organizers] [--status publish|draft]`: the
 * import the admin's Imports run on the jobs queue, run here against the service's database (through
 * the launcher). Prints progress per resource (done/total, rate, time left) and ends with what was
 * created, updated, unchanged and failed, each failure with its row and reason. It is recorded in
 * `imports` like the admin's runs. Exit code: 0 all imported, 1 some items failed, 2 the run failed.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { getPayload } from 'payload'
import config from '../payload.config'
import type { CsvKind } from '../src/calendar/csvColumns'
import { recordedImport } from '../src/imports/record'
import type { Progress } from '../src/imports/run'
import { CSV_KINDS, csvSource } from '../src/imports/sources/csv'

const usage = 'usage: npm run import -- --csv <file> [--kind events|venues|organizers] [--status publish|draft]'

function fail(message: string): never {
  console.error(message)
  process.exit(2)
}

const { values } = parseArgs({ options: { csv: { type: 'string' }, kind: { type: 'string' }, status: { type: 'string', default: 'publish' } } })
if (!values.csv) fail(usage)
if (values.kind && !CSV_KINDS.includes(values.kind as CsvKind)) fail(`--kind must be one of ${CSV_KINDS.join(', ')}\n${usage}`)
if (values.status !== 'publish' && values.status !== 'draft') fail(`--status must be publish or draft\n${usage}`)
const file = path.resolve(values.csv)
let text: string
try {
  text = readFileSync(file, 'utf8')
} catch (error) {
  fail(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
}
const kind = values.kind as CsvKind | undefined
const status = values.status

const seconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`)

function progressLine({ kind, done, total, since }: Progress): string {
  const elapsed = Date.now() - since
  const rate = elapsed > 0 ? (done * 1000) / elapsed : 0
  const left = rate > 0 ? seconds(((total - done) / rate) * 1000) : '?'
  return `${kind.padEnd(9)} ${done}/${total}  ${Math.round((done / Math.max(total, 1)) * 100)}%  ${rate.toFixed(1)}/s  ${done < total ? `about ${left} left` : `done in ${seconds(elapsed)}`}`
}

// On a terminal the line is rewritten in place; in a log, a line a second and one when a resource ends.
let printed = 0
function showProgress(progress: Progress): void {
  const finished = progress.done >= progress.total
  if (process.stdout.isTTY) {
    process.stdout.write(`\r${progressLine(progress)}\u001b[K${finished ? '\n' : ''}`)
  } else if (finished || Date.now() - printed >= 1000) {
    printed = Date.now()
    console.log(progressLine(progress))
  }
}

const payload = await getPayload({ config })
const started = Date.now()
const run = await payload.create({
  collection: 'imports',
  data: { source: 'csv', sourceFile: file, kind, createdStatus: status, status: 'running' },
  overrideAccess: true,
  depth: 0,
})
const report = await recordedImport(payload, run.id, () => csvSource(text, kind), { status, onProgress: showProgress })
const recorded = await payload.findByID({ collection: 'imports', id: run.id, overrideAccess: true, depth: 0 })
await payload.destroy()

if (!report) fail(`import ${run.id} failed: ${recorded.error}`)
console.log(`\nimport ${run.id} of ${file} in ${seconds(Date.now() - started)}`)
for (const [name, counts] of Object.entries(report.counts)) {
  if (Object.values(counts).some(Boolean)) {
    console.log(`${name.padEnd(9)} created ${counts.created}, updated ${counts.updated}, unchanged ${counts.unchanged}, failed ${counts.failed}`)
  }
}
for (const failure of report.failures) console.log(`failed: ${failure.kind} ${failure.item}: ${failure.reason}`)
process.exit(report.failures.length ? 1 : 0)
