import type { Payload } from 'payload'
import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from '../i18n/languages'
import type { Namespace } from './namespace'

/** The collections with pages, the field that is their name, and their single route in the namespace. */
const ITEMS = {
  events: { name: 'title', route: 'events' },
  venues: { name: 'name', route: 'venues' },
  organizers: { name: 'name', route: 'organizers' },
  'event-categories': { name: 'name', route: 'categories' },
  'event-tags': { name: 'name', route: 'tags' },
} as const

export type PageCollection = keyof typeof ITEMS

/**
 * The languages an item has a translation in: those its name was written in (the namespace falls
 * back to English for the others, so their pages would only repeat it). Read as an anonymous visitor,
 * after the namespace has shown the item to one.
 */
async function translatedLanguages(payload: Payload, collection: PageCollection, id: number): Promise<LanguageCode[]> {
  const field = ITEMS[collection].name
  const doc = (await payload.findByID({
    collection,
    id,
    locale: 'all',
    depth: 0,
    overrideAccess: false,
    disableErrors: true,
    select: { [field]: true },
  })) as Record<string, unknown> | null
  const names = (doc?.[field] ?? {}) as Record<string, unknown>
  return Object.keys(names).filter((code): code is LanguageCode => isLanguageCode(code) && typeof names[code] === 'string' && names[code] !== '')
}

/**
 * The item's page in each language with a translation, English always: each one's `url` as the
 * namespace gives it in that language, so patterns, the site URL and localized slugs are its own.
 */
export async function alternatesOf(
  payload: Payload,
  namespaceIn: (language: LanguageCode) => Namespace,
  collection: PageCollection,
  id: number,
): Promise<{ language: LanguageCode; url: string }[]> {
  const languages = new Set<LanguageCode>([DEFAULT_LANGUAGE, ...(await translatedLanguages(payload, collection, id))])
  const found = await Promise.all(
    [...languages].map(async (language) => {
      const answer = await namespaceIn(language).get<{ url?: string }>(`/${ITEMS[collection].route}/${id}`)
      return answer.status === 200 && answer.body.url ? { language, url: answer.body.url } : undefined
    }),
  )
  return found.filter((alternate) => alternate !== undefined)
}
