/**
 * The namespace's objects as its readers see them on the wire (docs/api.md §3): the public pages,
 * which read this service, and the widget, which reads upstream WordPress sites too. Keys upstream
 * may leave out, or that only some answers carry, are optional.
 */
import type { OrganizerText, VenueText } from './linkedText'

export type ImageJson = { url: string; id?: number; width?: number; height?: number }

/** A category or tag as an event embeds it (docs/api.md §3.5). */
export type EmbeddedTermJson = { id: number; name: string; slug: string; url?: string }

/** What a venue and an organizer share. */
type LinkedJson = {
  id: number
  url?: string
  description?: string
  image?: ImageJson
  json_ld?: Record<string, unknown>
}

export type VenueJson = LinkedJson &
  VenueText & {
    venue?: string
    /** A number here; upstream writes some as strings. */
    geo_lat?: number | string
    geo_lng?: number | string
    show_map_link?: boolean | null
  }

export type OrganizerJson = LinkedJson & OrganizerText & { organizer?: string }

export type EventJson = {
  id: number
  url: string
  rest_url: string
  title: string
  description: string
  excerpt: string
  slug: string
  image: ImageJson | false
  all_day: boolean | null
  start_date: string
  end_date: string
  utc_start_date: string
  utc_end_date: string
  timezone: string
  timezone_abbr: string
  cost: string
  website: string
  featured: boolean | null
  categories: EmbeddedTermJson[]
  tags: EmbeddedTermJson[]
  /** The venue, or `[]` without one. */
  venue: VenueJson | []
  organizer: OrganizerJson[]
  /** A series' first event's rule (docs/api.md §16); upstream has no such key. */
  recurrence?: string
  /** A later occurrence's first event, else 0 (docs/api.md §16.1); upstream has no such key. */
  post_parent?: number
  json_ld?: Record<string, unknown>
}

/** A category or tag of the terms' routes (docs/api.md §3.5). */
export type TermJson = {
  id: number
  name: string
  slug: string
  description: string
  url: string
  parent?: number
  count: number
}

export type ListJson<K extends string, T> = { [key in K]: T[] } & {
  total: number
  total_pages: number
}

export type ErrorJson = { code: string; message: string; data: { status: number } }
