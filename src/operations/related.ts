import { termCounts } from '../database/terms/termCounts'
import { idOf } from '../calendar/relationId'
import type { Event, EventCategory, EventTag, Media, Organizer, Venue } from '../payload-types'
import { findByIds, findByIdsPerRevision } from './read'
import type { Reader } from './reader'

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
  return {
    venues: new Map(),
    organizers: new Map(),
    categories: new Map(),
    tags: new Map(),
    media: new Map(),
    termCounts: new Map(),
  }
}

/** The records several loads embed, together (a record loaded twice is the same record). */
export function mergeRelated(...all: Related[]): Related {
  const merged = emptyRelated()
  for (const related of all) {
    for (const kind of [
      'venues',
      'organizers',
      'categories',
      'tags',
      'media',
      'termCounts',
    ] as const) {
      for (const [key, value] of related[kind] as Map<unknown, unknown>)
        (merged[kind] as Map<unknown, unknown>).set(key, value)
    }
  }
  return merged
}

function ids(values: unknown[]): number[] {
  return values
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .map(idOf)
    .filter((id): id is number => id !== undefined)
}

/**
 * Everything a page of events embeds, in a fixed number of queries whatever the page size: one per
 * kind of related record, then images of all of them, then the term counts.
 */
export async function loadRelated(reader: Reader, events: Event[]): Promise<Related> {
  const [venues, organizers, categories, tags] = await Promise.all([
    findByIds<Venue>(reader, 'venues', ids(events.map((e) => e.venue))),
    findByIds<Organizer>(reader, 'organizers', ids(events.map((e) => e.organizers))),
    findByIds<EventCategory>(reader, 'event-categories', ids(events.map((e) => e.categories))),
    findByIds<EventTag>(reader, 'event-tags', ids(events.map((e) => e.tags))),
  ])
  const images = ids(
    [...events, ...venues.values(), ...organizers.values()].map((item) => item.image),
  )
  const [media, counts] = await Promise.all([
    findByIdsPerRevision<Media>(reader, 'media', images),
    termCounts(reader, [...categories.keys()], [...tags.keys()]),
  ])
  return { venues, organizers, categories, tags, media, termCounts: counts }
}
