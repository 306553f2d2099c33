import type { Payload } from 'payload'
import { sideBySide } from '../calendar/sideBySide'
import { termWithTakenName } from '../collections/hooks/termNames'
import { demoCategories, demoEvents, demoOrganizers, demoTags, demoVenues } from './demoData'

export const DEMO_EVENT_COUNT = 240

/** Fewer than the pool's connections (at least 3, `DATABASE_POOL_MAX`), each write holding one. */
const SEED_WRITES_AT_ONCE = 3

/** A lexical document of one paragraph: what the admin's editor would have saved. */
function paragraph(text: string) {
  return {
    root: {
      type: 'root',
      version: 1,
      direction: 'ltr' as const,
      format: '' as const,
      indent: 0,
      children: [
        {
          type: 'paragraph',
          version: 1,
          direction: 'ltr' as const,
          format: '' as const,
          indent: 0,
          textFormat: 0,
          children: [
            { type: 'text', version: 1, text, detail: 0, format: 0, mode: 'normal', style: '' },
          ],
        },
      ],
    },
  }
}

/** A top-level term of this name: the calendar's own where it has one (names are unique among siblings, case aside), else a new one. */
async function termNamed(
  payload: Payload,
  collection: 'event-categories' | 'event-tags',
  name: string,
): Promise<{ id: number }> {
  try {
    return await payload.create({ collection, data: { name } })
  } catch (error) {
    const taken = termWithTakenName(error)
    if (taken === undefined) throw error
    return { id: taken }
  }
}

/** Fills an empty calendar with demo content; a calendar that already has events is left alone. */
export async function seedDemoData(
  payload: Payload,
  now = new Date(),
): Promise<{ created: number; skipped: boolean }> {
  if ((await payload.count({ collection: 'events' })).totalDocs > 0)
    return { created: 0, skipped: true }
  const published = { status: 'publish' as const }
  const venues = await Promise.all(
    demoVenues.map((venue) =>
      payload.create({ collection: 'venues', data: { ...venue, ...published } }),
    ),
  )
  const organizers = await Promise.all(
    demoOrganizers.map((organizer) =>
      payload.create({ collection: 'organizers', data: { ...organizer, ...published } }),
    ),
  )
  const categories = await Promise.all(
    demoCategories.map((name) => termNamed(payload, 'event-categories', name)),
  )
  const tags = await Promise.all(demoTags.map((name) => termNamed(payload, 'event-tags', name)))

  // Side by side, PostgreSQL works on one event while Node prepares the next: a one-by-one seed kept
  // the machine's second core mostly idle.
  const done = await sideBySide(
    demoEvents(DEMO_EVENT_COUNT, now),
    SEED_WRITES_AT_ONCE,
    async (event) => {
      const doc = await payload.create({
        collection: 'events',
        data: {
          ...published,
          title: event.title,
          description: paragraph(event.description),
          start: event.start.toISOString(),
          end: event.end.toISOString(),
          allDay: event.allDay,
          venue: venues[event.venue]!.id,
          organizers: event.organizers.map((i) => organizers[i]!.id),
          categories: event.categories.map((i) => categories[i]!.id),
          tags: event.tags.map((i) => tags[i]!.id),
          cost: event.cost,
          featured: event.featured,
        },
      })
      for (const locale of ['fr', 'ar'] as const) {
        const title = event.translations?.[locale]
        if (title)
          await payload.update({ collection: 'events', id: doc.id, locale, data: { title } })
      }
    },
  )
  return { created: done.length, skipped: false }
}
