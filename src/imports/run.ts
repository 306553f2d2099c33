/**
 * The import core, the same for every source and for both ways of starting a run (the jobs queue,
 * the CLI): each item is created, updated or left as it is in a transaction of its own with its
 * mapping, so a run stopped anywhere (killed, a lost database) leaves whole items only, and the next
 * run of the source skips what was done (docs/api.md §23).
 */
import { createHash } from 'node:crypto'
import { createLocalReq, type Payload, type PayloadRequest } from 'payload'
import { prefetchImage } from '../collections/mediaFromUrl'
import { idOf } from '../calendar/relationId'
import { isConnectionLoss } from '../database/connectionErrors'
import { exclusively } from '../database/exclusive'
import { inTransaction } from '../database/transaction'
import { siteSettings, type SiteSettings } from '../globals/siteSettings'
import type { LanguageCode } from '../i18n/languages'
import { storedItem } from '../operations/authored/item'
import { trashStored } from '../operations/authored/trash'
import { Refusal } from '../operations/refusal'
import { calendarRuntime } from '../options'
import { changes } from './changes'
import { importAllowsPrivate, REFUSED_NOTE } from './guard'
import { importWriter } from './importWriter'
import { itemData, ItemError, translationData } from './itemInput'
import {
  IMPORT_KINDS,
  type ImportKind,
  type ImportSource,
  type SourceItem,
  type UnreadableItem,
} from './items'
import {
  createLocal,
  localState,
  localStates,
  localSibling,
  matchLocal,
  readLocal,
  updateLocal,
  type ItemContext,
} from './localItems'
import { mappingKey, mappingsOf } from './mapping'
import { RunMappings } from './runMappings'

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

/** Items read from the source before their mappings and local items are looked up, in one statement each. */
const BATCH = 100

/** What a run carries from item to item. */
type Run = {
  options: ImportOptions
  settings: SiteSettings
  origins: string[]
  report: ImportReport
  mappings: RunMappings
  done: Partial<Record<ImportKind, { count: number; since: number }>>
  seenEvents: Set<string>
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
    const run: Run = {
      options,
      settings,
      origins,
      report: emptyReport(),
      mappings: new RunMappings(source.name),
      done: {},
      seenEvents: new Set(),
    }
    const { report } = run
    batches: for await (const batch of inBatches(source.items(), BATCH)) {
      const states = await priorStates(base, run.mappings, batch)
      for (const item of batch) {
        if (options.signal?.aborted) {
          report.stopped = true
          break batches
        }
        await importOne(run, item, states)
      }
    }
    if (options.trashMissing && !report.stopped && source.complete?.() !== false)
      await trashMissing(
        { payload, user, settings, root: origins[0] ?? '' },
        source.name,
        run.seenEvents,
        report,
      )
    for (const note of source.notes?.() ?? []) report.notes.push({ kind: 'source', item: '', note })
    return report
  })
}

async function* inBatches<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = []
  for await (const item of items) {
    batch.push(item)
    if (batch.length < size) continue
    yield batch
    batch = []
  }
  if (batch.length) yield batch
}

/**
 * The batch's mappings (kept in the run's memory) and the state of the local items they name, by
 * `mappingKey(kind, localId)`: one statement for the mappings and one a kind for the items, where each
 * item asked them for itself in its own transaction.
 */
async function priorStates(
  req: PayloadRequest,
  mappings: RunMappings,
  batch: (SourceItem | UnreadableItem)[],
): Promise<Map<string, 'trash' | 'here'>> {
  const items = batch.filter((item): item is SourceItem => !('error' in item))
  await mappings.preload(req, items)
  const states = new Map<string, 'trash' | 'here'>()
  for (const kind of IMPORT_KINDS) {
    const ids = items.flatMap((item) =>
      item.kind === kind ? (mappings.peek(kind, item.sourceId)?.localId ?? []) : [],
    )
    if (!ids.length) continue
    for (const [id, state] of await localStates(req, kind, ids))
      states.set(mappingKey(kind, String(id)), state)
  }
  return states
}

