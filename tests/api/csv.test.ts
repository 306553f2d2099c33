/**
 * CSV import and export (docs/api.md §23): an upstream-style file through the admin's imports and the
 * jobs queue, idempotent second runs, a changed row, bad rows, a run killed midway and started again
 * (the CLI), and an export that imports back unchanged.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { beforeAll, describe, expect, it } from 'vitest'
import { csvHeaders } from '../../src/calendar/csvColumns'
import { asAdmin, unique } from '../support/api'
import { importThroughQueue, runImportCli } from '../support/imports'
import { api, formPairs } from '../support/writeFixtures'

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '..', 'fixtures', name), 'utf8')

let admin: string

beforeAll(async () => {
  admin = await asAdmin()
})

/** Events of a year whose title or text has `words`, as the administrator lists them. */
async function eventsMatching(words: string, year: number): Promise<any[]> {
  const reply = await api(
    `/events?search=${encodeURIComponent(words)}&start_date=${year}-01-01&end_date=${year}-12-31&per_page=50&status=publish,draft`,
    {
      token: admin,
    },
  )
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.events
}

async function countMatching(words: string, year: number): Promise<number> {
  const reply = await api(
    `/events?search=${encodeURIComponent(words)}&start_date=${year}-01-01&end_date=${year}-12-31&per_page=1`,
    { token: admin },
  )
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.total as number
}

async function venuesNamed(name: string): Promise<any[]> {
  const reply = await api(`/venues?search=${encodeURIComponent(name)}&per_page=50`, {
    token: admin,
  })
  expect(reply.status).toBe(200)
  return reply.body.venues ?? []
}

