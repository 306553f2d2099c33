import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Payload } from 'payload'
import type { Import } from '../payload-types'
import { fileText } from '../calendar/fileText'
import { openSource, type SourceSpec } from './openSource'
import { authorOf, recordedImport } from './record'

/** The uploaded file of a run, where the `imports` collection keeps its uploads. */
async function uploadedFile(payload: Payload, run: Import): Promise<string> {
  const upload = payload.collections.imports.config.upload
  if (!run.filename || !upload.staticDir) throw new Error('This import has no uploaded file.')
  return fileText(await readFile(path.join(upload.staticDir, run.filename)))
}

/** What a recorded run reads: its uploaded file (a `.ics` one is iCalendar whatever the source says), or its URL. */
async function specOf(payload: Payload, run: Import): Promise<SourceSpec> {
  const credentials = run.credentials || undefined
  if (run.source === 'site')
    return {
      format: 'site',
      url: run.sourceUrl ?? undefined,
      credentials,
      trash: Boolean(run.includeTrashed),
    }
  const file = run.filename ? await uploadedFile(payload, run) : undefined
  if (run.source === 'ical' || /\.ics$/i.test(run.filename ?? ''))
    return { format: 'ical', text: file, url: run.sourceUrl ?? undefined, credentials }
  return {
    format: 'csv',
    text: file ?? (await uploadedFile(payload, run)),
    kind: run.kind ?? undefined,
  }
}

/**
 * Runs an import recorded in `imports` (docs/api.md §23) as its author, with the status it asked
 * for; whether it finished.
 */
export async function runRecorded(payload: Payload, importId: number): Promise<boolean> {
  const run = await payload.findByID({
    collection: 'imports',
    id: importId,
    overrideAccess: true,
    depth: 0,
  })
  const report = await recordedImport(
    payload,
    run.id,
    async () => openSource(payload, await specOf(payload, run)),
    {
      status: run.createdStatus,
      user: await authorOf(payload, run.createdBy),
    },
  )
  return Boolean(report)
}
