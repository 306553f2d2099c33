import type {
  PayloadRequest,
  RelationshipFieldValidation,
  TypedLocale,
  Validate,
  Where,
} from 'payload'
import { relationship } from 'payload/shared'
import { occurrenceSchedule, wallLength } from '../calendar/dates/schedule'
import { idOf } from '../calendar/relationId'
import {
  endedBefore,
  excludedDays,
  expandRecurrence,
  horizonEnd,
  occurrencesUntil,
  parseRecurrence,
  withExdate,
  type Parsed,
  type RecurrenceLimits,
} from '../calendar/recurrence'
import { copyToOccurrences, seriesMembers, type OccurrenceRow } from '../database/seriesCopy'
import { siteSettings, type SiteSettings } from '../globals/siteSettings'
import { mayUpdate } from './hooks/reach'
import { lockSeriesKeys } from './hooks/seriesLock'
import { DEFAULT_LANGUAGE } from '../i18n/languages'
import type { Event } from '../payload-types'
import { whileFlagged } from './requestFlags'

/** What series upkeep needs of a request: the write's (any door's), or the horizon job's. */
export type SeriesScope = {
  req: PayloadRequest
  now: Date
  settings: SiteSettings
  language: string
}

/**
 * Set on the request while the upkeep writes a series' events: those writes are the series
 * changing, not an editor's, so the collection's hooks let them through (docs/api.md §16).
 */
export const SERIES_UPKEEP = 'calendarSeriesUpkeep'

/** Set on the request while an event is created that a write of the same request completes at once: its series is written then, once. */
const SERIES_LATER = 'calendarSeriesLater'

/** Whether a write leaves its series to the one that follows (`seriesLater`). */
export const seriesDeferred = (req: PayloadRequest) => Boolean(req.context[SERIES_LATER])

/** Runs `write` leaving the series' upkeep to the write that follows it in the same request. */
export function seriesLater<T>(req: PayloadRequest, write: () => Promise<T>): Promise<T> {
  return whileFlagged(req, SERIES_LATER, write)
}

/** What a series does not copy from its first event to the others: identity, dates, and the series' own bookkeeping. */
const OWN_FIELDS = new Set([
  'id',
  'slug',
  'start',
  'end',
  'startLocal',
  'endLocal',
  'recurrence',
  'recurrenceException',
  'parent',
  'createdAt',
  'updatedAt',
])

/** Where a write keeps the rules it has read: the namespace's check, the field's and the upkeep each need the same one. */
const PARSED_RULES = 'calendarParsedRules'

/** A rule read once per write (per text, start and zone), whichever of its steps asks first. */
export function parsedRule(
  req: PayloadRequest,
  text: string,
  start: Date,
  zone: string,
  allDay = false,
): Parsed {
  const kept = (req.context[PARSED_RULES] ??= new Map<string, Parsed>()) as Map<string, Parsed>
  const key = `${zone} ${start.getTime()} ${allDay} ${text}`
  const parsed = kept.get(key) ?? parseRecurrence(text, start, zone, allDay)
  kept.set(key, parsed)
  return parsed
}

export const limitsOf = (settings: SiteSettings): RecurrenceLimits => ({
  horizonMonths: settings.recurrenceHorizonMonths,
  maxOccurrences: settings.maxOccurrences,
})

/**
 * The admin's and Payload REST's check of a rule, the namespace's in a field's words: a new or
 * changed rule must parse, yield an occurrence and stay within `maxOccurrences` (docs/api.md §16).
 * The upkeep's own edits (an EXDATE, an UNTIL at a split) and unchanged rules pass.
 */