describe('importing an upstream-style CSV', () => {
  it('creates events with their venues, organizers and terms, and later files of venues and organizers update those, not duplicate them', async () => {
    const events = await importThroughQueue(fixture('events.csv'))
    expect(events).toMatchObject({
      status: 'done',
      total: 3,
      done: 3,
      failed: 0,
      updated: 0,
      unchanged: 0,
      failures: [],
    })
    // 3 events, 2 venues and 2 organizers named by them, 4 categories and 3 tags.
    expect(events.created).toBe(14)

    const [jazz] = await eventsMatching('CSV Fixture Jazz Night', 2031)
    expect(jazz).toMatchObject({
      title: 'CSV Fixture Jazz Night',
      start_date: '2031-06-12 19:30:00',
      end_date: '2031-06-12 23:00:00',
      utc_start_date: '2031-06-12 17:30:00',
      timezone: 'Europe/Paris',
      all_day: false,
      website: 'https://jazz.example.org/',
      featured: true,
      sticky: false,
      show_map: true,
      show_map_link: true,
      status: 'publish',
    })
    expect(jazz.description).toContain('<strong>jazz</strong>')
    expect(jazz.excerpt).toContain('Jazz in the courtyard')
    expect(jazz.cost_details).toMatchObject({
      currency_symbol: '€',
      currency_position: 'postfix',
      values: ['10', '20'],
    })
    expect(jazz.venue.venue).toBe('CSV Fixture Riverside Hall')
    expect(jazz.organizer.map((organizer: any) => organizer.organizer)).toEqual([
      'CSV Fixture Ensemble',
      'CSV Fixture Friends',
    ])
    expect(jazz.categories.map((term: any) => term.name).sort()).toEqual([
      'CSV Fixture Jazz',
      'CSV Fixture Music',
    ])
    expect(jazz.tags.map((term: any) => term.name)).toEqual(['CSV Fixture Evening'])

    const [fair] = await eventsMatching('CSV Fixture Book Fair', 2031)
    // 06/13/2031 is month first; 12-hour times; plain text paragraphs.
    expect(fair).toMatchObject({
      start_date: '2031-06-13 09:00:00',
      end_date: '2031-06-14 17:30:00',
      show_map: false,
      sticky: true,
      featured: false,
    })
    expect(fair.description).toBe('<p>A fair of old books.</p>\n<p>Bring your own bag.</p>')
    expect(fair.cost_details.values).toEqual(['0'])
    expect(fair.venue.id).toBe(jazz.venue.id)

    const [harvest] = await eventsMatching('CSV Fixture Harvest Day', 2031)
    // 15-06-2031 is day first; all day in its own zone.
    expect(harvest).toMatchObject({
      all_day: true,
      start_date: '2031-06-15 00:00:00',
      end_date: '2031-06-15 23:59:59',
      timezone: 'America/New_York',
    })
    expect(harvest.tags.map((term: any) => term.name).sort()).toEqual([
      'CSV Fixture Family',
      'CSV Fixture Outdoor',
    ])

    const venues = await importThroughQueue(fixture('venues.csv'))
    expect(venues).toMatchObject({
      status: 'done',
      created: 0,
      updated: 2,
      unchanged: 0,
      failed: 0,
    })
    const halls = await venuesNamed('CSV Fixture Riverside Hall')
    expect(halls).toHaveLength(1)
    expect(halls[0]).toMatchObject({
      id: jazz.venue.id,
      city: 'Lyon',
      country: 'France',
      province: 'Auvergne-Rhône-Alpes',
      zip: '69001',
    })
    const [orchard] = await venuesNamed('CSV Fixture Orchard')
    expect(orchard).toMatchObject({ city: 'Hudson', state: 'NY', stateprovince: 'NY' })

    const organizers = await importThroughQueue(fixture('organizers.csv'), { kind: 'organizers' })
    expect(organizers).toMatchObject({ status: 'done', created: 0, updated: 2, failed: 0 })
    const reply = await api(`/organizers?search=${encodeURIComponent('CSV Fixture Ensemble')}`, {
      token: admin,
    })
    expect(reply.body.organizers).toHaveLength(1)
    expect(reply.body.organizers[0]).toMatchObject({
      email: 'ensemble@example.org',
      website: 'https://ensemble.example.org/',
    })
  })

  it('changes nothing when the same file is imported again', async () => {
    const before = await eventsMatching('CSV Fixture', 2031)
    const again = await importThroughQueue(fixture('events.csv'))
    expect(again).toMatchObject({ status: 'done', created: 0, updated: 0, unchanged: 3, failed: 0 })
    const after = await eventsMatching('CSV Fixture', 2031)
    expect(after.map((event) => [event.id, event.modified_utc])).toEqual(
      before.map((event) => [event.id, event.modified_utc]),
    )
  })

  it('updates only the row that changed', async () => {
    const changed = fixture('events.csv').replace(
      'Jazz in the courtyard',
      'Jazz under the plane trees',
    )
    const run = await importThroughQueue(changed)
    expect(run).toMatchObject({ status: 'done', created: 0, updated: 1, unchanged: 2, failed: 0 })
    const [jazz] = await eventsMatching('CSV Fixture Jazz Night', 2031)
    expect(jazz.excerpt).toContain('Jazz under the plane trees')
    expect(await countMatching('CSV Fixture', 2031)).toBe(3)
  })

  it('reports bad rows by number and reason, writes nothing of them, and imports the rest', async () => {
    const word = unique('csvbad')
    const venue = `${word} Venue`
    const category = `${word} Category`
    const csv = stringify([
      [
        'Event Name',
        'Event Start Date',
        'Event Start Time',
        'Event Venue Name',
        'Event Category',
        'Event Featured Image',
      ],
      [`${word} good`, '2031-09-01', '10:00', '', '', ''],
      [`${word} bad date`, '2031-02-30', '10:00', '', '', ''],
      ['', '2031-09-02', '10:00', '', '', ''],
      // Its venue and category are made before its image fails: they must go with it.
      [
        `${word} bad image`,
        '2031-09-03',
        '10:00',
        venue,
        category,
        'http://127.0.0.1:1/missing.png',
      ],
      [`${word} bad time`, '2031-09-04', '25:00', '', '', ''],
      // No media has id 0: the namespace reads it as "no image", a file's cell as the id it writes.
      [`${word} image zero`, '2031-09-05', '10:00', '', '', '0'],
    ])
    const run = await importThroughQueue(csv)
    expect(run).toMatchObject({ status: 'done', created: 1, failed: 5 })
    const reasons = Object.fromEntries(
      run.failures.map((failure) => [failure.item, failure.reason]),
    )
    expect(Object.keys(reasons)).toEqual([
      'event row 3',
      'event row 4',
      'event row 5',
      'event row 6',
      'event row 7',
    ])
    expect(reasons['event row 3']).toMatch(/Event Start Date is not a date: "2031-02-30"/)
    expect(reasons['event row 4']).toMatch(/Event Name is empty/)
    expect(reasons['event row 5']).toMatch(/^image: The image could not be downloaded/)
    expect(reasons['event row 6']).toMatch(/Event Start Time is not a time: "25:00"/)
    expect(reasons['event row 7']).toBe('image: No image has this id (0).')

    expect((await eventsMatching(word, 2031)).map((event) => event.title)).toEqual([`${word} good`])
    expect(await venuesNamed(venue)).toEqual([])
    const categories = await api(
      `/categories?search=${encodeURIComponent(category)}&hide_empty=false`,
    )
    expect(categories.body.categories).toEqual([])
  })

  it('reads a file as the spreadsheet saved it: Windows-1252 (Excel’s CSV), UTF-16 with its mark, UTF-8 with or without one', async () => {
    const word = unique('csvenc')
    const title = (encoding: string) => `${word} ${encoding} Café “Noël” – 5 €`
    const file = (encoding: string) =>
      stringify([
        ['Event Name', 'Event Start Date', 'Event Start Time'],
        [title(encoding), '2032-03-04', '10:00'],
      ])
    const utf16 = (text: string, bigEndian: boolean) => {
      const bytes = Buffer.from(`\ufeff${text}`, 'utf16le')
      if (bigEndian) bytes.swap16()
      return new Uint8Array(bytes)
    }
    const files: Record<string, Uint8Array<ArrayBuffer>> = {
      cp1252: new Uint8Array(
        // Windows-1252 bytes of the text: Latin-1's letters, and “ ” – € at 0x93 0x94 0x96 0x80.
        [...file('cp1252')].map(
          (letter) =>
            ({ '“': 0x93, '”': 0x94, '–': 0x96, '€': 0x80 })[letter] ?? letter.charCodeAt(0),
        ),
      ),
      utf16le: utf16(file('utf16le'), false),
      utf16be: utf16(file('utf16be'), true),
      utf8bom: new Uint8Array(Buffer.from(`\ufeff${file('utf8bom')}`)),
      utf8: new Uint8Array(Buffer.from(file('utf8'))),
    }
    for (const [encoding, bytes] of Object.entries(files)) {
      const run = await importThroughQueue(bytes)
      expect([encoding, run.status, run.created, run.failures]).toEqual([encoding, 'done', 1, []])
    }
    const titles = (await eventsMatching(word, 2032)).map((event: { title: string }) => event.title)
    expect(titles.sort()).toEqual(Object.keys(files).map(title).sort())
  })

  it('links a new venue and organizer where those a name was imported as are in the trash, as where they were deleted', async () => {
    const word = unique('csvtrashed')
    const [venue, organizer] = [`${word} Hall`, `${word} Band`]
    const file = (title: string, day: string) =>
      stringify([
        [
          'Event Name',
          'Event Start Date',
          'Event Start Time',
          'Event Venue Name',
          'Event Organizer Name',
        ],
        [title, `2035-03-${day}`, '20:00', venue, organizer],
      ])
    expect(await importThroughQueue(file(`${word} first`, '01'))).toMatchObject({
      status: 'done',
      created: 3,
      failed: 0,
    })
    const [first] = await eventsMatching(`${word} first`, 2035)
    const trashed = { venue: first.venue.id, organizer: first.organizer[0].id }
    for (const [kind, id] of [
      ['venues', trashed.venue],
      ['organizers', trashed.organizer],
    ])
      expect((await api(`/${kind}/${id}`, { method: 'DELETE', token: admin })).status).toBe(200)

    const run = await importThroughQueue(file(`${word} second`, '02'))
    expect(run, JSON.stringify(run.failures)).toMatchObject({
      status: 'done',
      created: 3,
      failed: 0,
      failures: [],
    })
    const [second] = await eventsMatching(`${word} second`, 2035)
    expect(second.venue).toMatchObject({ venue, status: 'publish' })
    expect(second.venue.id).not.toBe(trashed.venue)
    expect(second.organizer).toEqual([expect.objectContaining({ organizer, status: 'publish' })])
    expect(second.organizer[0].id).not.toBe(trashed.organizer)
    // The source's names now map to the new ones: the trashed ones stay where the editor put them.
    expect(await importThroughQueue(file(`${word} third`, '03'))).toMatchObject({
      status: 'done',
      created: 1,
      failed: 0,
    })
    const [third] = await eventsMatching(`${word} third`, 2035)
    expect([third.venue.id, third.organizer[0].id]).toEqual([
      second.venue.id,
      second.organizer[0].id,
    ])
    expect((await api(`/venues/${trashed.venue}`, { token: admin })).body.status).toBe('trash')
  })

  it('refuses a file without a name column, and says why', async () => {
    const run = await importThroughQueue('Title,Start\nA,2031-01-01\n')
    expect(run.status).toBe('failed')
    expect(run.error).toMatch(/Event Name/)
  })
})

