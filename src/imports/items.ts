/**
 * What every import source yields, whatever it reads (a CSV file, another calendar's API, an
 * iCalendar feed): items of five kinds, each with the id the source knows it by. A field left
 * undefined is one the source says nothing about: an update keeps its stored value.
 */
import type { Status } from '../calendar/access/capabilities'
import type { CurrencyPosition } from '../calendar/cost'

export const IMPORT_KINDS = ['category', 'tag', 'venue', 'organizer', 'event'] as const
export type ImportKind = (typeof IMPORT_KINDS)[number]

/**
 * A link to another item of the same source: by its source id when that item was imported, else to
 * the local item of that name, else to a new one with only that name.
 */
export type ItemRef = { sourceId: string; name: string }

/**
 * An item's localized fields (`title` or `name`, `description`, `excerpt`, `slug`) in a language other
 * than the default, as the source gives them there; only languages whose values differ from the
 * default's are given (the others fall back to it, here as at the source).
 */
export type Translations = Record<string, Record<string, string | null>>

/** What every kind may carry besides its own fields. */
type Common = {
  slug?: string | null
  translations?: Translations
}

/** What events, venues and organizers share: publication, protection, an image and an excerpt. */
type Authored = Common & {
  /** Undefined: the run's status on create, unchanged on update; `trash` only from a site read with its trash (docs/api.md §23.5). */
  status?: Status
  /** Null: no password. */
  password?: string | null
  /** Publication date (ISO 8601), a scheduled item's included. */
  publishedAt?: string | null
  /** An image's URL, or the id of a stored one. */
  image?: string | null
  excerpt?: string | null
}

export type TermItem = Common & {
  name: string
  description?: string | null
  parent?: ItemRef | null
}

export type VenueItem = Authored & {
  name: string
  description?: string | null
  address?: string | null
  city?: string | null
  country?: string | null
  /** State or province: stored as the state in the United States, as the province elsewhere. */
  stateProvince?: string | null
  /** State and province apart, for sources that keep both. */
  state?: string | null
  province?: string | null
  zip?: string | null
  phone?: string | null
  website?: string | null
  geoLat?: number | null
  geoLng?: number | null
  showMap?: boolean
  showMapLink?: boolean
  /** The address a venue created from this item gets, where an existing one keeps its own (an iCalendar LOCATION's text after the name). */
  newAddress?: string | null
}

export type OrganizerItem = Authored & {
  name: string
  description?: string | null
  email?: string | null
  phone?: string | null
  website?: string | null
}

export type EventItem = Authored & {
  title: string
  /** HTML, or plain text whose blank lines separate paragraphs. */
  description?: string | null
  /** Wall clock `YYYY-MM-DD HH:MM:SS` in the event's zone; the end is not before the start. */
  start: string
  end: string
  allDay?: boolean
  /** A zone `parseZone` reads; null: the site's zone. */
  timezone?: string | null
  venue?: ItemRef | null
  organizers?: ItemRef[]
  categories?: ItemRef[]
  tags?: ItemRef[]
  cost?: string[]
  currencySymbol?: string | null
  currencyCode?: string | null
  currencyPosition?: CurrencyPosition
  website?: string | null
  featured?: boolean
  sticky?: boolean
  showMap?: boolean
  showMapLink?: boolean
  hideFromListings?: boolean
  /** A series' rule (docs/api.md §16): RRULE, RDATE and EXDATE lines on the event zone's wall clock. */
  recurrence?: string | null
  /**
   * A later event of a series whose first event the source yields under `parent`: it becomes the
   * local occurrence of that series on `day` (the day the rule gave it, `YYYY-MM-DD`), an exception
   * where it differs.
   */
  occurrenceOf?: { parent: ItemRef; day: string }
}

type ItemData = {
  category: TermItem
  tag: TermItem
  venue: VenueItem
  organizer: OrganizerItem
  event: EventItem
}

/** Where an item came from, for reports: `row 12`, `event 345`. */
type Labelled = { label: string }

/** `notes`: what the source had for the item but the import could not carry (the summary lists them). */
export type SourceItem = {
  [K in ImportKind]: Labelled & { kind: K; sourceId: string; data: ItemData[K]; notes?: string[] }
}[ImportKind]

/**
 * An item the source could not read (an invalid date, no name, a page that did not load): reported,
 * never written. Its source id, when known, keeps a subscription from trashing what it was.
 */
export type UnreadableItem = Labelled & { kind: ImportKind; error: string; sourceId?: string }

export interface ImportSource {
  /** The source's identity in the mapping table: `csv`, `ical`, or another calendar's or a feed's URL. */
  name: string
  /**
   * The kinds whose items, when no mapping names them yet, adopt a local item of the same name (an
   * event: the same title and start), as upstream's CSV importer does. Every other item is known by its
   * source id alone: iCalendar events by their UID, a site's items by their ids (two categories named
   * alike stay two).
   */
  matchByName: readonly ImportKind[]
  /** What the source holds that no item of the run carries (trashed items left behind, fields never copied): the summary lists it. */
  notes?(): string[]
  /** How many items of each kind it yields, for progress (a source may raise them as it reads). */
  totals: Partial<Record<ImportKind, number>>
  items(): AsyncIterable<SourceItem | UnreadableItem>
  /** After `items()`: whether every item of the source was read (no page missing), so what it did not yield has left it. */
  complete?(): boolean
}
