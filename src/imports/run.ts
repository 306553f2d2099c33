/**
 * The import core, the same for every source and for both ways of starting a run (the jobs queue,
 * the CLI): each item is created, updated or left as it is in a transaction of its own with its
 * mapping, so a run stopped anywhere (killed, a lost database) leaves whole items only, and the next
 * run of the source skips what was done (docs/api.md §23).
 */
import { createHash } from 'node:crypto'
import { createLocalReq, type Payload, type PayloadRequest } from 'payload'
import { prefetchImage } from '../collections/mediaFromUrl'
import { isConnectionLoss } from '../database/connectionErrors'
import { exclusively } from '../database/exclusive'
import { inTransaction } from '../database/transaction'
import { siteSettings, type SiteSettings } from '../globals/siteSettings'
import type { LanguageCode } from '../i18n/languages'
import { storedItem } from '../operations/authored/item'
import { trashAuthored } from '../operations/authored/trash'
import { Refusal } from '../operations/refusal'
import { calendarRuntime } from '../options'
import { changes } from './changes'
import { importAllowsPrivate, REFUSED_NOTE } from './guard'
import { importWriter } from './importWriter'
import { itemData, ItemError, translationData } from './itemInput'
import { IMPORT_KINDS, type ImportKind, type ImportSource, type SourceItem } from './items'
import {
  createLocal,
  localState,
  matchLocal,
  readLocal,
  updateLocal,
  type ItemContext,
} from './localItems'
import { findMapping, mappingsOf, recordMapping } from './mapping'

export type Outcome = 'created' | 'updated' | 'unchanged'
export type Counts = Record<Outcome | 'trashed' | 'failed', number>
export type Failure = { kind: ImportKind; item: string; reason: string }

/** Something the source had that the run did not carry: of one item, or (`item` empty) of the source. */
export type Note = { kind: ImportKind | 'source'; item: string; note: string }

export type ImportReport = {
  counts: Record<ImportKind, Counts>
  failures: Failure[]
  notes: Note[]
  /** The run was stopped (its signal aborted) before the source's end. */
  stopped: boolean
}

export type Progress = {
  kind: ImportKind
  /** Items of this kind handled, failed ones included, and how many the source has. */
  done: number
  total: number
  /** When this kind's first item started (ms since the epoch). */
  since: number
  report: ImportReport
}

export type ImportOptions = {
  payload: Payload
  source: ImportSource
  /** The status of the events, venues and organizers the run creates (default `publish`); updates keep theirs. */
  status?: 'publish' | 'draft'
  /** Who runs it: the author of what it creates. */
  user?: PayloadRequest['user']
  onProgress?: (progress: Progress) => void | Promise<void>
  /** Checked between items: an aborted run ends after the item under way, with `stopped`. */
  signal?: AbortSignal
  /** Local categories every event gets besides its own (a subscription's default categories). */
  defaultCategories?: number[]
  /**
   * Trash the events this source imported before that it no longer yields (a subscription's feed),
   * once it has been read to its end.
   */
  trashMissing?: boolean
}

export function emptyReport(): ImportReport {
  const counts = Object.fromEntries(
    IMPORT_KINDS.map((kind) => [
      kind,
      { created: 0, updated: 0, unchanged: 0, trashed: 0, failed: 0 },
    ]),
  )
  return { counts: counts as ImportReport['counts'], failures: [], notes: [], stopped: false }
}

/**
 * Imports everything a source yields. An item that fails is reported with its reason and the run goes
 * on; only a lost database ends it (thrown: the run can be started again). Runs of the same source wait
 * for each other, so two never create the same item.
 */
export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const { payload, source, user } = options
  return exclusively(payload, `calendar-import ${source.name}`, async () => {
    const base = await createLocalReq({ user: user ?? undefined }, payload)
    const settings = await siteSettings(base, calendarRuntime(payload.config).settingsGlobal)
    const origins = [settings.siteUrl, payload.config.serverURL]
      .filter(Boolean)
      .map((url) => new URL(url).origin)
    const report = emptyReport()
    const done: Partial<Record<ImportKind, { count: number; since: number }>> = {}
    const seenEvents = new Set<string>()
    const extraCategories = options.defaultCategories ?? []
    for await (const item of source.items()) {
      if (options.signal?.aborted) {
        report.stopped = true
        break
      }
      const progress = (done[item.kind] ??= { count: 0, since: Date.now() })
      const counts = report.counts[item.kind]
      if (item.kind === 'event' && item.sourceId !== undefined) seenEvents.add(item.sourceId)
      if ('error' in item) {
        counts.failed++
        report.failures.push({ kind: item.kind, item: item.label, reason: item.error })
      } else {
        const req = await createLocalReq({ user: user ?? undefined }, payload)
        const ctx: ItemContext = {
          req,
          writer: importWriter(req, settings, origins[0] ?? ''),
          source: source.name,
          status: options.status ?? 'publish',
          origins,
          madeFromLinks: [],
          allowPrivateImages: importAllowsPrivate(),
          extraCategories,
          restoreTrashed: Boolean(options.trashMissing),
          matchByName: source.matchByName,
          notes: [],
        }
        try {
          await prefetchItemImage(ctx, item)
          counts[await inTransaction(req, () => importItem(ctx, item))]++
          for (const kind of ctx.madeFromLinks) report.counts[kind].created++
          for (const note of [...(item.notes ?? []), ...ctx.notes])
            report.notes.push({ kind: item.kind, item: item.label, note })
        } catch (error) {
          if (!(error instanceof ItemError) && isConnectionLoss(error)) throw error
          counts.failed++
          report.failures.push({ kind: item.kind, item: item.label, reason: reasonOf(error) })
        }
      }
      progress.count++
      await options.onProgress?.({
        kind: item.kind,
        done: progress.count,
        total: source.totals[item.kind] ?? progress.count,
        since: progress.since,
        report,
      })
    }
    if (options.trashMissing && !report.stopped && source.complete?.() !== false)
      await trashMissing(
        { payload, user, settings, root: origins[0] ?? '' },
        source.name,
        seenEvents,
        report,
      )
    for (const note of source.notes?.() ?? []) report.notes.push({ kind: 'source', item: '', note })
    return report
  })
}

