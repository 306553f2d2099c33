import type { Event, EventCategory, EventTag, Media, Organizer, Venue } from '../../payload-types'
import type { RestContext } from '../context'
import { idOf } from '../serialize/common'
import type { Related } from '../serialize/related'
import { findByIds, findByIdsPerRevision } from './read'
import { termCounts } from './termCounts'

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
export async function loadRelated(ctx: RestContext, events: Event[]): Promise<Related> {
  const [venues, organizers, categories, tags] = await Promise.all([
    findByIds<Venue>(ctx, 'venues', ids(events.map((e) => e.venue))),
    findByIds<Organizer>(ctx, 'organizers', ids(events.map((e) => e.organizers))),
    findByIds<EventCategory>(ctx, 'event-categories', ids(events.map((e) => e.categories))),
    findByIds<EventTag>(ctx, 'event-tags', ids(events.map((e) => e.tags))),
  ])
  const images = ids([...events, ...venues.values(), ...organizers.values()].map((item) => item.image))
  const [media, counts] = await Promise.all([findByIdsPerRevision<Media>(ctx, 'media', images), termCounts(ctx, [...categories.keys()], [...tags.keys()])])
  return { venues, organizers, categories, tags, media, termCounts: counts }
}
