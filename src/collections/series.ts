import { DateTime } from 'luxon'
import type { PayloadRequest, TypedLocale, Validate, Where } from 'payload'
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
  'hasPassword',
])

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

/** The languages a series' text is copied in: the default one, everyone's fallback, and the writer's. */
const languagesOf = (scope: SeriesScope) => [...new Set([DEFAULT_LANGUAGE, scope.language])]

/** Text the series copies in languages other than the default one, where an empty value means "not translated". */
const TRANSLATED = ['title', 'description', 'excerpt'] as const

/** The first event's values an occurrence takes: everything in the default language, its translations in another. */
function copied(event: Event, language: string): Record<string, unknown> {
  if (language !== DEFAULT_LANGUAGE) return Object.fromEntries(TRANSLATED.filter((key) => event[key]).map((key) => [key, event[key]]))
  return Object.fromEntries(Object.entries(event).filter(([key, value]) => !OWN_FIELDS.has(key) && value !== undefined))
}

/** Its day in its own zone: what names an occurrence in its slug and keeps its id when the rule changes. */
const dayOf = (event: Pick<Event, 'startLocal'>) => (event.startLocal ?? '').slice(0, 10)

async function occurrencesOf(scope: SeriesScope, parent: number, extra?: Where, withTrash = false): Promise<Event[]> {
  const where: Where = { and: [{ parent: { equals: parent } }, ...(withTrash ? [] : [{ status: { not_equals: 'trash' } }]), ...(extra ? [extra] : [])] }
  const { docs } = await scope.req.payload.find({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', where, pagination: false, sort: 'startLocal' })
  return docs as Event[]
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
  const languages = languagesOf(scope)
  const parents = await Promise.all(languages.map((language) => read(scope, parentId, language)))
  const parent = parents[0]!
  if (!parent.recurrence) return
  const zone = zoneOf(scope, parent)
  const start = new Date(parent.start)
  const length = new Date(parent.end).getTime() - start.getTime()
  const parsed = parseRecurrence(parent.recurrence, start, zone)
  if (!parsed.ok) return
  // Trashed occurrences count: a series restored from the trash takes them back rather than making new ones.
  const existing = await occurrencesOf(scope, parentId, undefined, true)
  const latest = Math.max(horizonEnd(scope.now, limitsOf(scope.settings)).getTime(), ...existing.map((event) => new Date(event.start).getTime()))
  const limit = limitsOf(scope.settings).maxOccurrences + existing.length
  const wanted = new Map(
    occurrencesUntil(parsed.recurrence, new Date(latest), limit).map((at) => [DateTime.fromJSDate(at).setZone(toLuxonZone(zone)).toISODate()!, at]),
  )
  const now = scope.now.getTime()
  for (const occurrence of existing) {
    const day = dayOf(occurrence)
    const at = wanted.get(day)
    wanted.delete(day)
    // One trashed on its own has its day excluded from the rule, and stays in the trash.
    if (onlyAdd || occurrence.recurrenceException || (!at && occurrence.status === 'trash')) continue
    if (!at && new Date(occurrence.start).getTime() > now) {
      await scope.req.payload.delete({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', id: occurrence.id })
      continue
    }
    const dates = at ? { start: at.toISOString(), end: new Date(at.getTime() + length).toISOString() } : {}
    for (const [index, language] of languages.entries()) {
      const data = { ...copied(parents[index]!, language), ...dates }
      await scope.req.payload.update({ ...options(scope, language), collection: 'events', id: occurrence.id, data: data as never })
    }
  }
  for (const [day, at] of wanted) {
    const dates = { start: at.toISOString(), end: new Date(at.getTime() + length).toISOString(), parent: parentId }
    let id: number | undefined
    for (const [index, language] of languages.entries()) {
      const source = parents[index]!
      const data = { ...copied(source, language), ...dates, slug: `${source.slug || parent.slug}-${day}` }
      if (id === undefined) id = (await scope.req.payload.create({ ...options(scope, language), collection: 'events', data: data as never })).id
      else await scope.req.payload.update({ ...options(scope, language), collection: 'events', id, data: data as never })
    }
  }
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
  const later = await occurrencesOf(scope, parent.id, { startLocal: { greater_than: occurrence.startLocal } })
  for (const event of later) await scope.req.payload.delete({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', id: event.id })
  await scope.req.payload.update({
    ...options(scope, DEFAULT_LANGUAGE),
    collection: 'events',
    id: occurrence.id,
    data: { parent: null, recurrenceException: false },
  })
}

/** `recurrence: ""` on a first event: its future occurrences are deleted, past ones become single events. */
async function endSeries(scope: SeriesScope, parentId: number): Promise<void> {
  for (const occurrence of await occurrencesOf(scope, parentId)) {
    const future = new Date(occurrence.start).getTime() > scope.now.getTime()
    if (future) await scope.req.payload.delete({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', id: occurrence.id })
    else await scope.req.payload.update({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', id: occurrence.id, data: { parent: null } })
  }
}

/**
 * Trashing an event of a series: the first trashes every occurrence with it; a later one is
 * excluded from its series' rule (EXDATE), so the series does not make it again.
 */
export async function trashInSeries(scope: SeriesScope, event: Event): Promise<void> {
  if (event.recurrence) {
    for (const occurrence of await occurrencesOf(scope, event.id)) {
      await scope.req.payload.update({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', id: occurrence.id, data: { status: 'trash' } })
    }
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
  for (const occurrence of await occurrencesOf(scope, event.id, undefined, true)) {
    await scope.req.payload.delete({ ...options(scope, DEFAULT_LANGUAGE), collection: 'events', id: occurrence.id })
  }
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
