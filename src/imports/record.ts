/**
 * A run as the `imports` collection records it: running with its progress (every few seconds), then
 * done with its counts and failures, or failed with the reason the run stopped. The jobs task and the
 * CLI both run imports through here.
 */
import type { Payload } from 'payload'
import { withoutControlCharacters } from '../calendar/controlCharacters'
import { idOf } from '../calendar/relationId'
import { isConnectionLoss } from '../database/connectionErrors'
import type { ImportStatus } from '../collections/Imports'
import { KEPT_FAILURES } from '../collections/fields/importRun'
import type { ImportSource } from './items'
import { runImport, type ImportOptions, type ImportReport, type Note, type Progress } from './run'

const PROGRESS_EVERY_MS = 2000

type Totals = {
  created: number
  updated: number
  unchanged: number
  trashed: number
  failed: number
}

export function totalsOf(report: ImportReport): Totals {
  const totals = { created: 0, updated: 0, unchanged: 0, trashed: 0, failed: 0 }
  for (const counts of Object.values(report.counts))
    for (const key of Object.keys(totals) as (keyof Totals)[]) totals[key] += counts[key]
  return totals
}

/** The most a record's text field takes: Payload's limit (`defaultMaxTextLength`) with room to spare. */
const MAX_RECORD_TEXT = 30_000
const MAX_LABEL = 200
const MAX_LINE = 1000

/**
 * Text from a source as a record keeps it. A label or a reason quotes the source (an event's title,
 * a value), which may be of any length or hold a NUL: one such item made the run's last write of its
 * record fail, so a run that had imported everything else read as failed, its counts and failures
 * lost. Control characters go (tabs and line ends stay), and the text is cut at `max` characters.
 */
export function recordText(text: string, max: number): string {
  const clean = withoutControlCharacters(text)
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

/** A thing the run could not carry, as one line: `event 12 (Jazz night): …`, or the source's own. */
export const noteLine = (note: Note) =>
  recordText(
    note.item ? `${recordText(`${note.kind} ${note.item}`, MAX_LABEL)}: ${note.note}` : note.note,
    MAX_LINE,
  )

/** What the run could not carry, one line each (the first KEPT_FAILURES). */
export function notesOf(report: ImportReport): string {
  return recordText(report.notes.slice(0, KEPT_FAILURES).map(noteLine).join('\n'), MAX_RECORD_TEXT)
}

/** The failed items a record keeps, with their reasons. */
export function failuresOf(report: ImportReport): { item: string; reason: string }[] {
  return report.failures.slice(0, KEPT_FAILURES).map((failure) => ({
    item: recordText(`${failure.kind} ${failure.item}`, MAX_LABEL),
    reason: recordText(failure.reason, MAX_LINE),
  }))
}

/** Why a run stopped, as its record keeps it. */
export const errorText = (error: unknown) =>
  recordText(error instanceof Error ? error.message : String(error), MAX_RECORD_TEXT)

/** Writes what a run did into its record: a run's, or a subscription's. */
export async function record(
  payload: Payload,
  collection: 'imports' | 'import-subscriptions',
  id: number,
  data: Record<string, unknown>,
): Promise<void> {
  await payload.update({ collection, id, data: data as never, overrideAccess: true, depth: 0 })
}

/** The administrator who saved a run or subscription, whom its import writes as (none, if deleted since). */
export async function authorOf(
  payload: Payload,
  createdBy: unknown,
): Promise<ImportOptions['user']> {
  const authorId = idOf(createdBy)
  const author = authorId
    ? await payload.findByID({
        collection: 'users',
        id: authorId,
        overrideAccess: true,
        depth: 0,
        disableErrors: true,
      })
    : null
  return author ? { ...author, collection: 'users' } : undefined
}

/**
 * Runs the import of a recorded run. A source that cannot be read, or a run that fails, is recorded
 * as failed with its reason; a lost database is thrown after that (when it can still be written), so
 * the jobs queue tries the run again.
 */
export async function recordedImport(
  payload: Payload,
  id: number,
  openSource: () => ImportSource | Promise<ImportSource>,
  options: Omit<ImportOptions, 'payload' | 'source'>,
): Promise<ImportReport | undefined> {
  await record(payload, 'imports', id, {
    status: 'running' satisfies ImportStatus,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    error: null,
    failures: [],
    notes: null,
  })
  try {
    const source = await openSource()
    const total = Object.values(source.totals).reduce((sum, n) => sum + n, 0)
    let done = 0
    const counted = (report: ImportReport) => ({ ...totalsOf(report), total, done })
    let recorded = Date.now()
    const onProgress = async (progress: Progress) => {
      done++
      await options.onProgress?.(progress)
      if (Date.now() - recorded < PROGRESS_EVERY_MS) return
      recorded = Date.now()
      await record(payload, 'imports', id, counted(progress.report))
    }
    const report = await runImport({ ...options, payload, source, onProgress })
    await record(payload, 'imports', id, {
      ...counted(report),
      status: (report.stopped ? 'failed' : 'done') satisfies ImportStatus,
      error: report.stopped ? 'Stopped before the end; run it again to finish.' : null,
      failures: failuresOf(report),
      notes: notesOf(report) || null,
      finishedAt: new Date().toISOString(),
    })
    return report
  } catch (error) {
    await record(payload, 'imports', id, {
      status: 'failed' satisfies ImportStatus,
      error: errorText(error),
      finishedAt: new Date().toISOString(),
    }).catch(() => undefined)
    if (isConnectionLoss(error)) throw error
    return undefined
  }
}
