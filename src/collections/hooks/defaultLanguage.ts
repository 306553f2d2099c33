import type { CollectionAfterChangeHook, CollectionSlug } from 'payload'
import { copyLanguage } from '../../database/languageCopy'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'
import { freeSlug, slugBase } from '../fields/slug'

/**
 * A record created in another language gets the same values in the default one, with a slug free
 * there, so English readers (everyone's fallback) never get an item without a name
 * (docs/api.md §10). Payload's create writes the request's language alone; this runs for every door that
 * creates (the namespace, Payload's REST and GraphQL, the admin, imports), after the version is
 * saved, so that version holds both, and before a series the record heads is made from it. `name`
 * is the collection's required localized name.
 */
export function fillDefaultLanguage(name: string): CollectionAfterChangeHook {
  return async ({ collection, data, doc, operation, req }) => {
    const language = req.locale
    if (operation !== 'create' || !language || language === 'all' || language === DEFAULT_LANGUAGE)
      return doc
    const slugOf = collection.slug as CollectionSlug
    const base = slugBase(String(data.slug ?? data[name] ?? doc.slug ?? ''))
    await copyLanguage(req, {
      collection: slugOf,
      id: doc.id as number,
      from: language,
      to: DEFAULT_LANGUAGE,
      slug: await freeSlug(req, slugOf, base, doc.id, DEFAULT_LANGUAGE),
    })
    return doc
  }
}
