import type { EventCategory, EventTag, Media, Organizer, Venue } from '../../payload-types'

/** Records that serialized items embed, loaded in one batch per kind for a whole page. */
export type Related = {
  venues: Map<number, Venue>
  organizers: Map<number, Organizer>
  categories: Map<number, EventCategory>
  tags: Map<number, EventTag>
  media: Map<number, Media>
  /** Published events per term: `category:3`, `tag:7`. */
  termCounts: Map<string, number>
  /** Slugs of each child category's ancestors, outermost first, for its archive URL (`/categories` answers only). */
  categoryAncestors?: Map<number, string[]>
}

export function emptyRelated(): Related {
  return { venues: new Map(), organizers: new Map(), categories: new Map(), tags: new Map(), media: new Map(), termCounts: new Map() }
}

/** The records several loads embed, together (a record loaded twice is the same record). */
export function mergeRelated(...all: Related[]): Related {
  const merged = emptyRelated()
  for (const related of all) {
    for (const kind of ['venues', 'organizers', 'categories', 'tags', 'media', 'termCounts'] as const) {
      for (const [key, value] of related[kind] as Map<unknown, unknown>) (merged[kind] as Map<unknown, unknown>).set(key, value)
    }
  }
  return merged
}