/** One item: counted, reported, and its progress told. */
async function importOne(
  run: Run,
  item: SourceItem | UnreadableItem,
  states: Map<string, 'trash' | 'here'>,
): Promise<void> {
  const { options, report } = run
  const progress = (run.done[item.kind] ??= { count: 0, since: Date.now() })
  const counts = report.counts[item.kind]
  if (item.kind === 'event' && item.sourceId !== undefined) run.seenEvents.add(item.sourceId)
  if ('error' in item) {
    counts.failed++
    report.failures.push({ kind: item.kind, item: item.label, reason: item.error })
  } else {
    const hash = contentHash(item, options.defaultCategories ?? [])
    if (unchangedByHash(run, item, hash, states)) {
      counts.unchanged++
      for (const note of item.notes ?? [])
        report.notes.push({ kind: item.kind, item: item.label, note })
    } else await writeOne(run, item, hash)
  }
  progress.count++
  await options.onProgress?.({
    kind: item.kind,
    done: progress.count,
    total: options.source.totals[item.kind] ?? progress.count,
    since: progress.since,
    report,
  })
}

/**
 * Mapped with the same hash to a local item that is still here (and not to come back from the
 * trash): unchanged, decided from the batch's reads alone, without a transaction of its own.
 */
function unchangedByHash(
  run: Run,
  item: SourceItem,
  hash: string,
  states: Map<string, 'trash' | 'here'>,
): boolean {
  const mapped = run.mappings.peek(item.kind, item.sourceId)
  if (!mapped || mapped.hash !== hash) return false
  const state = states.get(mappingKey(item.kind, String(mapped.localId)))
  return state === 'here' || (state === 'trash' && !run.options.trashMissing)
}

/** An item that may change something, in a transaction of its own with its mapping. */
async function writeOne(run: Run, item: SourceItem, hash: string): Promise<void> {
  const { options, report } = run
  const counts = report.counts[item.kind]
  const req = await createLocalReq({ user: options.user ?? undefined }, options.payload)
  const mappings = run.mappings.forItem(req)
  const ctx: ItemContext = {
    req,
    writer: importWriter(req, run.settings, run.origins[0] ?? ''),
    source: options.source.name,
    mappings,
    status: options.status ?? 'publish',
    origins: run.origins,
    madeFromLinks: [],
    allowPrivateImages: importAllowsPrivate(),
    extraCategories: options.defaultCategories ?? [],
    mirrored: Boolean(options.trashMissing),
    matchByName: options.source.matchByName,
    notes: [],
  }
  try {
    await prefetchItemImage(ctx, item)
    counts[await inTransaction(req, () => importItem(ctx, item, hash))]++
    mappings.commit()
    for (const kind of ctx.madeFromLinks) report.counts[kind].created++
    for (const note of [...(item.notes ?? []), ...ctx.notes])
      report.notes.push({ kind: item.kind, item: item.label, note })
  } catch (error) {
    if (!(error instanceof ItemError) && isConnectionLoss(error)) throw error
    counts.failed++
    report.failures.push({ kind: item.kind, item: item.label, reason: reasonOf(error) })
  }
}

/** An item's image not yet downloaded for this source is downloaded before its transaction opens: no database connection waits on another server. */
async function prefetchItemImage(ctx: ItemContext, item: SourceItem): Promise<void> {
  const image = 'image' in item ? item.image : undefined
  if (
    typeof image === 'string' &&
    /^https?:\/\//i.test(image) &&
    !(await ctx.mappings.find('image', image))
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
        await trashStored(writer, 'events', stored)
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
async function importItem(ctx: ItemContext, item: SourceItem, hash: string): Promise<Outcome> {
  const mapped = await ctx.mappings.find(item.kind, item.sourceId)
  const state = mapped ? await localState(ctx, item.kind, mapped.localId) : 'missing'
  const restore = state === 'trash' && ctx.mirrored
  const mappedId = state !== 'missing' ? mapped?.localId : undefined
  if (mappedId !== undefined && mapped?.hash === hash && !restore) return 'unchanged'
  const localId = mappedId ?? (await matchLocal(ctx, item))
  let stored = localId === undefined ? undefined : await readLocal(ctx, item.kind, localId)
  const data = await itemData(ctx, item, stored)
  // A term is known only now, with its parent made local, to be one that exists under another id.
  if (!stored && (item.kind === 'category' || item.kind === 'tag')) {
    const sibling = await localSibling(ctx, item.kind, item.data.name, idOf(data.parent) ?? 0)
    if (sibling !== undefined) stored = await readLocal(ctx, item.kind, sibling)
  }
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
  // An item left in the trash (by an editor, or as the source has it) is no link's target without a read of its own.
  const inTrash = (data.status ?? stored?.status) === 'trash'
  await ctx.mappings.record(item.kind, item.sourceId, { localId: id, hash }, !inTrash)
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
