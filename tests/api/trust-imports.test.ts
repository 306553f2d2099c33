/**
 * What an import may be trusted with (docs/api.md §23): an iCalendar item is its UID, never its title
 * and time (an Exchange file of "Busy" events); RDATE-only events are series; a URL that is no web
 * address is no website; a refused source names the switch that lifts it; and a copy from a live site
 * keeps each event's cost as written and shown, its terms and places by their ids, and its trash on
 * request, saying what it could not carry.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, NS, unique } from '../support/api'
import { eventsMatching, importCounts, queuedImport, runImportCli } from '../support/imports'
import { startSecondInstance, type Instance } from '../support/secondInstance'
import { siteClient } from '../support/siteClient'
import { api } from '../support/writeFixtures'

const fixtureFile = (name: string) => path.join(import.meta.dirname, '..', 'fixtures', name)

let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

describe('iCalendar items are their UIDs', () => {
  const may = 'start_date=2028-05-01&end_date=2028-05-31'
  const busy = async () =>
    (await eventsMatching('Busy', may))
      .filter((event) => event.title === 'Busy')
      .map((event) => [event.start_date, event.end_date, event.id])

  it('an Exchange file of "Busy" events at the same times creates every one, each series with its own exception', async () => {
    const run = await runImportCli(['--ics', fixtureFile('exchange-busy.ics')])
    expect(run.code, run.output).toBe(0)
    // Three single events and two series; each series' exception updates its own occurrence.
    expect(importCounts(run.output, 'event'), run.output).toEqual([5, 2, 0, 0])
    const events = await busy()
    expect(events.map(([start, end]) => `${start} – ${end}`).sort()).toEqual(
      [
        '2028-05-01 09:00:00 – 2028-05-01 09:30:00',
        '2028-05-01 09:00:00 – 2028-05-01 10:00:00',
        '2028-05-01 09:00:00 – 2028-05-01 10:00:00',
        '2028-05-01 09:00:00 – 2028-05-01 10:00:00',
        '2028-05-01 09:00:00 – 2028-05-01 11:00:00',
        '2028-05-08 09:00:00 – 2028-05-08 12:00:00',
        '2028-05-09 09:00:00 – 2028-05-09 10:00:00',
        '2028-05-15 09:00:00 – 2028-05-15 09:30:00',
        '2028-05-15 09:00:00 – 2028-05-15 10:00:00',
      ].sort(),
    )
    expect(new Set(events.map(([, , id]) => id)).size).toBe(9)
  })

  it('a second import of the file updates by UID: the changed event only, nothing created', async () => {
    const before = await busy()
    const changed = path.join(tmpdir(), `${unique('busy')}.ics`)
    const text = readFileSync(fixtureFile('exchange-busy.ics'), 'utf8')
    writeFileSync(
      changed,
      text.replace(
        'DTEND;TZID=W. Europe Standard Time:20280501T110000',
        'DTEND;TZID=W. Europe Standard Time:20280501T113000',
      ),
    )
    const run = await runImportCli(['--ics', changed])
    expect(run.code, run.output).toBe(0)
    expect(importCounts(run.output, 'event'), run.output).toEqual([0, 1, 6, 0])
    const after = await busy()
    expect(after.map(([, , id]) => id).sort()).toEqual(before.map(([, , id]) => id).sort())
    expect(
      after.filter(
        ([start, end]) => start === '2028-05-01 09:00:00' && end === '2028-05-01 11:30:00',
      ),
    ).toHaveLength(1)
    expect(after.filter(([, end]) => end === '2028-05-01 11:00:00')).toHaveLength(0)
  })
})

describe('iCalendar series and links', () => {
  it('an event with RDATE lines and no RRULE (khal) is a series: its first event and one event per extra date', async () => {
    const run = await runImportCli(['--ics', fixtureFile('rdate-only.ics')])
    expect(run.code, run.output).toBe(0)
    expect(importCounts(run.output, 'event'), run.output).toEqual([1, 0, 0, 0])
    const [first, ...later] = await eventsMatching(
      'ICS Fixture Reading Circle',
      'start_date=2028-06-01&end_date=2028-06-30',
    )
    expect(first).toMatchObject({
      start_date: '2028-06-05 19:00:00',
      end_date: '2028-06-05 21:00:00',
      timezone: 'Europe/Berlin',
    })
    expect(first.recurrence).toBe('RRULE:FREQ=DAILY;COUNT=1\nRDATE:20280612T190000,20280626T190000')
    expect(later.map((event) => [event.start_date, event.end_date])).toEqual([
      ['2028-06-12 19:00:00', '2028-06-12 21:00:00'],
      ['2028-06-26 19:00:00', '2028-06-26 21:00:00'],
    ])
    const members = await api(
      `/events?post_parent=${first.id}&start_date=2028-01-01&end_date=2029-01-01`,
      { token: admin },
    )
    expect(members.body.events.map((event: any) => event.id)).toEqual(
      later.map((event) => event.id),
    )
  })

  it('a URL that is no web address (iCloud’s message: link) is not the website; the event imports and the summary says so', async () => {
    const run = await runImportCli(['--ics', fixtureFile('icloud.ics')])
    expect(run.code, run.output).toBe(0)
    expect(importCounts(run.output, 'event'), run.output).toEqual([1, 0, 0, 0])
    expect(run.output).toMatch(
      /^not carried: event VEVENT 1 \(ICS Fixture Dentist\): website message:%3C0A1B2C3D-1234@mail\.example\.org%3E: not a web address/m,
    )
    const [dentist] = await eventsMatching(
      'ICS Fixture Dentist',
      'start_date=2033-12-01&end_date=2033-12-31',
    )
    expect(dentist).toMatchObject({ start_date: '2033-12-05 10:00:00', timezone: 'Europe/Paris' })
    // Served without a website of its own: its permalink stands in (docs/api.md §3.1).
    expect(dentist.website).not.toMatch(/^message:/)
    expect(
      (await call(`/api/events/${dentist.id}?depth=0`, { token: admin })).body.website ?? null,
    ).toBeNull()
  })
})

describe('a refused source names its switch', () => {
  it.each([
    ['--from', 'http://127.0.0.1:9/api/cal/events/v1'],
    ['--ics', 'http://127.0.0.1:9/calendar.ics'],
  ])(
    'npm run import -- %s on a loopback address without IMPORT_ALLOW_PRIVATE',
    async (option, url) => {
      const run = await runImportCli([option, url], undefined, { IMPORT_ALLOW_PRIVATE: 'false' })
      expect(run.code, run.output).toBe(2)
      expect(run.output).toMatch(
        /127\.0\.0\.1:9 is a private, loopback or link-local address, which is refused \(set IMPORT_ALLOW_PRIVATE=true to import/,
      )
    },
  )
})

describe('a copy of a live site', () => {
  let site: Instance
  let siteToken: string
  let root: string
  const word = unique('fidelity')
  const ids: Record<string, number> = {}

  const { onSite, write, signIn } = siteClient(() => site)

  beforeAll(async () => {
    site = await startSecondInstance({}, { ownDatabase: true })
    root = `${site.base}${NS}`
    siteToken = await signIn({ email: 'fidelity@calendar.test', password: 'fidelity-password-1' })
    // The site shows amounts as 25€: events without a currency of their own take its defaults.
    const settings = await onSite('/api/globals/settings', {
      method: 'POST',
      json: { currencySymbol: '€', currencyPosition: 'postfix' },
    })
    expect(settings.status, JSON.stringify(settings.body)).toBe(200)

    ids.jazz = (await write('/categories', { name: `${word} Jazz` })).id
    ids.dance = (await write('/categories', { name: `${word} Dance` })).id
    ids.danceJazz = (await write('/categories', { name: `${word} Jazz`, parent: ids.dance })).id
    ids.lyon = (
      await write('/venues', { venue: `${word} Hall`, city: 'Lyon', status: 'publish' })
    ).id
    ids.paris = (
      await write('/venues', { venue: `${word} Hall`, city: 'Paris', status: 'publish' })
    ).id
    const event = (title: string, extra: Record<string, unknown>) =>
      write('/events', {
        title: `${word} ${title}`,
        start_date: '2033-06-01 20:00:00',
        end_date: '2033-06-01 23:00:00',
        timezone: 'Europe/Paris',
        status: 'publish',
        ...extra,
      })
    ids.concert = (
      await event('Concert', { cost: '25', categories: [ids.jazz], venue: ids.lyon })
    ).id
    ids.ball = (
      await event('Ball', { cost: 'Free', categories: [ids.danceJazz], venue: ids.paris })
    ).id
    ids.cancelled = (await event('Cancelled', {})).id
    await write(`/events/${ids.cancelled}`, {}, 'DELETE')
    expect((await onSite(`${NS}/events/${ids.concert}`, { token: null })).body.cost).toBe('25€')
  }, 300_000)

  afterAll(async () => {
    await site?.stop()
  })

  const june = 'start_date=2033-06-01&end_date=2033-06-30'

  it('keeps each cost as the site wrote and showed it, and its terms and places by their ids, never by name', async () => {
    const run = await runImportCli(['--from', root])
    expect(run.code, run.output).toBe(0)
    expect(importCounts(run.output, 'category'), run.output).toEqual([3, 0, 0, 0])
    expect(importCounts(run.output, 'venue'), run.output).toEqual([2, 0, 0, 0])
    expect(run.output).toMatch(/^not carried: trashed items: not copied; --trash/m)
    expect(run.output).toMatch(
      /^not carried: authors: created items belong to whoever runs the import$/m,
    )

    const events = new Map((await eventsMatching(word, june)).map((event) => [event.title, event]))
    expect([...events.keys()].sort()).toEqual([`${word} Ball`, `${word} Concert`])
    const concert = events.get(`${word} Concert`)
    const ball = events.get(`${word} Ball`)
    expect(concert.cost).toBe('25€')
    expect(concert.cost_details).toMatchObject({
      currency_symbol: '€',
      currency_position: 'postfix',
      values: ['25'],
    })
    expect(ball.cost).toBe('Free')
    expect((await call(`/api/events/${ball.id}?depth=0`, { token: admin })).body.cost).toEqual([
      'Free',
    ])

    // Two categories named alike stay two, each with its own parent; two venues named alike too.
    const [concertJazz] = concert.categories
    const [ballJazz] = ball.categories
    expect([concertJazz.name, ballJazz.name]).toEqual([`${word} Jazz`, `${word} Jazz`])
    expect(concertJazz.id).not.toBe(ballJazz.id)
    expect(concertJazz.parent).toBe(0)
    expect((await api(`/categories/${ballJazz.parent}`)).body.name).toBe(`${word} Dance`)
    expect([concert.venue.venue, concert.venue.city]).toEqual([`${word} Hall`, 'Lyon'])
    expect([ball.venue.venue, ball.venue.city]).toEqual([`${word} Hall`, 'Paris'])
    expect(concert.venue.id).not.toBe(ball.venue.id)
  })

  it('copies the trash when asked (the record’s includeTrashed, with credentials), into the trash here', async () => {
    const record = await queuedImport({
      source: 'site',
      sourceUrl: root,
      credentials: `JWT ${siteToken}`,
      includeTrashed: true,
    })
    expect(record, JSON.stringify(record)).toMatchObject({ status: 'done', failed: 0 })
    const trashed = await call(
      `/api/events?where[title][equals]=${encodeURIComponent(`${word} Cancelled`)}&depth=0`,
      { token: admin },
    )
    expect(trashed.body.docs.map((event: any) => event.status)).toEqual(['trash'])
    const notes = (await call(`/api/imports/${record.id}?depth=0`, { token: admin })).body
      .notes as string
    expect(notes).toContain('authors: created items belong to whoever runs the import')
    expect(notes).not.toContain('trashed items')
    expect(await eventsMatching(word, june)).toHaveLength(2)
  })

  it('--trash without credentials copies no trash and says why', async () => {
    const run = await runImportCli(['--from', root, '--trash'])
    expect(run.code, run.output).toBe(0)
    expect(run.output).toMatch(
      /^not carried: trashed items: the site shows them only to its editors; give credentials/m,
    )
    expect((await runImportCli(['--ics', fixtureFile('icloud.ics'), '--trash'])).output).toContain(
      '--trash is for a site (--from)',
    )
  })
})
