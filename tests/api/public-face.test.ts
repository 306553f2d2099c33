/**
 * What public pages embed and subscribed feeds say (docs/api.md §3.9, §3.5, §7, §22): `json_ld` as
 * upstream writes it, a child term's `up` link, `only_with_upcoming` in list URLs, and a feed's name,
 * description, method, refresh interval and images.
 */
import ICAL from 'ical.js'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  asAdmin,
  BASE_URL,
  call,
  NS,
  ROOT,
  unique,
  uploadImage,
  userWithRole,
} from '../support/api'
import {
  changeSettings,
  createCategory,
  createEvent,
  createOrganizer,
  createVenue,
  dayAt,
  ns,
  restoreSettings,
  splitUrl,
} from '../support/fixtures'
import { api } from '../support/writeFixtures'

const HOST = new URL(BASE_URL).host
let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

/** Sixty words: more than the 55 an excerpt made from a description keeps. */
const LONG = Array.from({ length: 60 }, (_, i) => `word${i + 1}`)

describe('json_ld', () => {
  it('describes an event without an excerpt by its description as text, trimmed to 55 words as WordPress trims', async () => {
    const tag = unique('ldesc')
    const short = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: `${tag} Short`,
        description: '<h2>Programme</h2>\n<p>An <strong>evening</strong> of theatre.</p>',
        start_date: '2031-05-01 10:00:00',
        end_date: '2031-05-01 12:00:00',
        status: 'publish',
      },
    })
    expect(short.status, JSON.stringify(short.body)).toBe(201)
    expect((await ns(`/events/${short.body.id}`)).body.json_ld.description).toBe(
      'Programme An evening of theatre.',
    )

    const long = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: `${tag} Long`,
        description: `<p>${LONG.join(' ')}</p>`,
        start_date: '2031-05-01 10:00:00',
        end_date: '2031-05-01 12:00:00',
        status: 'publish',
      },
    })
    expect((await ns(`/events/${long.body.id}`)).body.json_ld.description).toBe(
      `${LONG.slice(0, 55).join(' ')} […]`,
    )

    const excerpted = await createEvent({
      title: `${tag} Excerpted`,
      excerpt: 'The short version',
      start: '2031-05-01T10:00:00.000Z',
    })
    expect((await ns(`/events/${excerpted.id}`)).body.json_ld.description).toBe('The short version')
  })

  it('gives venues and organizers a description, from the excerpt or else the description, even empty', async () => {
    const tag = unique('lddesc')
    const venue = await api('/venues', {
      method: 'POST',
      token: admin,
      json: {
        venue: `${tag} Hall`,
        description: '<p>By the <em>river</em></p>',
        status: 'publish',
      },
    })
    const organizer = await api('/organizers', {
      method: 'POST',
      token: admin,
      json: { organizer: `${tag} Hosts`, status: 'publish' },
    })
    const excerpted = await createOrganizer({ name: `${tag} Players`, excerpt: 'Actors' })
    expect((await ns(`/venues/${venue.body.id}`)).body.json_ld).toMatchObject({
      '@type': 'Place',
      name: `${tag} Hall`,
      description: 'By the river',
    })
    expect((await ns(`/organizers/${organizer.body.id}`)).body.json_ld).toEqual({
      '@type': 'Person',
      name: `${tag} Hosts`,
      description: '',
    })
    expect((await ns(`/organizers/${excerpted.id}`)).body.json_ld.description).toBe('Actors')

    const event = await createEvent({
      title: `${tag} Night`,
      start: '2031-05-02T10:00:00.000Z',
      venue: venue.body.id,
      organizers: [excerpted.id],
    })
    const { body } = await ns(`/events/${event.id}`)
    expect(body.json_ld.location.description).toBe('By the river')
    expect(body.json_ld.organizer.description).toBe('Actors')
  })

  it('leaves @context out of venues’ and organizers’ own json_ld, as upstream; the event keeps it', async () => {
    const tag = unique('ldctx')
    const venue = await createVenue({ name: `${tag} Hall` })
    const organizer = await createOrganizer({ name: `${tag} Hosts` })
    const event = await createEvent({
      title: `${tag} Night`,
      start: '2031-05-03T10:00:00.000Z',
      venue: venue.id,
      organizers: [organizer.id],
    })
    for (const path of [
      `/venues/${venue.id}`,
      `/organizers/${organizer.id}`,
      `/venues/by-slug/${venue.slug}`,
    ]) {
      const { body } = await ns(path)
      expect(body.json_ld['@type'], path).toMatch(/^(Place|Person)$/)
      expect(body.json_ld, path).not.toHaveProperty('@context')
    }
    const { body } = await ns(`/events/${event.id}`)
    expect(Object.keys(body.json_ld)[0]).toBe('@context')
    expect(body.venue.json_ld).not.toHaveProperty('@context')
    expect(body.organizer[0].json_ld).not.toHaveProperty('@context')
  })

  it('puts eventAttendanceMode and eventStatus right after url, the image before it', async () => {
    const media = await uploadImage()
    const event = await createEvent({
      title: unique('ldorder'),
      start: '2031-05-04T10:00:00.000Z',
      image: media.id,
    })
    const { body } = await ns(`/events/${event.id}`)
    expect(Object.keys(body.json_ld)).toEqual([
      '@context',
      '@type',
      'name',
      'description',
      'image',
      'url',
      'eventAttendanceMode',
      'eventStatus',
      'startDate',
      'endDate',
      'performer',
    ])
  })

  it('names a private event “Private: …” for the editors who read it, in the answer’s language', async () => {
    const title = unique('ldprivate')
    const event = await createEvent({ title, status: 'private', start: '2031-05-05T10:00:00.000Z' })
    const editor = await userWithRole('editor')
    const read = await ns(`/events/${event.id}`, editor.token)
    expect(read.status).toBe(200)
    expect(read.body.title).toBe(title)
    expect(read.body.json_ld.name).toBe(`Private: ${title}`)
    expect((await ns(`/events/${event.id}?i18n_language=fr`, editor.token)).body.json_ld.name).toBe(
      `Privé : ${title}`,
    )
    expect((await ns(`/events/${event.id}?i18n_language=ja`, editor.token)).body.json_ld.name).toBe(
      `非公開: ${title}`,
    )
    expect((await ns(`/events/${event.id}?i18n_language=ar`, editor.token)).body.json_ld.name).toBe(
      `خاص: ${title}`,
    )

    const published = await createEvent({
      title: `${title} open`,
      start: '2031-05-05T10:00:00.000Z',
    })
    expect((await ns(`/events/${published.id}`, editor.token)).body.json_ld.name).toBe(
      `${title} open`,
    )
  })
})