/** An item's image not yet downloaded for this source is downloaded before its transaction opens: no database connection waits on another server. */
async function prefetchItemImage(ctx: ItemContext, item: SourceItem): Promise<void> {
  const image = 'image' in item ? item.image : undefined
  if (
    typeof image === 'string' &&
    /^https?:\/\//i.test(image) &&
    !(await findMapping(ctx.req, ctx.source, 'image', image))
  )
    await prefetchImage(ctx.req, image, {
      allowPrivate: ctx.allowPrivateImages,
      refusedNote: REFUSED_NOTE,
    })
}

/** Who trashes what left a mirrored source, and where. */
type Trasher = {
  payload: Payload
  user: ImportOptions['user']
  settings: SiteSettings
  root: string
}

/** The events a source imported before and no longer yields go to the trash (a series' first event takes its occurrences). */
async function trashMissing(
  trasher: Trasher,
  source: string,
  seen: Set<string>,
  report: ImportReport,
): Promise<void> {
  const { payload, user } = trasher
  for (const { sourceId, localId } of await mappingsOf(payload, source, 'event')) {
    if (seen.has(sourceId)) continue
    const req = await createLocalReq({ user: user ?? undefined }, payload)
    const writer = importWriter(req, trasher.settings, trasher.root)
    try {
      const trashed = await inTransaction(req, async () => {
        const stored = await storedItem(writer, 'events', localId)
        if (!stored || stored.status === 'trash') return 0
        await trashAuthored(writer, 'events', stored)
        return 1
      })
      report.counts.event.trashed += trashed
    } catch (error) {
      if (isConnectionLoss(error)) throw error
      report.counts.event.failed++
      report.failures.push({
        kind: 'event',
        item: sourceId,
        reason: `could not be trashed: ${reasonOf(error)}`,
      })
    }
  }
}

/** One item, inside its transaction: skipped when its content is what was last imported, else compared, written and mapped. */
async function importItem(ctx: ItemContext, item: SourceItem): Promise<Outcome> {
  const hash = contentHash(item, ctx.extraCategories)
  const mapped = await findMapping(ctx.req, ctx.source, item.kind, item.sourceId)
  const state = mapped ? await localState(ctx, item.kind, mapped.localId) : 'missing'
  const restore = state === 'trash' && ctx.restoreTrashed
  const mappedId = state !== 'missing' ? mapped?.localId : undefined
  if (mappedId !== undefined && mapped?.hash === hash && !restore) return 'unchanged'
  const localId = mappedId ?? (await matchLocal(ctx, item))
  const stored = localId === undefined ? undefined : await readLocal(ctx, item.kind, localId)
  const data = await itemData(ctx, item, stored)
  // Back in the mirrored source after it left it: out of the trash, with the status it would be created with.
  if (restore && data.status === undefined) data.status = ctx.status
  let outcome: Outcome = 'unchanged'
  let id = stored?.id
  if (id === undefined) {
    id = await createLocal(ctx, item.kind, data)
    outcome = 'created'
  } else if (changes(data, stored!)) {
    await updateLocal(ctx, item.kind, id, data)
    outcome = 'updated'
  }
  for (const [language, values] of Object.entries(item.data.translations ?? {})) {
    const code = language as LanguageCode
    const local = await readLocal(ctx, item.kind, id, code)
    if (!local) continue
    const translated = await translationData(ctx, item, code, values, local)
    if (!changes(translated, local)) continue
    await updateLocal(ctx, item.kind, id, translated, code)
    if (outcome === 'unchanged') outcome = 'updated'
  }
  await recordMapping(ctx.req, ctx.source, item.kind, item.sourceId, { localId: id, hash })
  return outcome
}

/** The item's content as the source gave it, and what the run adds to it: equal hashes, nothing to compare. */
function contentHash(item: SourceItem, extraCategories: number[]): string {
  return createHash('sha256')
    .update(
      stableJson([item.kind, item.data, ...(extraCategories.length ? [extraCategories] : [])]),
    )
    .digest('base64url')
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1))
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${stableJson(entry)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** What a report says of a failed item: Payload's field errors by field, else the error's message. */
function reasonOf(error: unknown): string {
  if (error instanceof ItemError) return error.message
  // The operation's refusal, by the parameters it names, as the namespace's error lists them.
  if (error instanceof Refusal) {
    const params = Object.entries((error.data.params ?? {}) as Record<string, string>)
    return params.map(([param, message]) => `${param}: ${message}`).join('; ') || error.message
  }
  const fields = (error as { data?: { errors?: { path?: string; message?: string }[] } })?.data
    ?.errors
  if (error instanceof Error && error.name === 'ValidationError' && fields?.length) {
    return fields
      .map((field) => `${field.path ?? 'item'}: ${field.message ?? 'invalid'}`)
      .join('; ')
  }
  return error instanceof Error ? error.message : String(error)
}
