/**
 * The write scenarios (w): events created and retitled through the namespace by a signed-in editor,
 * and the same rows written by the write floor (bench/writeFloor.ts). Queries per write are counted by
 * PostgreSQL itself (pg_stat_statements, every statement a client sent, transactions' included),
 * which the app's own counter cannot see inside a write's transaction.
 */
import type autocannon from 'autocannon'
import pg from 'pg'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/database/embedded'
import { dayOffset } from './varied'

/** What the dataset holds for new events to link to (bench/dataset.ts: 20 categories, 50 tags). */
export type WriteTargets = { venues: number; organizers: number; events: number[] }

const draw = (of: number) => 1 + Math.floor(Math.random() * of)
let written = 0

/** A published event as an editor would create it: a venue, two organizers, two categories, two tags, a cost. */
function newEvent({ venues, organizers }: WriteTargets): Record<string, unknown> {
  const day = dayOffset(draw(365))
  written++
  return {
    title: `Bench write ${process.pid} ${written}`,
    description: `<p>Written by the benchmark, number ${written}.</p>`,
    status: 'publish',
    start_date: `${day} 19:00:00`,
    end_date: `${day} 21:00:00`,
    timezone: 'Europe/Paris',
    venue: draw(venues),
    organizer: [draw(organizers), draw(organizers)],
    categories: [draw(10), 10 + draw(10)],
    tags: [draw(25), 25 + draw(25)],
    cost: '10',
  }
}

/** autocannon's requests: a new event's POST to `path`, or a retitle of a random event at `path/{id}`, drawn afresh each time. */
export function writeRequests(
  kind: 'create' | 'update',
  path: string,
  targets: WriteTargets,
  authorization?: string,
): autocannon.Request[] {
  const headers = {
    'Content-Type': 'application/json',
    ...(authorization ? { Authorization: authorization } : {}),
  }
  return [
    {
      method: 'POST',
      headers,
      setupRequest: (request) =>
        kind === 'create'
          ? { ...request, path, body: JSON.stringify(newEvent(targets)) }
          : {
              ...request,
              path: `${path}/${targets.events[Math.floor(Math.random() * targets.events.length)]}`,
              body: JSON.stringify({ title: `Bench retitle ${process.pid} ${++written}` }),
            },
    },
  ]
}

/** What the write scenarios link to and retitle: venues and organizers by count, and published single events. */
export async function writeTargets(db: pg.Client): Promise<WriteTargets> {
  const count = async (table: string) =>
    Number((await db.query(`select max(id) as n from ${table} where status = 'publish'`)).rows[0].n)
  const { rows } = await db.query(
    `select id from events where status = 'publish' and not has_password and parent_id is null and recurrence is null limit 5000`,
  )
  return {
    venues: await count('venues'),
    organizers: await count('organizers'),
    events: rows.map((row: { id: number }) => row.id),
  }
}

/** Statements the clients have sent so far (top-level, `begin` and `commit` included). */
export async function statements(db: pg.Client): Promise<number> {
  const { rows } = await db.query(
    `select coalesce(sum(calls), 0)::bigint as n from pg_stat_statements`,
  )
  return Number(rows[0].n)
}

/**
 * The cluster restarted with pg_stat_statements loaded (it is loaded only at start), before the app
 * connects: `statements` then counts what every client sends.
 */
export async function withStatementCounts(
  database: EmbeddedDatabase,
  directory: string,
): Promise<EmbeddedDatabase> {
  const db = new pg.Client({ connectionString: database.url })
  await db.connect()
  await db.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`)
  await db.end()
  await database.stop()
  const restarted = await startEmbeddedDatabase({ directory, fresh: false, unsafeFast: true })
  const again = new pg.Client({ connectionString: restarted.url })
  await again.connect()
  await again.query('create extension if not exists pg_stat_statements')
  await again.end()
  return restarted
}

/**
 * Waits until no client of the database is busy: a write the load generator gave up on (at the end of
 * a scenario or its warm-up) is still being made, and would hold up the next scenario's.
 */
export async function settled(db: pg.Client): Promise<void> {
  for (let waited = 0; waited < 300; waited++) {
    const { rows } = await db.query(
      `select count(*)::int as busy from pg_stat_activity where backend_type = 'client backend' and state <> 'idle' and pid <> pg_backend_pid()`,
    )
    if (rows[0].busy === 0) return
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  throw new Error('the database was still busy 300 s after a write scenario')
}
