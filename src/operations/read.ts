import { capabilities } from '../calendar/access/capabilities'
import type { CollectionSlug, Where } from 'payload'
import { roleOf } from '../calendar/access/roles'
import { RESOURCES } from '../calendar/resources'
import { revisionCacheOf } from '../calendar/caches'
import { EVENT_DETAILS } from '../collections/Events'
import { ORGANIZER_TEXT, VENUE_TEXT } from '../calendar/linkedText'
import type { Reader } from './reader'

const AUTHORED = [
  'status',
  'author',
  'publishedAt',
  'hasPassword',
  'slug',
  'excerpt',
  'descriptionHtml',
  'image',
  'updatedAt',
  'createdAt',
]

/**
 * What the namespace serves of each collection: reads select only these, so Payload neither loads
 * nor runs the read hooks of the rest (the editors' rich-text JSON above all).
 */
const SERVED: Partial<Record<CollectionSlug, string[]>> = {
  events: [
    ...AUTHORED,
    'title',
    'start',
    'end',
    'allDay',
    'timezone',
    ...EVENT_DETAILS,
    'parent',
    'recurrence',
    'hideFromListings',
    'featured',
  ],
  venues: [...AUTHORED, 'name', ...VENUE_TEXT, 'geoLat', 'geoLng', 'showMap', 'showMapLink'],
  organizers: [...AUTHORED, 'name', ...ORGANIZER_TEXT],
  'event-categories': ['name', 'description', 'slug', 'parent', 'updatedAt', 'createdAt'],
  'event-tags': ['name', 'description', 'slug', 'updatedAt', 'createdAt'],
}

function servedSelect(
  reader: Reader,
  collection: CollectionSlug,
): Record<string, true> | undefined {
  const fields = SERVED[collection]
  if (!fields) return undefined
  const kind = RESOURCES.find((resource) => resource.collection === collection)?.key
  const custom = kind ? reader.calendar.customFields[kind] : []
  return Object.fromEntries(
    [...fields, ...custom.map((field) => field.name)].map((field) => [field, true]),
  )
}

/**
 * Local-API reads on behalf of the caller: access control on, the caller's user, the request's
 * language with fallback to English, only the served fields. Every namespace read goes through here.
 */
export function readOptions(reader: Reader, collection?: CollectionSlug) {
  return {
    req: reader.req,
    user: reader.req.user,
    overrideAccess: false,
    locale: reader.language,
    fallbackLocale: 'en',
    depth: 0,
    ...(collection ? { select: servedSelect(reader, collection) } : {}),
  } as const
}

/**
 * All records of a collection with these ids that the caller may read, in one query: the served
 * fields, or those `select` names.
 */
export async function findByIds<T>(
  reader: Reader,
  collection: CollectionSlug,
  ids: number[],
  select?: Record<string, true>,
): Promise<Map<number, T>> {
  const found = new Map<number, T>()
  const unique = [...new Set(ids)]
  if (!unique.length) return found
  const result = await reader.req.payload.find({
    ...readOptions(reader, collection),
    ...(select ? { select } : {}),
    collection,
    where: { id: { in: unique } },
    // The answer is keyed by id: a collection's default sort by a translated name would cost a second query.
    sort: 'id',
    pagination: false,
    limit: unique.length,
  })
  for (const doc of result.docs) found.set(doc.id as number, doc as T)
  return found
}

/**
 * Whom a read is for, as far as the access rules tell readers apart (role and user): values derived
 * with the caller's access are kept per reader, never shared between users.
 */
export function readerKey(reader: Reader): string {
  return reader.actor ? `user:${reader.actor.id}:${roleOf(reader.actor)}` : 'anonymous'
}

/**
 * `findByIds`, kept per content revision, reader and language: the records a page embeds or a filter
 * names (images, the venue of `venue=`) are asked once per revision, not once per request.
 */
export async function findByIdsPerRevision<T>(
  reader: Reader,
  collection: CollectionSlug,
  ids: number[],
): Promise<Map<number, T>> {
  const kept = await revisionCacheOf(reader.req.payload, 'revision').getMany<T | undefined>(
    reader.revision,
    `records:${collection}:${reader.language}:${readerKey(reader)}`,
    ids.map(String),
    async (missing) =>
      new Map(
        [...(await findByIds<T>(reader, collection, missing.map(Number)))].map(([id, doc]) => [
          String(id),
          doc,
        ]),
      ),
    undefined,
  )
  const found = new Map<number, T>()
  for (const [id, doc] of kept) if (doc !== undefined) found.set(Number(id), doc)
  return found
}

/**
 * `search` over localized fields in the request language and in English, its fallback (docs/api.md §10).
 * `anyField`: every word in any of the fields, as WordPress searches posts (events); otherwise
 * every word in one field (venues, organizers, terms).
 */
export function searchWhere(
  reader: Reader,
  fields: { name: string; localized: string[]; plain: string[] },
  text: string,
  mode: 'anyField' | 'oneField' = 'oneField',
): Where {
  const inLanguages = (names: string[]) =>
    reader.language === 'en' ? names : [...names, ...names.map((field) => `${field}.en`)]
  const names = inLanguages([fields.name])
  const content = [...inLanguages(fields.localized), ...fields.plain]
  const match = (operator: 'like' | 'contains', value: string): Where => ({
    or: [
      ...names.map((path) => ({ [path]: { [operator]: value } })),
      withheldAware(reader, { or: content.map((path) => ({ [path]: { [operator]: value } })) }),
    ],
  })
  const literal = escapeLike(text)
  if (mode === 'oneField') return match('like', literal)
  return {
    and: literal
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => match('contains', word)),
  }
}

/**
 * Matching on a protected item's content would confirm it one guess at a time: for readers who may
 * not see every item's content, such conditions only match items without a password.
 */
export function withheldAware(reader: Reader, condition: Where): Where {
  return capabilities.editOthers(reader.actor)
    ? condition
    : { and: [{ hasPassword: { not_equals: true } }, condition] }
}

/** Searches are literal, as upstream's: `%` and `_` match themselves, not any text (ILIKE escapes). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** `id in ids`, also when there are none: no record lacks an id, so an empty list matches nothing. */
export function idIn(ids: number[], field = 'id'): Where {
  return ids.length ? { [field]: { in: ids } } : { id: { exists: false } }
}

/** Which of these ids exist at all, whoever may read them: existence checks of validation. */
export const existingIds = idsFound(true)

/** Which of these ids the caller may read: the ids alone, none of the records' fields or texts. */
export const readableIds = idsFound(false)

function idsFound(overrideAccess: boolean) {
  return async (
    reader: Reader,
    collection: CollectionSlug,
    ids: number[],
  ): Promise<Set<number>> => {
    const unique = [...new Set(ids)]
    if (!unique.length) return new Set()
    const { docs } = await reader.req.payload.find({
      collection,
      req: reader.req,
      user: reader.req.user,
      overrideAccess,
      depth: 0,
      pagination: false,
      where: { id: { in: unique } },
      // A set of ids: a collection's default sort by a translated name would cost a second query.
      sort: 'id',
      select: {},
    })
    return new Set(docs.map((doc) => doc.id as number))
  }
}
