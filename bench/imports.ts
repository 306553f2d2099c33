/**
 * Import speed (q): events a second imported into an empty calendar, through the admin's Imports (an
 * import record run by the jobs queue, over HTTP), from a live site (the benchmark's own app and its
 * dataset, over its REST API v1) and from an iCalendar file of 10,000 events. The time is the run's own
 * (from its record's `startedAt`). A run still going after IMPORT_SECONDS is measured there (items done,
 * events created so far) and left unfinished: on the shared machine an item took a quarter of a
 * second and more, and a whole run of 10,000 events most of an hour.
 */
import path from 'node:path'
import pg from 'pg'
import { waitForHealth } from '../scripts/serverProcess'
import { startEmbeddedDatabase } from '../src/database/embedded'
import { adminToken, startApp, stop } from './app'
import { peakRss } from './measure'
import { dayOffset } from './varied'
import { statements, withStatementCounts } from './writes'

export const ICS_EVENTS = 10_000
const IMPORT_SECONDS = 180

type ImportRecord = {
  id: number
  status: string
  done: number
  failed: number
  total: number
  startedAt?: string
  finishedAt?: string
  error: string | null
}

/**
 * What one run imported and how fast: items done (terms, venues, organizers, events) of the run's
 * total, events created, and whether the run finished within IMPORT_SECONDS.
 */
export type ImportFigure = {
  source: string
  seconds: number
  items: number
  total: number
  events: number
  failed: number
  finished: boolean
  /** Statements the destination's PostgreSQL ran during the run (pg_stat_statements, every client). */
  statements: number
  /** Peak resident set of the importing app during the run, and of the bench's app a site import reads (MB). */
  rssMb: number
  siteRssMb?: number
}

/**
 * An empty calendar of its own (a cluster and an app beside the dataset's), its PostgreSQL counting
 * statements.
 */
export async function importDestination(datasets: string, overTcp: boolean): Promise<Destination> {
  const directory = path.join(datasets, 'import-destination')
  const database = await withStatementCounts(
    await startEmbeddedDatabase({ directory, fresh: true, unsafeFast: true }),
    directory,
  )
  const db = new pg.Client({ connectionString: database.url })
  await db.connect()
  const { app, port } = await startApp(database, {
    overTcp,
    settings: { IMPORT_ALLOW_PRIVATE: 'true' },
  })
  const pid = app.pid!
  const base = `http://127.0.0.1:${port}`
  const stopAll = async () => {
    await db.end()
    await stop(app)
    await database.stop()
  }
  await waitForHealth(base, 180_000).catch(async (error: unknown) => {
    await stopAll()
    throw error
  })
  return {
    base,
    pid,
    authorization: `JWT ${await adminToken(base)}`,
    statements: () => statements(db),
    stop: stopAll,
  }
}

/** An empty calendar to import into: its app, its administrator, its PostgreSQL's count of statements. */
type Destination = {
  base: string
  pid: number
  authorization: string
  statements: () => Promise<number>
  stop: () => Promise<void>
}

/** An iCalendar file of `count` events, a day or two apart over three years, in UTC with a location and categories. */
export function icsFile(count: number): string {
  const stamp = (day: number, hour: number) =>
    `${dayOffset(day - 540).replaceAll('-', '')}T${String(hour).padStart(2, '0')}0000Z`
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//cal-events bench//EN']
  for (let n = 1; n <= count; n++) {
    const day = Math.floor((n * 1095) / count)
    lines.push(
      'BEGIN:VEVENT',
      `UID:bench-ics-${n}@calendar.test`,
      `DTSTAMP:${stamp(0, 12)}`,
      `DTSTART:${stamp(day, 18)}`,
      `DTEND:${stamp(day, 20)}`,
      `SUMMARY:Imported event ${n}`,
      `DESCRIPTION:Event ${n} of the benchmark's iCalendar file.`,
      `LOCATION:Hall ${n % 50}`,
      `CATEGORIES:Category ${n % 20}`,
      'END:VEVENT',
    )
  }
  lines.push('END:VCALENDAR')
  return `${lines.join('\r\n')}\r\n`
}

/**
 * Saves an import on `base` as its administrator (`authorization`), runs the jobs queue, and waits
 * for the record to say the run has ended. The queue's run answers only when the import has ended,
 * which may outlast a fetch's patience: the record is what is watched.
 */
async function timedImport(
  { base, pid, authorization, statements }: Destination,
  source: string,
  body: FormData | Record<string, unknown>,
  sitePid: number | undefined,
): Promise<ImportFigure> {
  const importing = peakRss(pid)
  const read = sitePid === undefined ? undefined : peakRss(sitePid)
  try {
    const json = !(body instanceof FormData)
    const saved = await fetch(`${base}/api/imports`, {
      method: 'POST',
      headers: {
        Authorization: authorization,
        ...(json ? { 'Content-Type': 'application/json' } : {}),
      },
      body: json ? JSON.stringify(body) : body,
    })
    const { doc } = (await saved.json()) as { doc?: { id: number } }
    if (!doc) throw new Error(`the ${source} import was not saved (${saved.status})`)
    const before = await eventCount(base)
    const statementsBefore = await statements()
    fetch(`${base}/api/payload-jobs/run?queue=calendar`, {
      headers: { Authorization: authorization },
    }).catch(() => undefined)
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 2000))
      const record = (await (
        await fetch(`${base}/api/imports/${doc.id}?depth=0`, {
          headers: { Authorization: authorization },
        })
      ).json()) as ImportRecord
      if (record.status === 'failed')
        throw new Error(`the ${source} import failed: ${record.error}`)
      if (!record.startedAt) continue
      const finished = record.status === 'done'
      const seconds =
        ((finished ? Date.parse(record.finishedAt!) : Date.now()) - Date.parse(record.startedAt)) /
        1000
      if (!finished && seconds < IMPORT_SECONDS) continue
      return {
        source,
        seconds,
        items: record.done,
        total: record.total,
        events: (await eventCount(base)) - before,
        failed: record.failed,
        finished,
        statements: (await statements()) - statementsBefore,
        rssMb: importing(),
        siteRssMb: read?.(),
      }
    }
  } finally {
    importing()
    read?.()
  }
}

/** Published events in the calendar at `base`: its event list's total. */
async function eventCount(base: string): Promise<number> {
  const response = await fetch(
    `${base}/api/cal/events/v1/events?per_page=1&start_date=2000-01-01&end_date=2100-01-01`,
  )
  return Number(response.headers.get('X-Total') ?? 0)
}

/**
 * The iCalendar file, then a site import from `siteRoot` (the namespace's root URL), each into the
 * empty calendar a fresh app at `destination()` serves (an unfinished run is stopped with its app).
 */
export async function importSpeed(
  destination: () => Promise<Destination>,
  siteRoot: string,
  sitePid: number,
): Promise<ImportFigure[]> {
  const form = new FormData()
  form.append(
    'file',
    new Blob([icsFile(ICS_EVENTS)], { type: 'text/calendar' }),
    `bench-${ICS_EVENTS}.ics`,
  )
  form.append('_payload', JSON.stringify({ source: 'ical' }))
  const figures: ImportFigure[] = []
  for (const [source, body, read] of [
    [`an .ics of ${ICS_EVENTS.toLocaleString('en')} events`, form, undefined],
    ['a live site', { source: 'site', sourceUrl: siteRoot }, sitePid],
  ] as const) {
    const target = await destination()
    try {
      figures.push(await timedImport(target, source, body, read))
    } finally {
      await target.stop()
    }
  }
  return figures
}
