import { sql } from '@payloadcms/db-postgres'
import { requestQuery } from '../../database/rawQuery'
import { capabilities } from '../../calendar/access/capabilities'
import type { CollectionSlug, Where } from 'payload'
import { roleOf } from '../../calendar/access/roles'
import { revisionCache } from '../../database/revision'
import type { RestContext } from '../context'

const AUTHORED = ['status', 'author', 'publishedAt', 'hasPassword', 'slug', 'excerpt', 'descriptionHtml', 'image', 'updatedAt', 'createdAt']

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
    'cost',
    'currencySymbol',
    'currencyCode',
    'currencyPosition',
    'website',
    'venue',
    'organizers',
    'categories',
    'tags',
    'parent',
    'recurrence',
    'showMap',
    'showMapLink',
    'hideFromListings',
    'sticky',
    'featured',
  ],
  venues: [
    ...AUTHORED,
    'name',
    'address',
    'city',
    'country',
    'province',
    'state',
    'zip',
    'phone',
    'website',
    'stateprovince',
    'geoLat',
    'geoLng',
    'showMap',
    'showMapLink',
  ],
  organizers: [...AUTHORED, 'name', 'phone', 'website', 'email'],
  'event-categories': ['name', 'description', 'slug', 'parent', 'updatedAt', 'createdAt'],
  'event-tags': ['name', 'description', 'slug', 'updatedAt', 'createdAt'],
}

function servedSelect(ctx: RestContext, collection: CollectionSlug): Record<string, true> | undefined {
  const fields = SERVED[collection]
  if (!fields) return undefined
  const custom = collection === 'events' || collection === 'venues' || collection === 'organizers' ? ctx.calendar.customFields[collection] : []
  return Object.fromEntries([...fields, ...custom.map((field) => field.name)].map((field) => [field, true]))
}

/**
 * Local-API reads on behalf of the caller: access control on, the caller's user, the request's
 * language with fallback to English, only the served fields. Every namespace read goes through here.
 */
export function readOptions(ctx: RestContext, collection?: CollectionSlug) {
  return {
    req: ctx.req,
    user: ctx.req.user,
    overrideAccess: false,
    locale: ctx.language,
    fallbackLocale: 'en',
    depth: 0,
    ...(collection ? { select: servedSelect(ctx, collection) } : {}),
  } as const
}

/** All records of a collection with these ids that the caller may read, in one query. */
export async function findByIds<T>(ctx: RestContext, collection: CollectionSlug, ids: number[]): Promise<Map<number, T>> {
  const found = new Map<number, T>()
  const unique = [...new Set(ids)]
  if (!unique.length) return found
  const result = await ctx.req.payload.find({
    ...readOptions(ctx, collection),
    collection,
    where: { id: { in: unique } },
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
export function readerKey(ctx: RestContext): string {
  return ctx.actor ? `user:${ctx.actor.id}:${roleOf(ctx.actor)}` : 'anonymous'
}

/**
 * `findByIds`, kept per content revision, reader and language: the records a page embeds or a filter
 * names (images, the venue of `venue=`) are asked once per revision, not once per request.
 */
export async function findByIdsPerRevision<T>(ctx: RestContext, collection: CollectionSlug, ids: number[]): Promise<Map<number, T>> {
  const kept = await revisionCache(ctx.req.payload).getMany<T | undefined>(
    ctx.revision,
    `records:${collection}:${ctx.language}:${readerKey(ctx)}`,
    ids.map(String),
    async (missing) => new Map([...(await findByIds<T>(ctx, collection, missing.map(Number)))].map(([id, doc]) => [String(id), doc])),
    undefined,
  )
  const found = new Map<number, T>()
  for (const [id, doc] of kept) if (doc !== undefined) found.set(Number(id), doc)
  return found
}

/** The tables of the collections that have slugs, for the slug lookup below. */
const SLUGGED: Partial<Record<CollectionSlug, string>> = { events: 'events', venues: 'venues', organizers: 'organizers' }

/**
 * The id of the record whose slug is `slug` in the request's language, else in English; existence
 * only, whoever may read it (upstream resolves slugs across statuses before checking access). One
 * hand-written query for both languages, which Payload's API would ask one after the other.
 */
export async function idBySlug(ctx: RestContext, collection: CollectionSlug, slug: string): Promise<number | undefined> {
  const table = SLUGGED[collection]
  if (!table) throw new Error(`no slug lookup for ${collection}`)
  const locales = sql.raw(`${table}_locales`)
  const rows = await requestQuery<{ id: number }>(
    ctx.req,
    sql`select _parent_id as id from ${locales} where slug = ${slug} and _locale in (${ctx.language}::_locales, 'en')
         order by (_locale = ${ctx.language}::_locales) desc, _parent_id limit 1`,
  )
  return rows[0] ? Number(rows[0].id) : undefined
}

/**
 * `search` over localized fields in the request language and in English, its fallback (docs/api.md §10).
 * `anyField`: every word in any of the fields, as WordPress searches posts (events); otherwise
 * every word in one field (venues, organizers, terms).
 */
export function searchWhere(
  ctx: RestContext,
  fields: { name: string; localized: string[]; plain: string[] },
  text: string,
  mode: 'anyField' | 'oneField' = 'oneField',
): Where {
  const inLanguages = (names: string[]) => (ctx.language === 'en' ? names : [...names, ...names.map((field) => `${field}.en`)])
  const names = inLanguages([fields.name])
  const content = [...inLanguages(fields.localized), ...fields.plain]
  const match = (operator: 'like' | 'contains', value: string): Where => ({
    or: [...names.map((path) => ({ [path]: { [operator]: value } })), withheldAware(ctx, { or: content.map((path) => ({ [path]: { [operator]: value } })) })],
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
export function withheldAware(ctx: RestContext, condition: Where): Where {
  return capabilities.editOthers(ctx.actor) ? condition : { and: [{ hasPassword: { not_equals: true } }, condition] }
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
export async function existingIds(ctx: RestContext, collection: CollectionSlug, ids: number[]): Promise<Set<number>> {
  const unique = [...new Set(ids)]
  if (!unique.length) return new Set()
  const { docs } = await ctx.req.payload.find({
    collection,
    req: ctx.req,
    overrideAccess: true,
    depth: 0,
    pagination: false,
    where: { id: { in: unique } },
    select: {},
  })
  return new Set(docs.map((doc) => doc.id as number))
}
