/**
 * A POST that names the method it stands for (`?_method=` or `X-HTTP-Method-Override`), as WordPress's
 * REST server allows and `@wordpress/api-fetch` sends every PUT, PATCH and DELETE (docs/api.md §1).
 */
import { describe, expect, it } from 'vitest'
import { asAdmin, BASE_URL, NS, unique } from '../support/api'
import { api, createEventAs, createVenueAs } from '../support/writeFixtures'

const admin = await asAdmin()

describe('a POST standing for another method', () => {
  it('is served as the DELETE, PUT or PATCH it names, by query or by header', async () => {
    const event = await createEventAs(admin, { status: 'publish' })
    const trashed = await api(`/events/${event.id}?_method=DELETE`, {
      method: 'POST',
      token: admin,
    })
    expect(trashed.status).toBe(200)
    expect(trashed.body.status).toBe('trash')
    // A second delete finds it in the trash.
    const again = await api(`/events/${event.id}`, {
      method: 'POST',
      token: admin,
      headers: { 'X-HTTP-Method-Override': 'DELETE' },
    })
    expect(again.status).toBe(410)

    const venue = await createVenueAs(admin)
    const gone = await api(`/venues/${venue.id}`, {
      method: 'POST',
      token: admin,
      headers: { 'X-HTTP-Method-Override': 'delete' },
    })
    expect(gone.status).toBe(200)
    expect(gone.body.status).toBe('trash')

    const tag = await api('/tags', { method: 'POST', token: admin, json: { name: unique('tag') } })
    expect(tag.status).toBe(201)
    const name = unique('renamed')
    const renamed = await api(`/tags/${tag.body.id}`, {
      method: 'POST',
      token: admin,
      json: { name },
      headers: { 'X-HTTP-Method-Override': 'PUT' },
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body.name).toBe(name)
    const deleted = await api(`/tags/${tag.body.id}?_method=DELETE&force=true`, {
      method: 'POST',
      token: admin,
    })
    expect(deleted.status).toBe(200)
    // A term that is no more is an id no tag has (400, as upstream answers).
    expect((await api(`/tags/${tag.body.id}`)).body.data.params).toEqual({
      id: 'No tag has this id.',
    })
  })

  it('is the last `_method` of a query that names several, as PHP reads a repeated key', async () => {
    const event = await createEventAs(admin, { status: 'publish' })
    const trashed = await api(`/events/${event.id}?_method=PUT&_method=DELETE`, {
      method: 'POST',
      token: admin,
    })
    expect(trashed.status).toBe(200)
    expect(trashed.body.status).toBe('trash')
  })

  it('is ignored on any other method, and for methods other than the writes', async () => {
    const event = await createEventAs(admin, { status: 'publish' })
    // A link that deletes would be followed with the admin's cookie.
    const read = await api(`/events/${event.id}?_method=DELETE`, { token: admin })
    expect(read.status).toBe(200)
    expect((await api(`/events/${event.id}`, { token: admin })).body.status).toBe('publish')
    // A POST that names GET is still the create it sends.
    const created = await api(`/events?_method=GET`, {
      method: 'POST',
      token: admin,
      json: {
        title: unique('ev'),
        start_date: '2030-02-01 10:00:00',
        end_date: '2030-02-01 11:00:00',
      },
    })
    expect(created.status).toBe(201)
  })

  it("may be sent from another origin: CORS's preflight allows the header", async () => {
    const preflight = await fetch(`${BASE_URL}${NS}/events/1`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://site.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-http-method-override',
      },
    })
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'x-http-method-override',
    )
  })
})
