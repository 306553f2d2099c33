/**
 * A write's answer is the item as the namespace serves it next (docs/api.md §6.1): whether the
 * answer is made from Payload's own answer to the write or read back, in the default language and in
 * another, for a create, an update and a series' first event.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { call, NS, type TestUser, unique, uploadImage, usersOfEveryRole } from '../support/api'
import { api, createOrganizerAs, createVenueAs } from '../support/writeFixtures'

let editor: TestUser
let author: TestUser

beforeAll(async () => {
  ;({ editor, author } = await usersOfEveryRole())
})

/** A value without `json_ld`, at any depth: single reads add it to the item and what it embeds. */
function withoutJsonLd(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutJsonLd)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'json_ld')
      .map(([key, inner]) => [key, withoutJsonLd(inner)]),
  )
}

/** The single read of the item in `root`'s language, without what only single reads add. */
async function servedNext(root: string, path: string, token: string) {
  const reply = await call(`${root}${path}`, { token })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return withoutJsonLd(reply.body)
}

function fullEvent(venue: number, organizers: number[], image: number) {
  return {
    title: unique('Answered '),
    description: '<p>One <em>two</em></p>',
    excerpt: 'Short',
    start_date: '2031-03-04 18:00:00',
    end_date: '2031-03-04 20:00:00',
    timezone: 'Europe/Paris',
    cost: ['5', '15'],
    website: 'https://example.org/answered',
    sticky: true,
    venue,
    organizer: organizers,
    categories: [unique('Answer cat ')],
    tags: [unique('Answer tag ')],
    image,
  }
}

describe('a write answers what a read serves next', () => {
  it.each([
    ['the default language', NS],
    ['another language', `/fr${NS}`],
  ])('an editor’s create and update of an event, in %s', async (_, root) => {
    const venue = await createVenueAs(editor.token)
    const organizers = [
      (await createOrganizerAs(editor.token)).id,
      (await createOrganizerAs(editor.token)).id,
    ]
    const image = await uploadImage()
    const created = await call(`${root}/events`, {
      method: 'POST',
      token: editor.token,
      json: fullEvent(venue.id, organizers, image.id),
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toEqual(await servedNext(root, `/events/${created.body.id}`, editor.token))
    const updated = await call(`${root}/events/${created.body.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { title: unique('Retitled '), organizer: [organizers[1]], featured: true },
    })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    expect(updated.body).toEqual(await servedNext(root, `/events/${created.body.id}`, editor.token))
  })

  it('an author’s update of an event of their own, its description and terms unchanged', async () => {
    const category = await api('/categories', {
      method: 'POST',
      token: editor.token,
      json: { name: unique('Own cat ') },
    })
    expect(category.status, JSON.stringify(category.body)).toBe(201)
    const created = await api('/events', {
      method: 'POST',
      token: author.token,
      json: {
        title: unique('Own '),
        description: '<p>Kept</p>',
        start_date: '2031-05-01 10:00:00',
        end_date: '2031-05-01 11:00:00',
        categories: [category.body.id],
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const updated = await api(`/events/${created.body.id}`, {
      method: 'PUT',
      token: author.token,
      json: { cost: 'Free' },
    })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    expect(updated.body.description).toBe(created.body.description)
    expect(updated.body).toEqual(await servedNext(NS, `/events/${created.body.id}`, author.token))
  })

  it('the first event of a series, created and moved', async () => {
    const created = await api('/events', {
      method: 'POST',
      token: editor.token,
      json: {
        title: unique('Weekly '),
        start_date: '2031-06-02 09:00:00',
        end_date: '2031-06-02 10:00:00',
        recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3',
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toEqual(await servedNext(NS, `/events/${created.body.id}`, editor.token))
    const moved = await api(`/events/${created.body.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { start_date: '2031-06-03 09:00:00', end_date: '2031-06-03 10:00:00' },
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(moved.body).toEqual(await servedNext(NS, `/events/${created.body.id}`, editor.token))
  })

  it('a venue’s create and update', async () => {
    const created = await createVenueAs(editor.token, { city: 'Lyon', zip: '69001' })
    expect(created).toEqual(await servedNext(NS, `/venues/${created.id}`, editor.token))
    const updated = await api(`/venues/${created.id}`, {
      method: 'PATCH',
      token: editor.token,
      json: { venue: unique('Renamed hall '), phone: '+33 4 00 00 00 00' },
    })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    expect(updated.body).toEqual(await servedNext(NS, `/venues/${created.id}`, editor.token))
  })
})
