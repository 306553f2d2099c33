/**
 * `npm run import -- --csv <file> | --from <site's REST API root> | --ics <file or URL>`: the import
 * the admin's Imports run on the jobs queue, run here against the service's database (through the
 * launcher). Prints a progress bar per resource (done/total, rate, time left) and ends with what was
 * created, updated, unchanged and failed, what it could not carry, each failure with its item and reason (docs/api.md §23). It
 * is recorded in `imports` like the admin's runs. Exit code: 0 all imported, 1 some items failed, 2
 * the run failed.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { getPayload } from 'payload'
import config from '../payload.config'
import type { CsvKind } from '../src/calendar/csvColumns'
import { readSettingsAtStart } from '../src/calendar/settings'
import { fileText } from '../src/calendar/fileText'
import { feedUrl, openSource, type SourceSpec } from '../src/imports/openSource'
import { noteLine, recordedImport } from '../src/imports/record'
import type { Progress } from '../src/imports/run'
import { CSV_KINDS } from '../src/imports/sources/csv'

const usage = `usage: npm run import -- --csv <file> [--kind events|venues|organizers] [--status publish|draft]
       npm run import -- --from <REST API root URL> [--auth <credentials>] [--trash] [--status publish|draft]
       npm run import -- --ics <file or URL> [--auth <credentials>] [--status publish|draft]
--auth: user:password (HTTP Basic), or a token with its scheme ("JWT <token>" for this service, "Bearer <token>")
--trash: a site's trashed events, venues and organizers too (needs --auth)`

function fail(message: string): never {
  console.error(message)
  process.exit(2)
}

const { values } = parseArgs({
  options: {
    csv: { type: 'string' },
    from: { type: 'string' },
    ics: { type: 'string' },
    auth: { type: 'string' },
    trash: { type: 'boolean', default: false },
    kind: { type: 'string' },
    status: { type: 'string', default: 'publish' },
  },
})
const given = [values.csv, values.from, values.ics].filter((value) => value !== undefined)
if (given.length !== 1) fail(usage)
if (values.trash && values.from === undefined) fail(`--trash is for a site (--from)\n${usage}`)
if (values.kind && !CSV_KINDS.includes(values.kind as CsvKind))
  fail(`--kind must be one of ${CSV_KINDS.join(', ')}\n${usage}`)
if (values.status !== 'publish' && values.status !== 'draft')
  fail(`--status must be publish or draft\n${usage}`)
const status = values.status
try {
  // The import's bounds (`IMPORT_*`), before anything is read or recorded.
  readSettingsAtStart(process.env)
} catch (error) {
  fail(error instanceof Error ? error.message : String(error))
}

function readText(file: string): string {
  try {
    return fileText(readFileSync(file))
  } catch (error) {
    fail(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** What to read, and how the run is recorded in `imports`. */
function sourceOf(): { spec: SourceSpec; record: Record<string, unknown>; name: string } {
  if (values.csv !== undefined) {
    const file = path.resolve(values.csv)
    const kind = values.kind as CsvKind | undefined
    return {
      spec: { format: 'csv', text: readText(file), kind },
      record: { source: 'csv', sourceFile: file, kind },
      name: file,
    }
  }
  if (values.from !== undefined) {
    return {
      spec: { format: 'site', url: values.from, credentials: values.auth, trash: values.trash },
      record: { source: 'site', sourceUrl: values.from, includeTrashed: values.trash },
      name: values.from,
    }
  }
  const ics = values.ics!
  if (/^(https?|webcals?):\/\//i.test(ics)) {
    return {
      spec: { format: 'ical', url: ics, credentials: values.auth },
      record: { source: 'ical', sourceUrl: feedUrl(ics) },
      name: ics,
    }
  }
  const file = path.resolve(ics)
  return {
    spec: { format: 'ical', text: readText(file) },
    record: { source: 'ical', sourceFile: file },
    name: file,
  }
}
const { spec, record, name } = sourceOf()

const seconds = (ms: number) =>
  ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`
const BAR = 24

function progressLine({ kind, done, total, since }: Progress): string {
  const elapsed = Date.now() - since
  const rate = elapsed > 0 ? (done * 1000) / elapsed : 0
  const left = rate > 0 ? seconds(((total - done) / rate) * 1000) : '?'
  const share = Math.min(done / Math.max(total, 1), 1)
  const bar = '#'.repeat(Math.round(share * BAR)).padEnd(BAR, '.')
  return `${kind.padEnd(9)} [${bar}] ${done}/${total}  ${Math.round(share * 100)}%  ${rate.toFixed(1)}/s  ${done < total ? `about ${left} left` : `done in ${seconds(elapsed)}`}`
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
  data: { ...record, createdStatus: status, status: 'running' } as never,
  overrideAccess: true,
  depth: 0,
})
const report = await recordedImport(payload, run.id, () => openSource(payload, spec), {
  status,
  onProgress: showProgress,
})
const recorded = await payload.findByID({
  collection: 'imports',
  id: run.id,
  overrideAccess: true,
  depth: 0,
})
await payload.destroy()

if (!report) fail(`import ${run.id} failed: ${recorded.error}`)
console.log(`\nimport ${run.id} of ${name} in ${seconds(Date.now() - started)}`)
for (const [kind, counts] of Object.entries(report.counts)) {
  if (Object.values(counts).some(Boolean)) {
    const trashed = counts.trashed ? `, trashed ${counts.trashed}` : ''
    console.log(
      `${kind.padEnd(9)} created ${counts.created}, updated ${counts.updated}, unchanged ${counts.unchanged}${trashed}, failed ${counts.failed}`,
    )
  }
}
for (const note of report.notes) console.log(`not carried: ${noteLine(note)}`)
for (const failure of report.failures)
  console.log(`failed: ${failure.kind} ${failure.item}: ${failure.reason}`)
process.exit(report.failures.length ? 1 : 0)
