/**
 * The resource registry: one descriptor per resource of the calendar, the single list that the
 * doors (the namespace's route table, its index and `/doc`, its messages) and every per-kind lookup
 * derive from (docs/architecture.md). It knows nothing of HTTP or wire shapes: a door keys its own
 * per-resource parts (serializers, schemas) by `ResourceKey`, so a resource added here without them is
 * a type error there.
 */

/** A resource's key is also its route base under a door: `/events`, `/categories`. */
export type ResourceKey = 'events' | 'venues' | 'organizers' | 'categories' | 'tags'

/** The name a resource has in permalinks, error codes and messages: `event`, `category`. */
export type Singular = 'event' | 'venue' | 'organizer' | 'category' | 'tag'

type Descriptor<
  K extends ResourceKey,
  S extends Singular,
  C extends string,
  F extends 'authored' | 'term',
> = {
  key: K
  singular: S
  /** The Payload collection that stores it. */
  collection: C
  /** Authored records (status, author, slug, trash, addressable by slug) or taxonomy terms (deleted for good). */
  family: F
  /** What people call one and several of them: `event category`, `event categories`. */
  noun: string
  nouns: string
  /** How the documentation groups it, and says what it is. */
  title: string
  description: string
}

export type AuthoredResource =
  | Descriptor<'events', 'event', 'events', 'authored'>
  | Descriptor<'venues', 'venue', 'venues', 'authored'>
  | Descriptor<'organizers', 'organizer', 'organizers', 'authored'>
export type TermResource =
  | Descriptor<'categories', 'category', 'event-categories', 'term'>
  | Descriptor<'tags', 'tag', 'event-tags', 'term'>
export type Resource = AuthoredResource | TermResource

export const EVENTS = {
  key: 'events',
  singular: 'event',
  collection: 'events',
  family: 'authored',
  noun: 'event',
  nouns: 'events',
  title: 'Events',
  description:
    'Events: lists with date, term, venue, organizer and geolocation filters; single reads; writes.',
} as const satisfies AuthoredResource

export const VENUES = {
  key: 'venues',
  singular: 'venue',
  collection: 'venues',
  family: 'authored',
  noun: 'venue',
  nouns: 'venues',
  title: 'Venues',
  description: 'Venues, embedded in events and managed on their own.',
} as const satisfies AuthoredResource

export const ORGANIZERS = {
  key: 'organizers',
  singular: 'organizer',
  collection: 'organizers',
  family: 'authored',
  noun: 'organizer',
  nouns: 'organizers',
  title: 'Organizers',
  description: 'Organizers, embedded in events and managed on their own.',
} as const satisfies AuthoredResource

export const CATEGORIES = {
  key: 'categories',
  singular: 'category',
  collection: 'event-categories',
  family: 'term',
  noun: 'event category',
  nouns: 'event categories',
  title: 'Categories',
  description: 'Event categories (hierarchical).',
} as const satisfies TermResource

export const TAGS = {
  key: 'tags',
  singular: 'tag',
  collection: 'event-tags',
  family: 'term',
  noun: 'event tag',
  nouns: 'event tags',
  title: 'Tags',
  description: 'Event tags (flat).',
} as const satisfies TermResource

/** Every resource, in the order the upstream API registers its routes. */
export const RESOURCES = [EVENTS, VENUES, ORGANIZERS, CATEGORIES, TAGS] as const

/** The authored resources other records link to: an event's venue and organizers. */
export const LINKED = [VENUES, ORGANIZERS] as const
export type LinkedResource = (typeof LINKED)[number]

export function resourceOf<K extends ResourceKey>(key: K): Extract<Resource, { key: K }> {
  return RESOURCES.find((resource) => resource.key === key) as Extract<Resource, { key: K }>
}

/** The resource a Payload collection stores, if the namespace serves it. */
export function resourceOfCollection(collection: string): Resource | undefined {
  return RESOURCES.find((resource) => resource.collection === collection)
}

/** The resource a path under a door starts with (`/venues/{id}` → venues), if any. */
export function resourceOfPath(path: string): Resource | undefined {
  // `/events.ics` is the events' too: a format's extension names no other resource.
  const first = path.split('/')[1]?.replace(/\.\w+$/, '')
  return RESOURCES.find((resource) => resource.key === first)
}

/** `a venue`, `an event`: for sentences that name one. */
export function aNoun(resource: Resource): string {
  return `${/^[aeiou]/.test(resource.noun) ? 'an' : 'a'} ${resource.noun}`
}

/**
 * The error codes a resource's routes answer with, as upstream names them (docs/api.md §11). Terms
 * have no trash and no archive 404.
 */
export function errorCodes(resource: AuthoredResource) {
  const { singular } = resource
  return {
    notFound: `rest-${singular}-not-found`,
    notAccessible: `${singular}-not-accessible`,
    pastLastPage: `${singular}-archive-page-not-found`,
    inTrash: `${singular}-is-in-trash`,
  } as const
}