describe('links and list URLs', () => {
  it('marks a child category’s up link embeddable, as WordPress does', async () => {
    const parent = await createCategory({ name: unique('parent') })
    const child = await createCategory({ name: unique('child'), parent: parent.id })
    const { body } = await ns(`/categories/${child.id}`)
    expect(body._links.up).toEqual([{ href: `${ROOT}/categories/${parent.id}`, embeddable: true }])
    expect((await ns(`/categories/${parent.id}`)).body._links).not.toHaveProperty('up')
  })

  for (const kind of ['venues', 'organizers'] as const) {
    it(`leaves only_with_upcoming out of /${kind}' rest_url, as upstream, but keeps it in the next page's`, async () => {
      const tag = unique('upc')
      const make = kind === 'venues' ? createVenue : createOrganizer
      const [a, b] = [await make({ name: `${tag} A` }), await make({ name: `${tag} B` })]
      await make({ name: `${tag} Idle` })
      for (const linked of [a, b]) {
        await createEvent({
          title: `${tag} event`,
          start: dayAt(3),
          ...(kind === 'venues' ? { venue: linked.id } : { organizers: [linked.id] }),
        })
      }
      const first = await ns(`/${kind}?search=${tag}&only_with_upcoming=true&per_page=1`)
      expect(first.status).toBe(200)
      expect(first.body.total).toBe(2)
      expect(splitUrl(first.body.rest_url).params).toEqual({
        page: '1',
        per_page: '1',
        search: tag,
        status: 'publish',
      })
      expect(splitUrl(first.body.next_rest_url).params).toMatchObject({
        only_with_upcoming: '1',
        page: '2',
      })
      const second = await call(
        new URL(first.body.next_rest_url).pathname + new URL(first.body.next_rest_url).search,
      )
      expect(second.body[kind]).toHaveLength(1)
      expect(second.body[kind][0].id).not.toBe(first.body[kind][0].id)
      expect(second.body.previous_rest_url).toContain('only_with_upcoming=1')
    })
  }
})

