import { open, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { CollectionBeforeOperationHook } from 'payload'
import { fileText, isUtf16 } from '../calendar/fileText'
import { dataDirectory } from '../database/dataDirectory'
import { HORIZON_JOB } from '../globals/Settings'
import * as importRun from './fields/importRun'
import { missingFileNotFound } from './missingFile'

/** The jobs-queue task that runs an import (docs/api.md §23), on the calendar's queue. */
export const IMPORT_JOB = { task: 'importCalendar', queue: HORIZON_JOB.queue } as const

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const
export type ImportStatus = (typeof IMPORT_STATUSES)[number]

/**
 * A UTF-16 file (Excel's "Unicode text") is stored as UTF-8: Payload's upload check reads its
 * byte-order mark as the start of an MPEG audio frame and refused it as `audio/mpeg`. Other files
 * are stored as they came, and read in their encoding when the import runs (`fileText`).
 */
const storedAsUtf8: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  const file = req.file
  if ((operation !== 'create' && operation !== 'update') || !file) return args
  // An app that keeps uploads in temporary files (Payload's `upload.useTempFiles`) has them on the disk.
  const onDisk = !file.data?.length && file.tempFilePath ? file.tempFilePath : undefined
  if (!isUtf16(onDisk ? await firstBytes(onDisk, 2) : file.data)) return args
  const text = Buffer.from(fileText(onDisk ? await readFile(onDisk) : file.data))
  if (onDisk) await writeFile(onDisk, text)
  else file.data = text
  file.size = text.length
  return args
}

async function firstBytes(file: string, count: number): Promise<Uint8Array> {
  const handle = await open(file)
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(count), 0, count, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** A run saved as Queued (a new upload, or one set back to Queued to run it again) goes on the jobs queue. */
const queuedRun = ({ doc, previousDoc, operation }: importRun.RecordChange) =>
  doc.status === 'queued' && (operation === 'create' || previousDoc?.status !== 'queued')
    ? { importId: doc.id }
    : null

/**
 * Import runs, administrators only: an uploaded CSV file (or the file the CLI was given) and what
 * its import did. Saving a new one queues its import; the admin's screen for imports is this
 * collection's edit view.
 */
export const Imports = importRun.importRecords(IMPORT_JOB, queuedRun, {
  slug: 'imports',
  labels: { singular: 'Import', plural: 'Imports' },
  admin: {
    useAsTitle: 'sourceFile',
    defaultColumns: [
      'sourceFile',
      'kind',
      'status',
      'created',
      'updated',
      'unchanged',
      'failed',
      'createdAt',
    ],
    description:
      'Upload a CSV file (docs/api.md §23.3) or an iCalendar file, or give the URL of another calendar site’s REST API or of an iCalendar feed, and save: the import runs on the jobs queue within a minute. To run one again, set its status to Queued and save.',
  },
  upload: {
    staticDir: path.join(dataDirectory(), 'imports'),
    mimeTypes: ['text/csv', 'text/plain', 'application/vnd.ms-excel', 'text/calendar'],
    // The CLI records its runs here without uploading the file it read.
    filesRequiredOnCreate: false,
    handlers: [missingFileNotFound],
  },
  hooks: {
    beforeOperation: [storedAsUtf8],
    beforeChange: [
      ({ data, req }) => {
        if (req.file?.name && !data.sourceFile) data.sourceFile = req.file.name
        return data
      },
    ],
  },
  fields: [
    importRun.choiceField('source', 'csv', {
      csv: 'CSV file',
      site: 'Calendar site (REST API v1)',
      ical: 'iCalendar file or feed',
    }),
    {
      name: 'sourceFile',
      label: 'File',
      type: 'text',
      admin: { readOnly: true, description: 'The file the run read.' },
    },
    {
      name: 'sourceUrl',
      label: 'URL',
      type: 'text',
      validate: (
        value: string | null | undefined,
        { siblingData }: { siblingData: Record<string, unknown> },
      ) => {
        if (!value)
          return siblingData.source !== 'site' || 'A site import needs the URL of its REST API.'
        return importRun.isImportUrl(value) || 'An http(s) URL (webcal:// for a feed).'
      },
      admin: {
        condition: (data) => data.source === 'site' || data.source === 'ical',
        description:
          'A calendar site: the root of its REST API v1 (this service’s /api/cal/events/v1, or that of a WordPress site running the upstream plugin; docs/api.md §23.5). An iCalendar feed: its URL (or upload the file instead).',
      },
    },
    importRun.credentialsField({
      condition: (data) => data.source === 'site' || data.source === 'ical',
      description:
        'Optional. user:password (HTTP Basic, a WordPress application password), or a token with its scheme (JWT …, Bearer …); with them a site import also copies drafts, pending, private and scheduled items and passwords.',
    }),
    {
      name: 'includeTrashed',
      label: 'Copy trashed items',
      type: 'checkbox',
      defaultValue: false,
      admin: {
        condition: (data) => data.source === 'site',
        description:
          'Also copy the site’s trashed events, venues and organizers, into the trash here (needs credentials that may edit them).',
      },
    },
    {
      name: 'kind',
      type: 'select',
      options: importRun.capitalizedOptions(['events', 'venues', 'organizers']),
      admin: {
        condition: (data) => !data.source || data.source === 'csv',
        description:
          'What the file holds; empty: recognised by its name column (Event Name, Venue Name, Organizer Name).',
      },
    },
    importRun.createdStatusField(
      'Events, venues and organizers the import creates get it; those it updates keep theirs.',
    ),
    {
      ...importRun.choiceField(
        'status',
        'queued',
        Object.fromEntries(
          importRun.capitalizedOptions(IMPORT_STATUSES).map(({ value, label }) => [value, label]),
        ),
      ),
      admin: { position: 'sidebar' },
    },
    {
      type: 'row',
      fields: [
        importRun.countField('done', 'Items done'),
        importRun.countField('total', 'Items in all'),
      ],
    },
    ...importRun.outcomeFields('Each failed item and why', 'Why the run stopped, when it did.'),
    {
      name: 'notes',
      label: 'Not carried',
      type: 'textarea',
      admin: {
        readOnly: true,
        description:
          'What the source had that the import could not carry: one line per item or kind of thing.',
      },
    },
    importRun.runTimeField('startedAt'),
    importRun.runTimeField('finishedAt'),
  ],
})
