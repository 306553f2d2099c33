/**
 * What makes an import go faster than an item at a time (docs/api.md §23.2, §23.5): a second run of
 * an unchanged file decides its items a batch at a time, without a transaction for each; a site's
 * items in other languages, which its venues and organizers lists give only one request an item and
 * language, are read side by side, a few at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { stringify } from 'csv-stringify/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, unique } from '../support/api'
import { testDatabase } from '../support/database'
import { runImportCli } from '../support/imports'
import { startSecondInstance, type Instance } from '../support/secondInstance'
import { siteClient } from '../support/siteClient'
import { api } from '../support/writeFixtures'

const db = testDatabase()

/**
 * PostgreSQL's count of transactions in `database`, committed or rolled back, once every backend has reported its own
 * (at most 10 s idle, PGSTAT_IDLE_INTERVAL).
 */
async function commits(database: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 11_000))
  await db.query('select pg_stat_clear_snapshot()')
  const { rows } = await db.query<{ commits: string }>(
    'select (xact_commit + xact_rollback)::text as commits from pg_stat_database where datname = $1',
    [database],
  )
  return Number(rows[0]!.commits)
}

describe('a second run of an unchanged file', { timeout: 300_000 }, () => {
  // An instance on a database of its own whose jobs run only when this test runs them: what the count
  // sees is the import, this test's few calls and the instance's revision heartbeat (every 5 s), not
  // the suite's server and its scheduled jobs.
  let site: Instance
  const { onSite, signIn } = siteClient(() => site)

  beforeAll(async () => {
    site = await startSecondInstance({ JOBS_AUTORUN: 'false' }, { ownDatabase: true })
    await signIn({ email: 'pace@calendar.test', password: 'pace-password-1' })
  }, 200_000)

  afterAll(() => site?.stop())

  /** Imports a CSV of venues on the instance, running its queue every 2 s until the import has run. */
  async function importVenues(csv: string): Promise<Record<string, unknown>> {
    const form = new FormData()
    form.append('file', new Blob([csv], { type: 'text/csv' }), `pace-${Date.now()}.csv`)
    form.append('_payload', JSON.stringify({ kind: 'venues' }))
    const created = await onSite('/api/imports', { method: 'POST', body: form })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    for (let runs = 0; runs < 60; runs++) {
      expect((await onSite('/api/payload-jobs/run?queue=calendar')).status).toBe(200)
      const record = (await onSite(`/api/imports/${created.body.doc.id as number}?depth=0`)).body
      if (record.status === 'done' || record.status === 'failed') return record
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    }
    throw new Error('the import did not run in 2 minutes')
  }

  it('is unchanged item by item without a transaction for each', async () => {
    const word = unique('pace')
    const rows = Array.from({ length: 150 }, (_, n) => [`${word} Hall ${n}`, `${n} Pace Street`])
    const csv = stringify([['Venue Name', 'Venue Address'], ...rows])
    expect(await importVenues(csv)).toMatchObject({ status: 'done', created: 150, failed: 0 })
    const before = await commits(site.database!)
    const started = Date.now()
    const second = await importVenues(csv)
    const seconds = Math.round((Date.now() - started) / 1000)
    const committed = (await commits(site.database!)) - before
    expect(second).toMatchObject({ status: 'done', unchanged: 150, created: 0, updated: 0 })
    // One item, one transaction (its own and Payload's commit) made it 300 and more. What else commits
    // grows with the run's time, not its items: the progress recorded every few seconds, the
    // instance's revision heartbeat and the polls (35 in all on a quiet machine, 88 in one run of the
    // whole suite), so the bound is one an item rather than a tight count.
    expect(
      committed,
      `${committed} transactions for 150 unchanged items in ${seconds} s`,
    ).toBeLessThan(150)
  })
})

describe("a site's items in other languages", { timeout: 180_000 }, () => {
  const word = unique('sidebyside')
  const VENUES = 8
  const NAMES: Record<string, string> = { en: 'Hall', fr: 'Salle', de: 'Halle' }
  let server: Server
  let base: string
  let inFlight = 0
  let most = 0

  const json = (response: ServerResponse, body: unknown) =>
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
  const venue = (id: number, language = 'en') => ({
    id,
    venue: `${word} ${NAMES[language]} ${id}`,
    status: 'publish',
  })

  /** A site whose venues list takes no `include`, each venue answered in its language a little later. */
  async function answer(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://x')
    const language = url.searchParams.get('i18n_language') ?? 'en'
    if (url.pathname === '/fake/v1')
      return json(response, {
        namespace: 'fake/v1',
        routes: {
          '/fake/v1/events': {
            endpoints: [
              { methods: ['GET'], args: { i18n_language: { enum: ['en', 'fr', 'de'] } } },
            ],
          },
          '/fake/v1/venues': { endpoints: [{ methods: ['GET'], args: {} }] },
        },
      })
    if (url.pathname === '/fake/v1/events') return json(response, { events: [], total: 0 })
    if (url.pathname === '/fake/v1/venues')
      return json(response, {
        venues: Array.from({ length: VENUES }, (_, n) => venue(n + 1)),
        total: VENUES,
        total_pages: 1,
      })
    const one = /^\/fake\/v1\/venues\/(\d+)$/.exec(url.pathname)
    if (!one) return response.writeHead(404).end()
    inFlight++
    most = Math.max(most, inFlight)
    await new Promise((resolve) => setTimeout(resolve, 150))
    inFlight--
    json(response, venue(Number(one[1]), language))
  }

  beforeAll(async () => {
    server = createServer((request, response) => void answer(request, response))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('are read a few at once, each item keeping its own language', async () => {
    const run = await runImportCli(['--from', `${base}/fake/v1`])
    expect(run.code, run.output).toBe(0)
    expect(most, 'requests the site had at once').toBeGreaterThan(1)
    expect(most).toBeLessThanOrEqual(6)
    const token = await asAdmin()
    const listed = await api(`/venues?search=${encodeURIComponent(word)}&per_page=50`, { token })
    expect(listed.status).toBe(200)
    const byName = new Map<string, number>(
      listed.body.venues.map((one: { venue: string; id: number }) => [one.venue, one.id]),
    )
    expect(byName.size).toBe(VENUES)
    for (let id = 1; id <= VENUES; id++) {
      const local = byName.get(`${word} Hall ${id}`)
      expect(local, `venue ${id}`).toBeDefined()
      for (const language of ['fr', 'de']) {
        const read = await api(`/venues/${local}?i18n_language=${language}`, { token })
        expect(read.body.venue).toBe(`${word} ${NAMES[language]} ${id}`)
      }
    }
  })
})
