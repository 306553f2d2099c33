import type { Status } from '../../calendar/access/capabilities'
import type { CurrencyPosition } from '../../calendar/cost'
import type { OrganizerText, VenueText } from '../../calendar/linkedText'

/**
 * The validated fields of a write to an event, a venue or an organizer, by the contract's names
 * (docs/api.md §6): a field left out is left as it is. `custom` holds the developers' fields, read
 * by their Payload types.
 */
export type AuthoredInput = {
  author?: number
  date?: string | number
  date_utc?: string | number
  description?: string
  excerpt?: string
  slug?: string
  status?: Status
  image?: string | number
  password?: string
  custom?: Record<string, unknown>
}

export type VenueInput = AuthoredInput &
  VenueText & {
    venue?: string
    show_map?: boolean
    show_map_link?: boolean
    geo_lat?: number | ''
    geo_lng?: number | ''
  }

export type OrganizerInput = AuthoredInput & OrganizerText & { organizer?: string }

/** A linked record as an event names it: an id, or one to create (or reuse, if it exists). */
export type LinkEntry<T> = number | T

export type EventInput = AuthoredInput & {
  title?: string
  start_date?: string | number
  end_date?: string | number
  timezone?: string
  all_day?: boolean
  cost?: string | number | (string | number)[]
  website?: string
  show_map?: boolean
  show_map_link?: boolean
  hide_from_listings?: boolean
  sticky?: boolean
  featured?: boolean
  ticketed?: boolean
  categories?: string[]
  tags?: string[]
  venue?: null | LinkEntry<VenueInput> | LinkEntry<VenueInput>[]
  organizer?: null | LinkEntry<OrganizerInput> | LinkEntry<OrganizerInput>[]
  parent?: number | null
  recurrence?: string
  /** An occurrence that keeps its own values when its series' upkeep rewrites the others (an import's). */
  recurrence_exception?: boolean
  /** A cost kept as its source spells it (an import's), instead of `cost` read as people write it. */
  spelled_cost?: SpelledCost
}

/** A cost's values and currency as stored; a field left out is left as it is. */
export type SpelledCost = {
  values?: string[]
  symbol?: string | null
  code?: string | null
  position?: CurrencyPosition
}

export type InputOf = { events: EventInput; venues: VenueInput; organizers: OrganizerInput }
