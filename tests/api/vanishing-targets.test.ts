/**
 * A namespace write whose item another writer deletes after the route found it, while the write waits
 * for its turn (docs/api.md §11, "Writes at once"), is answered as a write to an id no item has: the
 * resource's own 404 or 400 naming `id` (it said `rest_invalid_request`, "Not Found"); a trash whose
 * item another writer trashed meanwhile is the 410 of a second delete (it said 200). A link to a venue
 * or organizer that another writer trashes while the write checks it is refused as a link to one in
 * the trash (the event was stored with it, linked to an item in the trash). A trash or a delete of
 * venues or organizers and a write linking an event to one of them, met in the order that took their
 * rows in opposite orders, both end as if one had waited for the other (one of them was undone as a
 * deadlock: a 409, or a bulk edit's 400 "Something went wrong.").
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique, userWithRole, type Reply } from '../support/api'
import {
  createCategory,
  createEvent,
  createOrganizer,
  createTag,
  createVenue,
} from '../support/fixtures'
import { changedWhileWaiting, queuedBehindRow } from '../support/rowHolder'
import { createEventAs } from '../support/writeFixtures'

let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

const deletedWhileWaiting = (
  locked: { table: string; id: number },
  gone: { table: string; id: number },
  write: () => Promise<Reply>,
) =>
  changedWhileWaiting(
    process.env.DATABASE_URL!,
    locked,
    [`delete from ${gone.table} where id = $1`, [gone.id]],
    write,
  )

const post = (path: string, json: Record<string, unknown>) => () =>
  call(`${NS}${path}`, { method: 'POST', token: admin, json })

describe('a write whose item is deleted while it waits for its turn', () => {
  it('on an event is the 404 of an event that does not exist', async () => {
    const { id } = await createEvent({ title: unique('Vanishing ') })
    const events = { table: 'events', id }
    const answer = await deletedWhileWaiting(events, events, post(`/events/${id}`, { title: 'x' }))
    expect(answer.status, JSON.stringify(answer.body)).toBe(404)
    expect(answer.body).toMatchObject({
      code: 'rest-event-not-found',
      message: `Event with ID ${id} does not exist.`,
    })
  })

  it("on an author's own event is the same 404, though their access is a rule", async () => {
    const author = await userWithRole('author')
    const { id } = await createEventAs(author.token, { title: unique('Vanishing own ') })
    const events = { table: 'events', id }
    const answer = await deletedWhileWaiting(events, events, () =>
      call(`${NS}/events/${id}`, { method: 'POST', token: author.token, json: { title: 'x' } }),
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(404)
    expect(answer.body).toMatchObject({ code: 'rest-event-not-found' })
  })

  it('on a category is the 400 naming its id', async () => {
    const { id } = await createCategory({ name: unique('vanishing') })
    const row = { table: 'event_categories', id }
    const answer = await deletedWhileWaiting(
      row,
      row,
      post(`/categories/${id}`, { description: 'x' }),
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { id: expect.any(String) } },
    })
  })

  it('deleting a category with a child is the 400 naming its id', async () => {
    const parent = await createCategory({ name: unique('vanishing parent') })
    await createCategory({ name: unique('its child'), parent: parent.id })
    const row = { table: 'event_categories', id: parent.id }
    const answer = await deletedWhileWaiting(row, row, () =>
      call(`${NS}/categories/${parent.id}?force=true`, { method: 'DELETE', token: admin }),
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { id: expect.any(String) } },
    })
  })

  it('deleting a tag, through the namespace or Payload REST, is the 400 naming its id or a 404', async () => {
    for (const door of ['namespace', 'Payload REST']) {
      const { id } = await createTag({ name: unique('vanishing tag') })
      const row = { table: 'event_tags', id }
      const answer = await deletedWhileWaiting(row, row, () =>
        door === 'namespace'
          ? call(`${NS}/tags/${id}?force=true`, { method: 'DELETE', token: admin })
          : call(`/api/event-tags/${id}`, { method: 'DELETE', token: admin }),
      )
      if (door === 'namespace') {
        expect(answer.status, JSON.stringify(answer.body)).toBe(400)
        expect(answer.body).toMatchObject({
          code: 'rest_invalid_param',
          data: { params: { id: expect.any(String) } },
        })
      } else expect(answer.status, JSON.stringify(answer.body)).toBe(404)
    }
  })
})

describe('a trash whose item another writer trashed while it waited for its turn', () => {
  const trashedMeanwhile = (table: string, path: string, id: number) =>
    changedWhileWaiting(
      process.env.DATABASE_URL!,
      { table, id },
      [`update ${table} set status = 'trash' where id = $1`, [id]],
      () => call(`${NS}${path}`, { method: 'DELETE', token: admin }),
    )

  it('on an event is the 410 of a second delete', async () => {
    const { id } = await createEvent({ title: unique('Trashed meanwhile ') })
    const answer = await trashedMeanwhile('events', `/events/${id}`, id)
    expect(answer.status, JSON.stringify(answer.body)).toBe(410)
    expect(answer.body).toMatchObject({ code: 'event-is-in-trash' })
  })

  it('on a venue is the 410 of a second delete', async () => {
    const venue = await call(`${NS}/venues`, {
      method: 'POST',
      token: admin,
      json: { venue: unique('Trashed meanwhile'), status: 'publish' },
    })
    expect(venue.status, JSON.stringify(venue.body)).toBe(201)
    const answer = await trashedMeanwhile('venues', `/venues/${venue.body.id}`, venue.body.id)
    expect(answer.status, JSON.stringify(answer.body)).toBe(410)
    expect(answer.body).toMatchObject({ code: 'venue-is-in-trash' })
  })
})

describe('a link to a venue or organizer that another writer trashes while the write checks it', () => {
  const trashedMeanwhile = (table: string, id: number, write: () => Promise<Reply>) =>
    changedWhileWaiting(
      process.env.DATABASE_URL!,
      { table, id },
      [`update ${table} set status = 'trash' where id = $1`, [id]],
      write,
    )

  it('through the namespace is the 400 naming the venue, and makes no event', async () => {
    const venue = await createVenue({ name: unique('Trashed while linked ') })
    const title = unique('Linked while trashed ')
    const answer = await trashedMeanwhile(
      'venues',
      venue.id,
      post('/events', {
        title,
        start_date: '2031-02-03 10:00:00',
        end_date: '2031-02-03 11:00:00',
        venue: venue.id,
      }),
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body).toMatchObject({
      code: 'rest_invalid_param',
      data: {
        params: {
          venue: `Venue ${venue.id} is in the trash: restore it first, or choose another.`,
        },
      },
    })
    const found = await call(`/api/events?where[title][equals]=${encodeURIComponent(title)}`, {
      token: admin,
    })
    expect(found.body.totalDocs).toBe(0)
  })

  it('through Payload REST is the 400 naming the organizers, and leaves the event as it was', async () => {
    const kept = await createOrganizer({ name: unique('Kept organizer ') })
    const event = await createEvent({
      title: unique('Linked while trashed '),
      organizers: [kept.id],
    })
    const organizer = await createOrganizer({ name: unique('Trashed while linked ') })
    const answer = await trashedMeanwhile('organizers', organizer.id, () =>
      call(`/api/events/${event.id}`, {
        method: 'PATCH',
        token: admin,
        json: { organizers: [kept.id, organizer.id] },
      }),
    )
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body.errors[0].data.errors).toEqual([
      {
        path: 'organizers',
        label: expect.any(String),
        message: `Organizer ${organizer.id} is in the trash: restore it first, or choose another.`,
      },
    ])
    const stored = await call(`/api/events/${event.id}?depth=0`, { token: admin })
    expect(stored.body.organizers).toEqual([kept.id])
  })
})

describe('a trash or delete of venues or organizers beside a write that links an event to one of them', () => {
  it('a bulk trash of venues through Payload REST, then a namespace update linking one: the trash unlinks the event, the link is refused', async () => {
    const left = await createVenue({ name: unique('Left by its event ') })
    const linked = await createVenue({ name: unique('Linked while trashed ') })
    const event = await createEvent({ title: unique('Relinked '), venue: left.id })
    // The trash waits for the second venue, the update then for what the trash holds: the trash
    // held the venues before the event it unlinks, the update the event before the venue it links.
    const [trash, link] = await queuedBehindRow(
      process.env.DATABASE_URL!,
      { table: 'venues', id: linked.id },
      () =>
        call(`/api/venues?where[id][in][0]=${left.id}&where[id][in][1]=${linked.id}`, {
          method: 'PATCH',
          token: admin,
          json: { status: 'trash' },
        }),
      post(`/events/${event.id}`, { venue: linked.id }),
    )
    expect(trash.status, JSON.stringify(trash.body)).toBe(200)
    expect(link.status, JSON.stringify(link.body)).toBe(400)
    expect(link.body).toMatchObject({
      code: 'rest_invalid_param',
      data: {
        params: {
          venue: `Venue ${linked.id} is in the trash: restore it first, or choose another.`,
        },
      },
    })
    const stored = await call(`/api/events/${event.id}?depth=0`, { token: admin })
    expect(stored.body.venue).toBeNull()
  })

  it('a namespace trash of an organizer, then a bulk edit through Payload REST linking it to its event and another: the trash unlinks, the edit is refused', async () => {
    const organizer = await createOrganizer({ name: unique('Trashed while linked ') })
    const bare = await createEvent({ title: unique('Newly linked ') })
    const linked = await createEvent({ title: unique('Kept linked '), organizers: [organizer.id] })
    // The trash waits for the organizer, the edit then for what the trash holds: the trash held the
    // organizer before the event it unlinks, the edit its events before the organizer it links.
    const [trash, edit] = await queuedBehindRow(
      process.env.DATABASE_URL!,
      { table: 'organizers', id: organizer.id },
      () => call(`${NS}/organizers/${organizer.id}`, { method: 'DELETE', token: admin }),
      () =>
        call(`/api/events?where[id][in][0]=${bare.id}&where[id][in][1]=${linked.id}`, {
          method: 'PATCH',
          token: admin,
          json: { organizers: [organizer.id] },
        }),
    )
    expect(trash.status, JSON.stringify(trash.body)).toBe(200)
    // Refused by the rule, each event for its link (a deadlock's items said "Something went wrong.").
    expect(edit.status, JSON.stringify(edit.body)).toBe(400)
    const failed = edit.body.errors[0].data.errors as { id: number; message: string }[]
    expect(failed.map(({ id }) => id).sort()).toEqual([bare.id, linked.id].sort())
    for (const { message } of failed)
      expect(message).toBe('The following field is invalid: Organizers')
    for (const { id } of [bare, linked]) {
      const stored = await call(`/api/events/${id}?depth=0`, { token: admin })
      expect(stored.body.organizers, `event ${id}`).toEqual([])
    }
  })

  it('a permanent delete of a venue through Payload REST, then a bulk edit linking it to its event and another: the delete unlinks, the edit is refused', async () => {
    const venue = await createVenue({ name: unique('Deleted while linked ') })
    const bare = await createEvent({ title: unique('Newly linked ') })
    const linked = await createEvent({ title: unique('Kept linked '), venue: venue.id })
    // The delete waits for the venue, the edit then for what the delete holds: the delete held the
    // venue before the event its foreign key unlinks, the edit its events before the venue it links.
    const [removal, edit] = await queuedBehindRow(
      process.env.DATABASE_URL!,
      { table: 'venues', id: venue.id },
      () => call(`/api/venues/${venue.id}`, { method: 'DELETE', token: admin }),
      () =>
        call(`/api/events?where[id][in][0]=${bare.id}&where[id][in][1]=${linked.id}`, {
          method: 'PATCH',
          token: admin,
          json: { venue: venue.id },
        }),
    )
    expect(removal.status, JSON.stringify(removal.body)).toBe(200)
    // Refused for the link to a venue no longer there (a deadlock's items said "Something went wrong.").
    expect(edit.status, JSON.stringify(edit.body)).toBe(400)
    const failed = edit.body.errors[0].data.errors as { message: string }[]
    expect(failed.map(({ message }) => message)).toContain(
      'A value in the request links to an item that does not exist.',
    )
    for (const { id } of [bare, linked]) {
      const stored = await call(`/api/events/${id}?depth=0`, { token: admin })
      expect(stored.body.venue, `event ${id}`).toBeNull()
    }
  })
})