export const validateRecurrence: Validate<string> = async (
  value,
  { req, siblingData, previousValue, overrideAccess },
) => {
  // A rule arrives as given through Payload's REST and GraphQL: only text can be one.
  if (value !== null && value !== undefined && typeof value !== 'string')
    return 'The recurrence rule must be text (an RRULE).'
  if (!value?.trim() || req.context[SERIES_UPKEEP] || value === previousValue) return true
  const data = siblingData as Partial<Event>
  const first = idOf(data.parent)
  // On an occurrence the rule splits its series: the first event's rule is cut and its later dates deleted.
  if (first !== undefined && !overrideAccess && !(await mayUpdate(req, 'events', first)))
    return "Only someone who may edit the series' first event can split the series."
  const settings = await siteSettings(req)
  const parsed = parsedRule(
    req,
    value,
    new Date(data.start ?? Date.now()),
    data.timezone || settings.timezone,
  )
  const result = expandRecurrence(parsed, new Date(), limitsOf(settings))
  return result.ok || result.error
}

/**
 * An event's parent is an event without one: a series' first event, or a single event. So parents
 * form no chain and no cycle (A→B→A), and a series' first event has none (docs/api.md §16). Checked
 * on every door's write that sets or changes it; the upkeep's own writes and an unchanged parent pass.
 */
export const validateParent: RelationshipFieldValidation = async (value, options) => {
  const valid = await relationship(value, options)
  const { req, id, siblingData, previousValue, overrideAccess } = options
  const parent = idOf(value)
  if (valid !== true || req.context[SERIES_UPKEEP] || parent === undefined) return valid
  if (parent === idOf(previousValue)) return true
  if (id !== undefined && parent === Number(id)) return 'An event cannot be its own parent.'
  // A child joins its parent's series (its file, its page's other dates), and its trash or a rule of
  // its own changes the parent's rule: only for a parent the writer may edit.
  if (!overrideAccess && !(await mayUpdate(req, 'events', parent)))
    return 'The parent must be an event you may edit.'
  if ((siblingData as Partial<Event>).recurrence?.trim())
    return "A series' first event cannot have a parent."
  // Only a write holds the locks: the admin's form checks a value as it is typed, in no transaction.
  if (req.transactionID !== undefined)
    await lockSeriesKeys(req, id === undefined ? [parent] : [Number(id), parent])
  const { docs } = await req.payload.find({
    collection: 'events',
    where: { id: { equals: parent } },
    select: { parent: true },
    depth: 0,
    pagination: false,
    overrideAccess: true,
    trash: true,
    req,
  })
  if (docs[0] && idOf(docs[0].parent) !== undefined)
    return "The parent has a parent of its own: name its series' first event."
  if (id === undefined) return true
  const children = await req.payload.count({
    collection: 'events',
    where: { parent: { equals: id } },
    overrideAccess: true,
    trash: true,
    req,
  })
  return children.totalDocs ? 'An event that is a parent cannot have a parent.' : true
}

const zoneOf = (scope: SeriesScope, event: Pick<Event, 'timezone'>) =>
  event.timezone || scope.settings.timezone

const options = (scope: SeriesScope, locale: string) =>
  ({ req: scope.req, overrideAccess: true, depth: 0, locale: locale as TypedLocale }) as const

async function read(scope: SeriesScope, id: number, locale = scope.language): Promise<Event> {
  return (await scope.req.payload.findByID({
    ...options(scope, locale),
    collection: 'events',
    id,
    fallbackLocale: false,
  })) as Event
}

/** Its day in its own zone: what names an occurrence in its slug and keeps its id when the rule changes. */
const dayOf = (event: Pick<Event, 'startLocal'>) => (event.startLocal ?? '').slice(0, 10)

type Occurrence = Pick<Event, 'id' | 'start' | 'startLocal' | 'status' | 'recurrenceException'>

