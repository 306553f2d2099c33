import type { CollectionSlug, TypedLocale } from 'payload'
import { afterEventWrite, asUpkeep, seriesLater } from '../collections/series'
import type { Event } from '../payload-types'
import { keepSettingsRead } from '../globals/siteSettings'
import { DEFAULT_LANGUAGE } from '../i18n/languages'
import type { Writer } from './writer'
import { resourceOfCollection } from '../calendar/resources'
import { whileItExists } from './readOne'

/** A record as Payload's create or update answered it: in the request language, at depth 0. */
export type WrittenDoc = { id: number } & Record<string, unknown>

/** The required localized name of each collection the namespace writes. */
const NAME_FIELD: Partial<Record<CollectionSlug, string>> = {
  events: 'title',
  venues: 'name',
  organizers: 'name',
  'event-categories': 'name',
  'event-tags': 'name',
}

/** Payload's options for a write in `locale`; its hooks take the site's settings from the writer. */
function writeOptions(writer: Writer, locale: string) {
  keepSettingsRead(writer.req, writer.settings)
  return {
    req: writer.req,
    user: writer.req.user,
    overrideAccess: writer.system === true,
    depth: 0,
    locale: locale as TypedLocale,
  } as const
}

/**
 * Creates a record from a write in any language, in one write: its values become the default
 * language's too (the collections' `fillDefaultLanguage`, as for every door), so English readers
 * never get an item without a name, and the request language holds them as its own. A series the
 * event heads is made after that copy, so the occurrences get both languages.
 */
export async function createInLanguage(
  writer: Writer,
  collection: CollectionSlug,
  data: Record<string, unknown>,
): Promise<WrittenDoc> {
  const { req } = writer
  const create = async () =>
    (await req.payload.create({
      ...writeOptions(writer, writer.language),
      collection,
      data: data as never,
    })) as unknown as WrittenDoc
  if (writer.language === DEFAULT_LANGUAGE) return create()
  const created = await seriesLater(req, create)
  if (collection === 'events') {
    const scope = { req, now: new Date(), settings: writer.settings, language: writer.language }
    await asUpkeep(req, () => afterEventWrite(scope, created as unknown as Event, undefined))
  }
  return created
}

/**
 * Updates a record in the request language. Payload checks required localized fields in that
 * language, so an item not yet translated gets its fallback name there unless the write sends one.
 */
export async function updateInLanguage(
  writer: Writer,
  collection: CollectionSlug,
  id: number,
  data: Record<string, unknown>,
): Promise<WrittenDoc> {
  const name = NAME_FIELD[collection]
  const values = { ...data }
  if (name && values[name] === undefined && writer.language !== DEFAULT_LANGUAGE) {
    const own = (await writer.req.payload.findByID({
      collection,
      id,
      req: writer.req,
      overrideAccess: true,
      depth: 0,
      locale: writer.language as TypedLocale,
      fallbackLocale: false,
      select: { [name]: true },
    })) as unknown as Record<string, unknown>
    if (!own[name]) {
      const fallback = (await writer.req.payload.findByID({
        collection,
        id,
        req: writer.req,
        overrideAccess: true,
        depth: 0,
        locale: DEFAULT_LANGUAGE as TypedLocale,
        select: { [name]: true },
      })) as unknown as Record<string, unknown>
      values[name] = fallback[name]
    }
  }
  const update = async () =>
    (await writer.req.payload.update({
      ...writeOptions(writer, writer.language),
      collection,
      id,
      data: values as never,
    })) as unknown as WrittenDoc
  const resource = resourceOfCollection(collection)
  return resource ? whileItExists(writer.req, resource, id, update) : update()
}
