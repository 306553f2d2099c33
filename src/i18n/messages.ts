import { DEFAULT_LANGUAGE, type LanguageCode } from './languages'

/** What the calendar says to readers in words: the prefix of private titles, and a feed's filter. */
export type Messages = {
  /** WordPress's title of a private post, as `get_the_title()` writes it. */
  privateTitle: (title: string) => string
  events: string
  inCategories: (names: string) => string
  taggedWith: (names: string) => string
  atVenues: (names: string) => string
  byOrganizers: (names: string) => string
  featuredOnly: string
  notFeatured: string
  matching: (search: string) => string
  from: (date: string) => string
  until: (date: string) => string
  /** Joins the items of one filter, any of which an event may match: `Music or Jazz`. */
  list: (items: string[]) => string
}

const either = (word: string) => (items: string[]) => items.join(` ${word} `)

const EN: Messages = {
  privateTitle: (title) => `Private: ${title}`,
  events: 'Events',
  inCategories: (names) => `in ${names}`,
  taggedWith: (names) => `tagged ${names}`,
  atVenues: (names) => `at ${names}`,
  byOrganizers: (names) => `by ${names}`,
  featuredOnly: 'featured only',
  notFeatured: 'not featured',
  matching: (search) => `matching “${search}”`,
  from: (date) => `from ${date}`,
  until: (date) => `until ${date}`,
  list: either('or'),
}

const FR: Messages = {
  privateTitle: (title) => `Privé : ${title}`,
  events: 'Évènements',
  inCategories: (names) => `dans ${names}`,
  taggedWith: (names) => `avec l’étiquette ${names}`,
  atVenues: (names) => `à ${names}`,
  byOrganizers: (names) => `par ${names}`,
  featuredOnly: 'mis en avant seulement',
  notFeatured: 'non mis en avant',
  matching: (search) => `contenant « ${search} »`,
  from: (date) => `à partir du ${date}`,
  until: (date) => `jusqu’au ${date}`,
  list: either('ou'),
}

const DE: Messages = {
  privateTitle: (title) => `Privat: ${title}`,
  events: 'Veranstaltungen',
  inCategories: (names) => `in ${names}`,
  taggedWith: (names) => `mit Schlagwort ${names}`,
  atVenues: (names) => `in ${names}`,
  byOrganizers: (names) => `von ${names}`,
  featuredOnly: 'nur hervorgehobene',
  notFeatured: 'nicht hervorgehobene',
  matching: (search) => `mit „${search}“`,
  from: (date) => `ab ${date}`,
  until: (date) => `bis ${date}`,
  list: either('oder'),
}

const ES: Messages = {
  privateTitle: (title) => `Privado: ${title}`,
  events: 'Eventos',
  inCategories: (names) => `en ${names}`,
  taggedWith: (names) => `con la etiqueta ${names}`,
  atVenues: (names) => `en ${names}`,
  byOrganizers: (names) => `de ${names}`,
  featuredOnly: 'solo destacados',
  notFeatured: 'no destacados',
  matching: (search) => `que contienen «${search}»`,
  from: (date) => `desde el ${date}`,
  until: (date) => `hasta el ${date}`,
  list: either('o'),
}

const MESSAGES: Partial<Record<LanguageCode, Messages>> = { en: EN, fr: FR, de: DE, es: ES }

/** The messages of a language; a language without its own table reads English. */
export function messagesOf(language: LanguageCode): Messages {
  return MESSAGES[language] ?? MESSAGES[DEFAULT_LANGUAGE]!
}