async function occurrencesOf(
  scope: SeriesScope,
  parent: number,
  extra?: Where,
): Promise<Occurrence[]> {
  const where: Where = {
    and: [
      { parent: { equals: parent } },
      { status: { not_equals: 'trash' } },
      ...(extra ? [extra] : []),
    ],
  }
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
export async function syncSeries(
  scope: SeriesScope,
  parentId: number,
  onlyAdd = false,
): Promise<void> {
  const first = (await scope.req.payload.findByID({
    ...options(scope, DEFAULT_LANGUAGE),
    collection: 'events',
    id: parentId,
    select: {
      recurrence: true,
      start: true,
      timezone: true,
      startLocal: true,
      endLocal: true,
      allDay: true,
    },
  })) as Event
  if (!first.recurrence) return
  const zone = zoneOf(scope, first)
  const parsed = parsedRule(
    scope.req,
    first.recurrence,
    new Date(first.start),
    zone,
    first.allDay ?? false,
  )
  if (!parsed.ok) return
  const startLocal = first.startLocal ?? ''
  // An all-day first event on a day without midnight starts later; its days still count from 00:00.
  const length = wallLength(
    first.allDay ? `${startLocal.slice(0, 10)} 00:00:00` : startLocal,
    first.endLocal ?? '',
  )
  // Trashed occurrences count: a series restored from the trash takes them back rather than making new ones.
  const existing = await seriesMembers(scope.req, 'events', parentId)
  const latest = Math.max(
    horizonEnd(scope.now, limitsOf(scope.settings)).getTime(),
    ...existing.map((event) => new Date(event.start).getTime()),
  )
  const limit = limitsOf(scope.settings).maxOccurrences + existing.length
  // Each date the rule gives, by its day in the zone, with the dates an occurrence there has.
  const wanted = new Map(
    occurrencesUntil(parsed.recurrence, new Date(latest), limit).map((at) => {
      const schedule = occurrenceSchedule(
        at,
        parsed.recurrence.offsets,
        length,
        first.allDay ?? false,
      )
      return [dayOf(schedule), schedule]
    }),
  )
  const excluded = excludedDays(parsed.recurrence)
  const now = scope.now.getTime()
  const gone: number[] = []
  const rows: OccurrenceRow[] = []
  for (const occurrence of existing) {
    const day = dayOf(occurrence)
    const schedule = wanted.get(day)
    wanted.delete(day)
    // One trashed on its own has its day excluded from the rule, and stays in the trash. Its EXDATE
    // holds the time it had: once the series' time of day moves, the rule gives its day again.
    const trashedAlone = occurrence.status === 'trash' && (!schedule || excluded.has(day))
    if (onlyAdd || occurrence.recurrenceException || trashedAlone) continue
    if (!schedule && new Date(occurrence.start).getTime() > now) {
      gone.push(occurrence.id)
      continue
    }
    rows.push({ id: occurrence.id, ...(schedule ? { schedule, day } : {}) })
  }
  await remove(scope, gone)
  for (const [day, schedule] of wanted) rows.push({ schedule, day })
  // The first event's values were validated and derived when it was written; they are copied in the
  // database, in every language at once, in a few statements for the whole series: one write per
  // occurrence made a 730-event series take seconds.
  await copyToOccurrences(scope.req, {
    table: 'events',
    parentId,
    own: OWN_FIELDS,
    slug: 'slug',
    updatedAt: scope.now.toISOString(),
    rows,
  })
}

/** Deletes generated occurrences for good, in one statement (their translations and links go with them). */
async function remove(scope: SeriesScope, ids: number[]): Promise<void> {
  if (ids.length)
    await scope.req.payload.db.deleteMany({
      collection: 'events',
      where: { id: { in: ids } },
      req: scope.req,
    })
}

/**
 * After a write to an event, from any door: a series' first event updates its series; an occurrence
 * given a rule splits its series there; any other write to an occurrence makes it an exception; a
 * first event whose rule was removed ends its series.
 */
export async function afterEventWrite(
  scope: SeriesScope,
  event: Event,
  before: Event | undefined,
): Promise<void> {
  const parentId = before && !before.recurrence ? idOf(before.parent) : undefined
  const series = parentId === undefined ? undefined : await seriesParent(scope, parentId)
  if (series) {
    if (!event.recurrence) {
      await scope.req.payload.update({
        ...options(scope, DEFAULT_LANGUAGE),
        collection: 'events',
        id: event.id,
        data: { recurrenceException: true },
      })
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
  const recurrence = endedBefore(
    parent.recurrence!,
    new Date(occurrence.start),
    zoneOf(scope, parent),
  )
  await scope.req.payload.update({
    ...options(scope, DEFAULT_LANGUAGE),
    collection: 'events',
    id: parent.id,
    data: { recurrence },
  })
  await remove(
    scope,
    (
      await occurrencesOf(scope, parent.id, { startLocal: { greater_than: occurrence.startLocal } })
    ).map(({ id }) => id),
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
  const future = (occurrence: Occurrence) =>
    new Date(occurrence.start).getTime() > scope.now.getTime()
  await remove(
    scope,
    occurrences.filter(future).map(({ id }) => id),
  )
  const past = occurrences.filter((occurrence) => !future(occurrence)).map(({ id }) => id)
  if (past.length)
    await scope.req.payload.db.updateMany({
      collection: 'events',
      where: { id: { in: past } },
      data: { parent: null },
      req: scope.req,
      returning: false,
    })
}

/**
 * Trashing an event of a series: the first trashes every occurrence with it; a later one is
 * excluded from its series' rule (EXDATE), so the series does not make it again.
 */
export async function trashInSeries(scope: SeriesScope, event: Event): Promise<void> {
  if (event.recurrence) {
    const where: Where = {
      and: [{ parent: { equals: event.id } }, { status: { not_equals: 'trash' } }],
    }
    await scope.req.payload.db.updateMany({
      collection: 'events',
      where,
      data: { status: 'trash' },
      req: scope.req,
      returning: false,
    })
    return
  }
  const parentId = idOf(event.parent)
  const parent = parentId === undefined ? undefined : await seriesParent(scope, parentId)
  if (!parent) return
  const recurrence = withExdate(parent.recurrence!, new Date(event.start), zoneOf(scope, parent))
  await scope.req.payload.update({
    ...options(scope, DEFAULT_LANGUAGE),
    collection: 'events',
    id: parent.id,
    data: { recurrence },
  })
}

/**
 * Deleting an event of a series for good (the admin's Delete): the first takes its occurrences with
 * it; a later one is excluded from its series' rule, as when trashed.
 */
export async function deleteInSeries(scope: SeriesScope, event: Event): Promise<void> {
  if (!event.recurrence) return trashInSeries(scope, event)
  await remove(
    scope,
    (await seriesMembers(scope.req, 'events', event.id)).map(({ id }) => id),
  )
}

/**
 * Runs the upkeep's own writes with the upkeep flag set, and gives the request back its language:
 * Payload's local operations set `req.locale` to the language they write in.
 */
export async function asUpkeep<T>(req: PayloadRequest, upkeep: () => Promise<T>): Promise<T> {
  const { locale, fallbackLocale } = req
  try {
    return await whileFlagged(req, SERIES_UPKEEP, upkeep)
  } finally {
    req.locale = locale
    req.fallbackLocale = fallbackLocale
  }
}

/** The horizon job: every series with a rule gets the occurrences the horizon now reaches. */
export async function extendHorizons(scope: SeriesScope): Promise<number> {
  const { docs } = await scope.req.payload.find({
    ...options(scope, DEFAULT_LANGUAGE),
    collection: 'events',
    where: {
      and: [
        { recurrence: { exists: true } },
        { recurrence: { not_equals: '' } },
        { status: { not_equals: 'trash' } },
      ],
    },
    pagination: false,
    select: { recurrence: true },
  })
  await asUpkeep(scope.req, async () => {
    for (const { id } of docs) await syncSeries(scope, id, true)
  })
  return docs.length
}
