/** The parts of the namespace's answers (docs/api.md §3) that the pages read. */

export type EventImage = { url: string; width?: number; height?: number }

export type EventTerm = { id: number; name: string; slug: string; url?: string }

export type VenueJson = {
  id: number
  url?: string
  venue?: string
  description?: string
  address?: string
  city?: string
  stateprovince?: string
  zip?: string
  country?: string
  phone?: string
  website?: string
  geo_lat?: number
  geo_lng?: number
  show_map_link?: boolean | null
  image?: EventImage
  json_ld?: Record<string, unknown>
}

export type OrganizerJson = {
  id: number
  url?: string
  organizer?: string
  description?: string
  phone?: string
  website?: string
  email?: string
  image?: EventImage
  json_ld?: Record<string, unknown>
}

export type EventJson = {
  id: number
  url: string
  rest_url: string
  title: string
  description: string
  excerpt: string
  slug: string
  image: EventImage | false
  all_day: boolean | null
  start_date: string
  end_date: string
  utc_start_date: string
  utc_end_date: string
  timezone: string
  timezone_abbr: string
  cost: string
  website: string
  categories: EventTerm[]
  tags: EventTerm[]
  venue: VenueJson | []
  organizer: OrganizerJson[]
  recurrence: string
  json_ld?: Record<string, unknown>
}

export type TermJson = { id: number; name: string; slug: string; description: string; url: string; parent?: number; count: number }

export type ListJson<K extends string, T> = { [key in K]: T[] } & { total: number; total_pages: number }

export type ErrorJson = { code: string; message: string; data: { status: number } }
