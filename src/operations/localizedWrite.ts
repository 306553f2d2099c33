import type { CollectionSlug, TypedLocale } from 'payload'
import { seriesLater } from '../collections/series'
import { DEFAULT_LANGUAGE } from '../i18n/languages'
import type { Writer } from './writer'

/** The required localized name of each collection the namespace writes. */
const NAME_FIELD: Partial<Record<CollectionSlug, string>> = {
  events: 'title',
  venues: 'name',
  organizers: 'name',
  'event-categories': 'name',
  'event-tags': 'name',
}

function writeOptions(writer: Writer, locale: string) {
  return { req: writer.req, user: writer.req.user, overrideAccess: false, depth: 0, locale: locale as TypedLocale } as const
}

/**
 * Creates a record from a write in any language: its values become the default language's too, so
 * English readers (everyone's fallback) never get an item without a name; the request language then
 * holds them as its own. Payload's create writes one language, so that is a create and an update; a
 * series is written once, by the update, in both languages.
 */
export async function createInLanguage(writer: Writer, collection: CollectionSlug, data: Record<string, unknown>): Promise<number> {
  const create = () => writer.req.payload.create({ ...writeOptions(writer, DEFAULT_LANGUAGE), collection, data: data as never })
  if (writer.language === DEFAULT_LANGUAGE) return (await create()).id as number
  const created = await seriesLater(writer.req, create)
  await writer.req.payload.update({ ...writeOptions(writer, writer.language), collection, id: created.id, data: data as never })
  return created.id as number
}

/**
 * Updates a record in the request language. Payload checks required localized fields in that
 * language, so an item not yet translated gets its fallback name there unless the write sends one.
 */
export async function updateInLanguage(writer: Writer, collection: CollectionSlug, id: number, data: Record<string, unknown>): Promise<void> {
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
  await writer.req.payload.update({ ...writeOptions(writer, writer.language), collection, id, data: values as never })
}
