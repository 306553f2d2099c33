/**
 * Runs imports the two ways an operator does: an upload to the `imports` collection run by the jobs
 * queue (over HTTP, as the admin's Import screen does), and `npm run import`'s script on the test
 * database, which a test may kill midway.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { expect } from 'vitest'
import { CONFIG_LOADING_OPTIONS } from '../../scripts/configLoading'
import { SCRIPT_BUNDLES } from '../../scripts/productionServer'
import { afterQueueRuns, asAdmin, BASE_URL, call } from './api'
import { api } from './writeFixtures'

const root = path.resolve(import.meta.dirname, '..', '..')

/** How long one import may take on the queue; the test's own timeout bounds it first. */
const IMPORT_RUN_MS = 600_000

export type ImportRecord = {
  id: number
  status: 'queued' | 'running' | 'done' | 'failed'
  created: number
  updated: number
  unchanged: number
  trashed: number
  failed: number
  done: number
  total: number
  failures: { item: string; reason: string }[]
  error: string | null
}

/** Uploads a CSV as an import, runs the jobs queue until the import has run, and returns its record. */
export async function importThroughQueue(
  csv: string | Uint8Array<ArrayBuffer>,
  fields: { kind?: string; createdStatus?: string } = {},
): Promise<ImportRecord> {
  const form = new FormData()
  form.append('file', new Blob([csv], { type: 'text/csv' }), `import-${Date.now()}.csv`)
  form.append('_payload', JSON.stringify(fields))
  return queuedImport(form)
}

/** Saves an import (a multipart upload, or the fields of a URL's), runs the jobs queue until it has run, and returns its record. */
export async function queuedImport(
  body: FormData | Record<string, unknown>,
): Promise<ImportRecord> {
  const token = await asAdmin()
  const created = await call('/api/imports', {
    method: 'POST',
    token,
    ...(body instanceof FormData ? { body } : { json: body }),
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const id = created.body.doc.id as number
  let record: ImportRecord | undefined
  await afterQueueRuns(
    token,
    async () => (record = (await call<ImportRecord>(`/api/imports/${id}?depth=0`, { token })).body),
    IMPORT_RUN_MS,
  ).toSatisfy((run: ImportRecord) => run.status === 'done' || run.status === 'failed')
  return record!
}

export type CliRun = { code: number | null; signal: NodeJS.Signals | null; output: string }

/** Exit codes of a run whose loader stalled while importing the config (scripts/configLoading.ts). */
const STALLED = [75, 13]

/**
 * Whether to kill a run now (SIGKILL, as a crash would), asked every 20 ms while it runs. It watches
 * what the run has written, not what it prints: a run logs a line a second, which on a fast machine
 * comes after the whole import.
 */
export type KillWhen = () => Promise<boolean>

/** `npm run import`'s script (as the test run built it) with these arguments, on the test database, killed when `killWhen` says. */
export async function runImportCli(
  args: string[],
  killWhen?: KillWhen,
  env: Record<string, string> = {},
): Promise<CliRun> {
  for (let attempt = 1; ; attempt++) {
    const run = await runOnce(args, killWhen, env)
    if (!STALLED.includes(run.code ?? -1) || attempt === 5) return run
  }
}

function runOnce(
  args: string[],
  killWhen: KillWhen | undefined,
  env: Record<string, string>,
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...CONFIG_LOADING_OPTIONS, SCRIPT_BUNDLES.import.outfile, ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          JOBS_AUTORUN: 'false',
          SERVER_URL: BASE_URL,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    let running = true
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    if (killWhen) {
      void (async () => {
        while (running) {
          // A failed look (a refused or reset request) is not a reason to kill, nor to stop looking.
          if (await killWhen().catch(() => false)) {
            child.kill('SIGKILL')
            return
          }
          await new Promise((wake) => setTimeout(wake, 20))
        }
      })()
    }
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on('exit', (code, signal) => {
      running = false
      resolve({ code, signal, output })
    })
  })
}

/** The counts `npm run import` printed for `kind` (`event`, `venue`...): created, updated, unchanged, failed. */
export const importCounts = (output: string, kind: string) =>
  new RegExp(
    `^${kind}\\s+created (\\d+), updated (\\d+), unchanged (\\d+)(?:, trashed \\d+)?, failed (\\d+)$`,
    'm',
  )
    .exec(output)
    ?.slice(1)
    .map(Number)

/** The events of any status whose text has `words`, in the date window `window` (a query string), as the administrator lists them. */
export async function eventsMatching(
  words: string,
  window = 'start_date=2020-01-01&end_date=2040-01-01',
): Promise<any[]> {
  const reply = await api(
    `/events?search=${encodeURIComponent(words)}&${window}&per_page=50&status=publish,future,draft,pending,private`,
    { token: await asAdmin() },
  )
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.events
}
