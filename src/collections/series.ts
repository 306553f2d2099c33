import { DateTime } from 'luxon'
import type { PayloadRequest, TypedLocale, Validate, Where } from 'payload'
import { formatWallClock } from '../calendar/dates/format'
import { toLuxonZone } from '../calendar/dates/zone'
import { endedBefore, expandRecurrence, horizonEnd, occurrencesUntil, parseRecurrence, withExdate, type RecurrenceLimits } from '../calendar/recurrence'
import { siteSettings, type SiteSettings } from '../globals/siteSettings'
import { DEFAULT_LANGUAGE } from '../i18n/languages'
import type { Event } from '../payload-types'

/** What series upkeep needs of a request: the write's (any door's), or the horizon job's. */
export type SeriesScope = { req: PayloadRequest; now: Date; settings: SiteSettings; language: string }

/**
 * Set on the request while the upkeep writes a series' events: those writes are the series
 * changing, not an editor's, so the collection's hooks let them through (docs/api.md §16).
 */
export const SERIES_UPKEEP = 'calendarSeriesUpkeep'

/** What a series does not copy from its first event to the others: identity, dates, and the series' own bookkeeping. */
const OWN_FIELDS = new Set(['id', 'slug', 'start', 'end', 'startLocal', 'endLocal', 'recurrence', 'recurrenceException', 'parent', 'createdAt', 'updatedAt'])

export const limitsOf = (settings: SiteSettings): RecurrenceLimits => ({
  horizonMonths: settings.recurrenceHorizonMonths,
  maxOccurrences: settings.maxOccurrences,
})

/**
 * The admin's and Payload REST's check of a rule, the namespace's in a field's words: a new or
 * changed rule must parse, yield an occurrence and stay within `maxOccurrences` (docs/api.md §16).
 * The upkeep's own edits (an EXDATE, an UNTIL at a split) and unchanged rules pass.
 */
export const validateRecurrence: Validate<string> = async (value, { req, siblingData, previousValue }) => {
  if (!value?.trim() || req.context[SERIES_UPKEEP] || value === previousValue) return true
  const data = siblingData as Partial<Event>
  const settings = await siteSettings(req)
  const result = expandRecurrence(value, new Date(data.start ?? Date.now()), data.timezone || settings.timezone, new Date(), limitsOf(settings))
  return result.ok || result.error
}

const zoneOf = (scope: SeriesScope, event: Pick<Event, 'timezone'>) => event.timezone || scope.settings.timezone

const options = (scope: SeriesScope, locale: string) => ({ req: scope.req, overrideAccess: true, depth: 0, locale: locale as TypedLocale }) as const

async function read(scope: SeriesScope, id: number, locale = scope.language): Promise<Event> {
  return (await scope.req.payload.findByID({ ...options(scope, locale), collection: 'events', id, fallbackLocale: false })) as Event
}

type Localized<T> = { [K in keyof T]: T[K] | Record<string, T[K]> }

/**
 * The first event's values an occurrence takes, in every language at once: the document as Payload
 * reads it with `locale: 'all'`, which is the shape its database adapter writes.
 */
function copied(first: Localized<Event>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(first).filter(([key, value]) => !OWN_FIELDS.has(key) && value !== undefined))
}

/** An occurrence's slug in each language: the first event's, with the occurrence's day. */
function slugsOn(first: Localized<Event>, day: string): Record<string, string> {
  const slugs = typeof first.slug === 'object' && first.slug ? first.slug : { [DEFAULT_LANGUAGE]: first.slug }
  return Object.fromEntries(Object.entries(slugs).flatMap(([language, slug]) => (slug ? [[language, `${slug}-${day}`]] : [])))
}

