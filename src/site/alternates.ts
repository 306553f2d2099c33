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

export type Alternate = { language: LanguageCode; url: string }

/**
 * The languages each item has a translation in: those its name was written in (the namespace falls
 * back to English for the others, so their pages would only repeat it). One read for all the items,
 * as an anonymous visitor, after the namespace has shown them to one.
 */
export async function translationsOf(
  payload: Payload,
  collection: PageCollection,
  ids: number[],
): Promise<Map<number, LanguageCode[]>> {
  if (!ids.length) return new Map()
  const field = ITEMS[collection].name
  const { docs } = await payload.find({
    collection,
    where: { id: { in: ids } },
    locale: 'all',
    depth: 0,
    pagination: false,
    overrideAccess: false,
    select: { [field]: true },
  })
  return new Map(
    docs.map((doc) => {
      const names = ((doc as unknown as Record<string, unknown>)[field] ?? {}) as Record<
        string,
        unknown
      >
      const languages = Object.keys(names).filter(
        (code): code is LanguageCode =>
          isLanguageCode(code) && typeof names[code] === 'string' && names[code] !== '',
      )
      return [Number(doc.id), languages]
    }),
  )
}

/**
 * The item's page in English and in each of `languages`: each one's `url` as the namespace gives it
 * in that language, so patterns, the site URL and localized slugs are its own.
 */
export async function alternateUrls(
  namespaceIn: (language: LanguageCode) => Namespace,
  collection: PageCollection,
  id: number,
  languages: LanguageCode[],
): Promise<Alternate[]> {
  const found = await Promise.all(
    [...new Set<LanguageCode>([DEFAULT_LANGUAGE, ...languages])].map(async (language) => {
      const answer = await namespaceIn(language).get<{ url?: string }>(
        `/${ITEMS[collection].route}/${id}`,
      )
      return answer.status === 200 && answer.body.url
        ? { language, url: answer.body.url }
        : undefined
    }),
  )
  return found.filter((alternate) => alternate !== undefined)
}

/** The item's page in each language with a translation, English always. */
export async function alternatesOf(
  payload: Payload,
  namespaceIn: (language: LanguageCode) => Namespace,
  collection: PageCollection,
  id: number,
): Promise<Alternate[]> {
  const translations = await translationsOf(payload, collection, [id])
  return alternateUrls(namespaceIn, collection, id, translations.get(id) ?? [])
}