describe('an import writes through the namespace’s operations', () => {
  it('drops an excerpt’s markup as a write through the namespace drops it', async () => {
    const word = unique('csvrule')
    const excerpt = '<strong>Loud</strong> music <a href="https://example.org/">outside</a>'
    const posted = await api('/events', {
      method: 'POST',
      token: admin,
      ...formPairs([
        ['title', `${word} posted`],
        ['start_date', '2034-06-01 20:00:00'],
        ['end_date', '2034-06-01 22:00:00'],
        ['excerpt', excerpt],
      ]),
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    const run = await importThroughQueue(
      stringify([
        ['Event Name', 'Event Start Date', 'Event Start Time', 'Event Excerpt'],
        [`${word} imported`, '2034-06-02', '20:00', excerpt],
      ]),
    )
    expect(run).toMatchObject({ status: 'done', created: 1, failed: 0 })
    const [imported] = await eventsMatching(`${word} imported`, 2034)
    expect(imported.excerpt).toBe(posted.body.excerpt)
    expect(imported.excerpt).not.toContain('<strong>')
  })
})

// Each run starts the CLI (tsx, Payload) afresh: a minute or more when the machine is busy.
describe('npm run import', { timeout: 180_000 }, () => {
  it('killed midway, then run again, completes without duplicates', async () => {
    const word = unique('csvkill')
    const rows = Array.from({ length: 300 }, (_, i) => [
      `${word} ${String(i).padStart(3, '0')}`,
      '2032-03-01',
      `${String(8 + (i % 12)).padStart(2, '0')}:00`,
    ])
    const file = path.join(tmpdir(), `${word}.csv`)
    writeFileSync(
      file,
      stringify([['Event Name', 'Event Start Date', 'Event Start Time'], ...rows]),
    )

    const killed = await runImportCli(
      ['--csv', file],
      async () => (await countMatching(word, 2032)) > 5,
    )
    expect(killed.signal, killed.output).toBe('SIGKILL')
    const imported = await countMatching(word, 2032)
    expect(imported, killed.output).toBeGreaterThan(0)
    expect(imported).toBeLessThan(300)

    const resumed = await runImportCli(['--csv', file])
    expect(resumed.code, resumed.output).toBe(0)
    expect(resumed.output).toMatch(/event\s+\[#+\] 300\/300/)
    expect(resumed.output).toContain(
      `event     created ${300 - imported}, updated 0, unchanged ${imported}, failed 0`,
    )
    expect(await countMatching(word, 2032)).toBe(300)
  })

  it('prints each failed row with its reason and exits 1', async () => {
    const word = unique('csvcli')
    const file = path.join(tmpdir(), `${word}.csv`)
    writeFileSync(
      file,
      stringify([
        ['Event Name', 'Event Start Date'],
        [`${word} fine`, '2032-04-01'],
        [`${word} wrong`, '04/31/2032'],
      ]),
    )
    const run = await runImportCli(['--csv', file, '--kind', 'events', '--status', 'draft'])
    expect(run.code, run.output).toBe(1)
    expect(run.output).toContain('event     created 1, updated 0, unchanged 0, failed 1')
    expect(run.output).toContain(
      'failed: event row 3: Event Start Date is not a date: "04/31/2032"',
    )
    const [fine] = await eventsMatching(word, 2032)
    expect(fine).toMatchObject({ title: `${word} fine`, status: 'draft' })
  })

  it('stops with the reason on a bound that is not a number, before importing anything', async () => {
    const word = unique('csvbound')
    const file = path.join(tmpdir(), `${word}.csv`)
    writeFileSync(
      file,
      stringify([
        ['Event Name', 'Event Start Date'],
        [word, '2032-04-02'],
      ]),
    )
    const run = await runImportCli(['--csv', file, '--kind', 'events'], undefined, {
      IMPORT_MAX_RUN_MB: '1GB',
    })
    expect(run.code, run.output).toBe(2)
    expect(run.output).toContain('IMPORT_MAX_RUN_MB must be a number above 0 (got 1GB)')
    expect(await eventsMatching(word, 2032)).toEqual([])
  })
})

describe('GET /events.csv', () => {
  it('answers the /events filters’ 400s', async () => {
    const reply = await api('/events.csv?start_date=not-a-date')
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe('rest_invalid_param')
    expect(reply.body.data.params).toHaveProperty('start_date')
  })

  it('exports what the list shows, in the import’s columns, and the file imports back unchanged', async () => {
    const word = unique('csvexport')
    const created = []
    for (const pairs of [
      [
        ['title', `${word} concert`],
        ['description', '<p>An <em>evening</em> concert.</p>'],
        ['excerpt', 'Short words'],
        ['start_date', '2033-05-01 20:00:00'],
        ['end_date', '2033-05-01 22:30:00'],
        ['timezone', 'Europe/Berlin'],
        ['venue[venue]', `${word} Hall`],
        ['venue[city]', 'Berlin'],
        ['organizer[0][organizer]', `${word} Band`],
        ['categories', `${word} Music`],
        ['tags', `${word} Night, ${word} Loud`],
        ['cost[]', '15€'],
        ['cost[]', '25€'],
        ['featured', 'true'],
        ['website', 'https://concert.example.org/'],
      ],
      [
        ['title', `${word} market`],
        ['start_date', '2033-05-02'],
        ['end_date', '2033-05-03'],
        ['all_day', 'true'],
        ['timezone', 'UTC+2'],
        ['venue[venue]', `${word} Hall`],
        ['sticky', 'true'],
        ['show_map', 'false'],
      ],
    ] as [string, string][][]) {
      const reply = await api('/events', { method: 'POST', token: admin, ...formPairs(pairs) })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      created.push(reply.body)
    }
    const draft = await api('/events', {
      method: 'POST',
      token: admin,
      json: {
        title: `${word} draft`,
        status: 'draft',
        start_date: '2033-05-04 10:00',
        end_date: '2033-05-04 11:00',
      },
    })
    expect(draft.status).toBe(201)

    const query = `search=${word}&start_date=2033-01-01&end_date=2033-12-31`
    const anonymous = await api(`/events.csv?${query}`)
    expect(anonymous.status).toBe(200)
    expect(anonymous.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(anonymous.headers.get('ETag')).toBeTruthy()
    const anonymousRows = parse(anonymous.body as string) as string[][]
    expect(anonymousRows[0]).toEqual(csvHeaders('events'))
    expect(anonymousRows.slice(1).map((row) => row[1])).toEqual([
      `${word} concert`,
      `${word} market`,
    ])

    const exported = await api(`/events.csv?${query}&status=publish`, { token: admin })
    expect(exported.status).toBe(200)
    expect(exported.headers.get('X-Total')).toBe('2')
    const rows = parse(exported.body as string, { columns: true }) as Record<string, string>[]
    expect(rows[0]).toMatchObject({
      'Event Name': `${word} concert`,
      'Event Description': '<p>An <em>evening</em> concert.</p>',
      'Event Start Date': '2033-05-01',
      'Event Start Time': '20:00:00',
      'Event End Time': '22:30:00',
      'All Day Event': 'FALSE',
      Timezone: 'Europe/Berlin',
      'Event Venue Name': `${word} Hall`,
      'Event Organizer Name': `${word} Band`,
      'Event Cost': '15, 25',
      'Event Currency Symbol': '€',
      'Event Currency Position': 'suffix',
      'Event Category': `${word} Music`,
      'Event Tags': `${word} Night, ${word} Loud`,
      'Event Featured': 'TRUE',
    })
    expect(rows[0]!['Event UID']).toMatch(new RegExp(`^${created[0].id}@`))
    expect(rows[1]).toMatchObject({
      'All Day Event': 'TRUE',
      'Event Start Time': '',
      'Event End Date': '2033-05-03',
      'Event Sticky': 'TRUE',
      'Event Show Map': 'FALSE',
    })

    const back = await importThroughQueue(exported.body as string)
    expect(back).toMatchObject({
      status: 'done',
      created: 0,
      updated: 0,
      unchanged: 2,
      failed: 0,
      failures: [],
    })
    const again = await importThroughQueue(exported.body as string)
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2, failed: 0 })

    // Renamed in a spreadsheet: the UID still names the event.
    const renamed = (exported.body as string).replace(`${word} market,`, `${word} flea market,`)
    const update = await importThroughQueue(renamed)
    expect(update).toMatchObject({ created: 0, updated: 1, unchanged: 1, failed: 0 })
    expect((await api(`/events/${created[1].id}`, { token: admin })).body.title).toBe(
      `${word} flea market`,
    )
    // The two and the draft: nothing was duplicated.
    expect(await countMatching(word, 2033)).toBe(3)
  })
})