const wallClock = (text: string) => DateTime.fromFormat(text, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' })

/** An occurrence's four dates: its start, and the first event's length on the wall clock (an evening stays 19:00–21:00). */
function datesAt(at: Date, zone: string, wallLength: number): Record<string, string> {
  const start = DateTime.fromJSDate(at).setZone(toLuxonZone(zone))
  const end = start.setZone('utc', { keepLocalTime: true }).plus({ milliseconds: wallLength }).setZone(toLuxonZone(zone), { keepLocalTime: true })
  return { start: at.toISOString(), end: end.toUTC().toISO()!, startLocal: formatWallClock(start), endLocal: formatWallClock(end) }
}

/** Its day in its own zone: what names an occurrence in its slug and keeps its id when the rule changes. */
const dayOf = (event: Pick<Event, 'startLocal'>) => (event.startLocal ?? '').slice(0, 10)

type Occurrence = Pick<Event, 'id' | 'start' | 'startLocal' | 'status' | 'recurrenceException'>

async function occurrencesOf(scope: SeriesScope, parent: number, extra?: Where, withTrash = false): Promise<Occurrence[]> {
  const where: Where = { and: [{ parent: { equals: parent } }, ...(withTrash ? [] : [{ status: { not_equals: 'trash' } }]), ...(extra ? [extra] : [])] }
  const { docs } = await scope.req.payload.find({
    ...options(scope, DEFAULT_LANGUAGE),
    collection: 'events',
    where,
    pagination: false,
    sort: 'startLocal',
    select: { start: true, startLocal: true, status: true, recurrenceException: true },
  })
  return docs as Occurrence[]
}

/**
 * Brings a series' later occurrences in line with its first event (docs/api.md §16): every one that
 * is not an exception gets the first's fields; up to the horizon, a date the rule gives and no
 * occurrence has is created, and a future occurrence on a date the rule no longer gives is deleted.
 * An occurrence keeps its id while its day stays in the rule; past ones keep their dates. Occurrences
 * beyond the horizon (it was longer once) are checked against the rule, not dropped for being there.
 * A rule stored by another door that does not parse leaves the series as it is. `onlyAdd` (the
 * horizon job) creates the missing days and leaves existing occurrences alone.
 */
export async function syncSeries(scope: SeriesScope, parentId: number, onlyAdd = false): Promise<void> {
  const { payload } = scope.req
  const first = (await payload.findByID({ ...options(scope, 'all'), collection: 'events', id: parentId })) as Localized<Event> & Event
  if (!first.recurrence) return
  const zone = zoneOf(scope, first)
  const parsed = parseRecurrence(first.recurrence, new Date(first.start), zone)
  if (!parsed.ok) return
  const wallLength =
    wallClock(first.endLocal ?? '')
      .diff(wallClock(first.startLocal ?? ''))
      .toMillis() || 0
  // Trashed occurrences count: a series restored from the trash takes them back rather than making new ones.
  const existing = await occurrencesOf(scope, parentId, undefined, true)
  const latest = Math.max(horizonEnd(scope.now, limitsOf(scope.settings)).getTime(), ...existing.map((event) => new Date(event.start).getTime()))
  const limit = limitsOf(scope.settings).maxOccurrences + existing.length
  const wanted = new Map(
    occurrencesUntil(parsed.recurrence, new Date(latest), limit).map((at) => [DateTime.fromJSDate(at).setZone(toLuxonZone(zone)).toISODate()!, at]),
  )
  const now = scope.now.getTime()
  const updatedAt = scope.now.toISOString()
  const shared = { ...copied(first), updatedAt }
  const gone: number[] = []
  // The first event's values are written straight through Payload's database adapter, in every language
  // at once: they were validated and derived when the first event was written, and per-occurrence
  // local-API updates (validation, hooks, a read back) made a 730-event series take seconds.
  for (const occurrence of existing) {
    const day = dayOf(occurrence)
    const at = wanted.get(day)
    wanted.delete(day)
    // One trashed on its own has its day excluded from the rule, and stays in the trash.
    if (onlyAdd || occurrence.recurrenceException || (!at && occurrence.status === 'trash')) continue
    if (!at && new Date(occurrence.start).getTime() > now) {
      gone.push(occurrence.id)
      continue
    }
    const data = { ...shared, ...(at ? { ...datesAt(at, zone, wallLength), slug: slugsOn(first, day) } : {}) }
    await payload.db.updateOne({ collection: 'events', id: occurrence.id, data, req: scope.req, returning: false })
  }
  await remove(scope, gone)
  for (const [day, at] of wanted) {
    const data = { ...shared, ...datesAt(at, zone, wallLength), slug: slugsOn(first, day), parent: parentId, recurrenceException: false, createdAt: updatedAt }
    await payload.db.create({ collection: 'events', data, req: scope.req, returning: false })
  }
}

/** Deletes generated occurrences for good, in one statement (their translations and links go with them). */
async function remove(scope: SeriesScope, ids: number[]): Promise<void> {
  if (ids.length) await scope.req.payload.db.deleteMany({ collection: 'events', where: { id: { in: ids } }, req: scope.req })
}

/** A relationship's id, whether the document holds it as a number or populated. */
export const idOf = (value: unknown): number | undefined =>
  typeof value === 'number'
    ? value
    : typeof value === 'object' && value && typeof (value as { id?: unknown }).id === 'number'
      ? (value as { id: number }).id
      : undefined

/**
 * After a write to an event, from any door: a series' first event updates its series; an occurrence
 * given a rule splits its series there; any other write to an occurrence makes it an exception; a
 * first event whose rule was removed ends its series.
 */
export async function afterEventWrite(scope: SeriesScope, event: Event, before: Event | undefined): Promise<void> {
  const parentId = before && !before.recurrence ? idOf(before.parent) : undefined
  const series = parentId === undefined ? undefined : await seriesParent(scope, parentId)
  if (series) {
    if (!event.recurrence) {
      await scope.req.payload.update({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', id: event.id, data: { recurrenceException: true } })
      return
    }
    await split(scope, series, event)
  }
  if (event.recurrence) return syncSeries(scope, event.id)
  if (before?.recurrence) await endSeries(scope, event.id)
}

async function seriesParent(scope: SeriesScope, id: number): Promise<Event | undefined> {
  const parent = await read(scope, id, DEFAULT_LANGUAGE)
  return parent.recurrence ? parent : undefined
}

/**
 * The old series ends just before the occurrence that got a rule, whose later occurrences go, and the
 * occurrence leaves it to head a series of its own.
 */
async function split(scope: SeriesScope, parent: Event, occurrence: Event): Promise<void> {
  const recurrence = endedBefore(parent.recurrence!, new Date(occurrence.start), zoneOf(scope, parent))
  await scope.req.payload.update({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', id: parent.id, data: { recurrence } })
  await remove(
    scope,
    (await occurrencesOf(scope, parent.id, { startLocal: { greater_than: occurrence.startLocal } })).map(({ id }) => id),
  )
  await scope.req.payload.update({
    ...options(scope, DEFAULT_LANGUAGE),
    collection: 'events',
    id: occurrence.id,
    data: { parent: null, recurrenceException: false },
  })
}

/** `recurrence: ""` on a first event: its future occurrences are deleted, past ones become single events. */
async function endSeries(scope: SeriesScope, parentId: number): Promise<void> {
  const occurrences = await occurrencesOf(scope, parentId)
  const future = (occurrence: Occurrence) => new Date(occurrence.start).getTime() > scope.now.getTime()
  await remove(
    scope,
    occurrences.filter(future).map(({ id }) => id),
  )
  const past = occurrences.filter((occurrence) => !future(occurrence)).map(({ id }) => id)
  if (past.length)
    await scope.req.payload.db.updateMany({ collection: 'events', where: { id: { in: past } }, data: { parent: null }, req: scope.req, returning: false })
}

/**
 * Trashing an event of a series: the first trashes every occurrence with it; a later one is
 * excluded from its series' rule (EXDATE), so the series does not make it again.
 */
export async function trashInSeries(scope: SeriesScope, event: Event): Promise<void> {
  if (event.recurrence) {
    const where: Where = { and: [{ parent: { equals: event.id } }, { status: { not_equals: 'trash' } }] }
    await scope.req.payload.db.updateMany({ collection: 'events', where, data: { status: 'trash' }, req: scope.req, returning: false })
    return
  }
  const parentId = idOf(event.parent)
  const parent = parentId === undefined ? undefined : await seriesParent(scope, parentId)
  if (!parent) return
  const recurrence = withExdate(parent.recurrence!, new Date(event.start), zoneOf(scope, parent))
  await scope.req.payload.update({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', id: parent.id, data: { recurrence } })
}

/**
 * Deleting an event of a series for good (the admin's Delete): the first takes its occurrences with
 * it; a later one is excluded from its series' rule, as when trashed.
 */
export async function deleteInSeries(scope: SeriesScope, event: Event): Promise<void> {
  if (!event.recurrence) return trashInSeries(scope, event)
  await remove(
    scope,
    (await occurrencesOf(scope, event.id, undefined, true)).map(({ id }) => id),
  )
}

/**
 * Runs the upkeep's own writes with the upkeep flag set, and gives the request back its language:
 * Payload's local operations set `req.locale` to the language they write in.
 */
export async function asUpkeep<T>(req: PayloadRequest, upkeep: () => Promise<T>): Promise<T> {
  const { locale, fallbackLocale } = req
  req.context[SERIES_UPKEEP] = true
  try {
    return await upkeep()
  } finally {
    delete req.context[SERIES_UPKEEP]
    req.locale = locale
    req.fallbackLocale = fallbackLocale
  }
}

/** The horizon job: every series with a rule gets the occurrences the horizon now reaches. */
export async function extendHorizons(scope: SeriesScope): Promise<number> {
  const { docs } = await scope.req.payload.find({
    ...options(scope, DEFAULT_LANGUAGE),
    collection: 'events',
    where: { and: [{ recurrence: { exists: true } }, { recurrence: { not_equals: '' } }, { status: { not_equals: 'trash' } }] },
    pagination: false,
    select: { recurrence: true },
  })
  await asUpkeep(scope.req, async () => {
    for (const { id } of docs) await syncSeries(scope, id, true)
  })
  return docs.length
}
