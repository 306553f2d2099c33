import { messagesOf } from '../../i18n/messages'
import type { LanguageCode } from '../../i18n/languages'

/** A feed's filter as a reader would say it: the names of what it names, its flags, its dates. */
export type FeedFilter = {
  categories: string[]
  tags: string[]
  venues: string[]
  organizers: string[]
  featured?: boolean
  search?: string
  /** The days the caller gave, `YYYY-MM-DD`. */
  from?: string
  until?: string
}

/** X-WR-CALDESC: `Events in Music or Jazz, at Hall A, from 2026-12-01`, in the feed's language. */
export function feedDescription(language: LanguageCode, filter: FeedFilter): string {
  const words = messagesOf(language)
  const named = (names: string[], phrase: (list: string) => string) =>
    names.length ? [phrase(names.join(words.or))] : []
  const parts = [
    ...named(filter.categories, words.inCategories),
    ...named(filter.tags, words.taggedWith),
    ...named(filter.venues, words.atVenues),
    ...named(filter.organizers, words.byOrganizers),
    ...(filter.featured === undefined
      ? []
      : [filter.featured ? words.featuredOnly : words.notFeatured]),
    ...(filter.search ? [words.matching(filter.search)] : []),
    ...(filter.from ? [words.from(filter.from)] : []),
    ...(filter.until ? [words.until(filter.until)] : []),
  ]
  return [words.events, parts.join(words.separator)].filter(Boolean).join(' ')
}
