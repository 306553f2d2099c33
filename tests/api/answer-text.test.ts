/**
 * Answers written in one pass (docs/performance.md "The answer in one pass"): the serializers write
 * each event, venue and organizer as JSON text and lists splice them into their envelope. What a
 * reader gets is the JSON of the documented objects, byte for byte, the same in a list as alone.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT, unique } from '../support/api'
import {
  createCategory,
  createEvent,
  createOrganizer,
  createTag,
  createVenue,
  ns,
  qs,
} from '../support/fixtures'

type Json = Record<string, unknown>

/** The answer's text as sent, and its JSON. */
async function raw(path: string): Promise<{ status: number; text: string; body: Json }> {
  const response = await fetch(`${ROOT}${path}`)
  const text = await response.text()
  return { status: response.status, text, body: JSON.parse(text) as Json }
}

/** An object of a single read as lists show it: single reads add `json_ld`, to it and to what it embeds. */
function withoutJsonLd(item: Json): Json {
  const { json_ld: _omitted, ...rest } = item
  for (const key of ['venue', 'organizer'])
    if (Array.isArray(rest[key])) rest[key] = (rest[key] as Json[]).map(withoutJsonLd)
    else if (rest[key] && typeof rest[key] === 'object')
      rest[key] = withoutJsonLd(rest[key] as Json)
  return rest
}

describe('answers written in one pass', () => {
  const tag = unique('onepass')
  const ids = { venue: 0, organizer: 0, category: 0, tag: 0, events: [] as number[] }

  beforeAll(async () => {
    const venue = await createVenue({
      name: `${tag} venue "quoted" \\ é`,
      city: 'Quito',
      geoLat: 0,
      geoLng: -78.5,
      phone: '',
    })
    const organizer = await createOrganizer({ name: `${tag} organizer`, email: 'o@example.com' })
    const category = await createCategory({ name: `${tag} category` })
    const eventTag = await createTag({ name: `${tag} tag` })
    Object.assign(ids, {
      venue: venue.id,
      organizer: organizer.id,
      category: category.id,
      tag: eventTag.id,
    })
    const linked = {
      venue: venue.id,
      organizers: [organizer.id],
      categories: [category.id],
      tags: [eventTag.id],
    }
    ids.events = [
      (
        await createEvent({
          title: `${tag} one </script>\u2028`,
          start: '2035-03-01T18:00:00.000Z',
          cost: ['0', '12'],
          ...linked,
        })
      ).id,
      (await createEvent({ title: `${tag} two`, start: '2035-03-02T18:00:00.000Z', ...linked })).id,
      (
        await createEvent({
          title: `${tag} locked`,
          start: '2035-03-03T18:00:00.000Z',
          password: 'sesame',
          ...linked,
        })
      ).id,
      (await createEvent({ title: `${tag} alone`, start: '2035-03-04T18:00:00.000Z' })).id,
    ]
  })

  const listPath = () =>
    `/events?${qs({ include: ids.events.join(','), start_date: '2035-03-01', end_date: '2035-03-05' })}`

  it("writes a list as its objects' JSON: no key twice, nothing but what JSON.stringify writes", async () => {
    const { status, text, body } = await raw(listPath())
    expect(status).toBe(200)
    expect(text).toBe(JSON.stringify(body))
    const events = body.events as Json[]
    expect(events.map((event) => event.id)).toEqual(ids.events)
    expect(Object.keys(body)).toEqual(['events', 'rest_url', 'total', 'total_pages'])
    // The terms the events share are written once and spliced into each.
    const [one, two, locked, alone] = events as [Json, Json, Json, Json]
    expect(one.categories).toEqual(two.categories)
    expect((one.categories as Json[])[0]).toMatchObject({
      id: ids.category,
      count: expect.any(Number),
    })
    expect(one.tags).toEqual(two.tags)
    expect(one.venue).toMatchObject({ id: ids.venue, geo_lat: 0, geo_lng: -78.5, city: 'Quito' })
    expect(one.venue).not.toHaveProperty('phone')
    expect(one.cost).toMatch(/^Free – \D?12\D?$/)
    expect(alone.venue).toEqual([])
    expect(alone.organizer).toEqual([])
    expect(Object.keys(locked)).toEqual(Object.keys(alone))
    expect(locked).toMatchObject({ venue: [], categories: [], cost: '', all_day: null })
  })

  it('shows an event, a venue and an organizer in a list as their single reads show them, but json_ld', async () => {
    const { body } = await raw(listPath())
    const [one] = body.events as Json[]
    const single = await raw(`/events/${ids.events[0]}`)
    expect(single.text).toBe(JSON.stringify(single.body))
    expect(single.body.json_ld).toMatchObject({ '@type': 'Event' })
    expect(withoutJsonLd(single.body)).toEqual(one)

    for (const [kind, id] of [
      ['venues', ids.venue],
      ['organizers', ids.organizer],
    ] as const) {
      const alone = await raw(`/${kind}/${id}`)
      expect(alone.text).toBe(JSON.stringify(alone.body))
      expect(alone.body.json_ld).toBeDefined()
      const listed = await ns(`/${kind}?${qs({ event: ids.events[0] })}`)
      expect(listed.status).toBe(200)
      expect(withoutJsonLd(alone.body)).toEqual(listed.body[kind][0])
      const embedded = kind === 'venues' ? one!.venue : (one!.organizer as Json[])[0]
      expect(embedded).toEqual(listed.body[kind][0])
    }
  })
})