/** The text of a feed or file, checked for the media type. */
async function ics(path: string): Promise<string> {
  const reply = await call<string>(`${NS}${path}`)
  expect(reply.status, String(reply.body)).toBe(200)
  expect(reply.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
  return reply.body
}

/** The document's lines, unfolded. */
const unfolded = (text: string) => text.replace(/\r\n[ \t]/g, '').split('\r\n')

/** The calendar's own lines: those before its first component. */
function headerLines(text: string): string[] {
  const lines = unfolded(text)
  return lines.slice(
    0,
    lines.findIndex((line, index) => index > 0 && line.startsWith('BEGIN:')),
  )
}

/** The unfolded lines of the VEVENT whose SUMMARY is `summary`. */
function veventLines(text: string, summary: string): string[] {
  const lines = unfolded(text)
  const at = lines.indexOf(`SUMMARY:${summary}`)
  expect(at, summary).toBeGreaterThan(0)
  const begin = lines.lastIndexOf('BEGIN:VEVENT', at)
  return lines.slice(begin, lines.indexOf('END:VEVENT', at) + 1)
}

/** A day ahead as the namespace's wall clock (the test site's zone is UTC). */
const wall = (days: number) => dayAt(days).slice(0, 19).replace('T', ' ')

const calendarOf = (text: string) => new ICAL.Component(ICAL.parse(text))

describe('the feed says what it is', () => {
  let tag: string
  let venueName: string
  let venueId: number
  let categoryName: string
  let categoryId: number
  let imageUrl: string

  beforeAll(async () => {
    tag = unique('face')
    venueName = `${tag} Hall`
    categoryName = `${tag} Theatre`
    const venue = await createVenue({ name: venueName })
    const category = await createCategory({ name: categoryName })
    venueId = venue.id
    categoryId = category.id
    const media = await uploadImage()
    imageUrl = new URL(media.url, BASE_URL).toString()
    await createEvent({
      title: `${tag} Opening`,
      start: dayAt(2),
      venue: venue.id,
      categories: [category.id],
      featured: true,
      image: media.id,
    })
    const described = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: `${tag} Programme`,
        description: '<h2>Programme</h2>\n<p>Two acts.</p>',
        start_date: wall(4),
        end_date: wall(5),
        status: 'publish',
      },
    })
    expect(described.status, JSON.stringify(described.body)).toBe(201)
  })

  it('is published (METHOD:PUBLISH), named after the site, read again every hour by default', async () => {
    const text = await ics(`/events.ics?search=${tag}`)
    const calendar = calendarOf(text)
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH')
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(HOST)
    const lines = headerLines(text)
    expect(lines).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT1H')
    expect(lines).toContain('X-PUBLISHED-TTL:PT1H')
    expect(lines).toContain(`X-WR-CALDESC:Events matching “${tag}”`)
  })

  it('takes its name and refresh interval from the settings, its name escaped as text', async () => {
    const previous = await changeSettings({
      siteName: 'Arts, Music; Town\nX-EVIL:1',
      icalRefreshMinutes: 90,
    })
    try {
      const text = await ics(`/events.ics?search=${tag}`)
      const lines = headerLines(text)
      expect(lines).toContain('X-WR-CALNAME:Arts\\, Music\\; Town\\nX-EVIL:1')
      expect(lines).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT1H30M')
      expect(lines).toContain('X-PUBLISHED-TTL:PT1H30M')
      expect(text.split('\r\n').some((line) => line.startsWith('X-EVIL'))).toBe(false)
    } finally {
      await restoreSettings(previous)
    }
  })

  it('says its filter in words, in each of its languages', async () => {
    const query = `categories=${categoryId}&featured=true&start_date=2026-01-01`
    const { body: list } = await ns(`/events?${query}`)
    expect(list.events.map((event: { title: string }) => event.title)).toEqual([`${tag} Opening`])
    // ical.js reads X- properties without unescaping them: the lines are compared as written, TEXT-escaped.
    expect(headerLines(await ics(`/events.ics?${query}`))).toContain(
      `X-WR-CALDESC:Events in ${categoryName}\\, featured only\\, from 2026-01-01`,
    )
    expect(headerLines(await ics(`/events.ics?venue=${venueId}&i18n_language=fr`))).toContain(
      `X-WR-CALDESC:Évènements à ${venueName}`,
    )
    expect(
      headerLines(await ics(`/events.ics?venue=${venueId}&featured=true&i18n_language=ja`)),
    ).toContain(`X-WR-CALDESC:イベント 会場: ${venueName}、注目のみ`)
    expect(headerLines(await ics(`/events.ics?venue=${venueId}&i18n_language=ar`))).toContain(
      `X-WR-CALDESC:الفعاليات في مكان ${venueName}`,
    )
  })

  it('attaches the featured image as ATTACH and as RFC 7986 IMAGE', async () => {
    const text = await ics(`/events.ics?search=${tag}`)
    const opening = veventLines(text, `${tag} Opening`)
    expect(opening).toContain(`ATTACH:${imageUrl}`)
    expect(opening).toContain(`IMAGE;VALUE=URI;DISPLAY=BADGE:${imageUrl}`)
    const opened = calendarOf(text)
      .getAllSubcomponents('vevent')
      .find((vevent) => vevent.getFirstPropertyValue('summary') === `${tag} Opening`)!
    expect(opened.getFirstPropertyValue('attach')).toBe(imageUrl)
    const programme = veventLines(text, `${tag} Programme`)
    expect(programme.some((line) => /^(ATTACH|IMAGE)[:;]/.test(line))).toBe(false)
  })

  it('keeps the case of headings in plain-text descriptions', async () => {
    const programme = calendarOf(await ics(`/events.ics?search=${tag}`))
      .getAllSubcomponents('vevent')
      .find((vevent) => vevent.getFirstPropertyValue('summary') === `${tag} Programme`)!
    expect(programme.getFirstPropertyValue('description')).toBe('Programme\n\nTwo acts.')
  })

  it('files of one event are published too, but neither named nor refreshed', async () => {
    const { body: list } = await ns(`/events?search=${tag}`)
    const text = await ics(`/events/${list.events[0].id}.ics`)
    const lines = headerLines(text)
    expect(lines).toContain('METHOD:PUBLISH')
    expect(
      lines.some((line) =>
        /^(X-WR-CALNAME|NAME|X-WR-CALDESC|REFRESH-INTERVAL|X-PUBLISHED-TTL)[:;]/.test(line),
      ),
    ).toBe(false)
  })
})
