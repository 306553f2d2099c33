/**
 * What every import source yields, whatever it reads (a CSV file, another calendar's API, an
 * iCalendar feed): items of five kinds, each with the id the source knows it by. A field left
 * undefined is one the source says nothing about: an update keeps its stored value.
 */
import type { CurrencyPosition } from '../calendar/cost'

export const IMPORT_KINDS = ['category', 'tag', 'venue', 'organizer', 'event'] as const
export type ImportKind = (typeof IMPORT_KINDS)[number]

/**
 * A link to another item of the same source: by its source id when that item was imported, else to
 * the local item of that name, else to a new one with only that name.
 */
export type ItemRef = { sourceId: string; name: string }

export type TermItem = { name: string; description?: string | null; parent?: ItemRef | null }

export type VenueItem = {
  name: string
  description?: string | null
  address?: string | null
  city?: string | null
  country?: string | null
  /** State or province: stored as the state in the United States, as the province elsewhere. */
  stateProvince?: string | null
  zip?: string | null
  phone?: string | null
  website?: string | null
}

export type OrganizerItem = {
  name: string
  description?: string | null
  email?: string | null
  phone?: string | null
  website?: string | null
}

export type EventItem = {
  title: string
  /** HTML, or plain text whose blank lines separate paragraphs. */
  description?: string | null
  excerpt?: string | null
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
  currencyPosition?: CurrencyPosition
  website?: string | null
  /** An image's URL, or the id of a stored one. */
  image?: string | null
  featured?: boolean
  sticky?: boolean
  showMap?: boolean
  showMapLink?: boolean
}

type ItemData = { category: TermItem; tag: TermItem; venue: VenueItem; organizer: OrganizerItem; event: EventItem }

/** Where an item came from, for reports: `row 12`, `event 345`. */
type Labelled = { label: string }

export type SourceItem = { [K in ImportKind]: Labelled & { kind: K; sourceId: string; data: ItemData[K] } }[ImportKind]

/** An item the source could not read (an invalid date, no name): reported, never written. */
export type UnreadableItem = Labelled & { kind: ImportKind; error: string }

export interface ImportSource {
  /** The source's identity in the mapping table: `csv`, or another calendar's or a feed's URL. */
  name: string
  /** How many items of each kind it yields, for progress. */
  totals: Partial<Record<ImportKind, number>>
  items(): AsyncIterable<SourceItem | UnreadableItem>
}
