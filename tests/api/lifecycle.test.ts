/**
 * What an operator does on a fresh machine, through the real launcher (`npm run seed`, `npm start`)
 * as child processes: seed an empty data directory, serve it, stop it with SIGTERM, start it again,
 * and run a second, stateless instance against an existing database (DATABASE_URL).
 *
 * The already-built app is used: nothing here builds Next.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asAdmin, call, unique } from '../support/api'
import { DEFAULT_HEAP_MB } from '../../scripts/productionServer'
import { freePort, waitForHealth } from '../../scripts/serverProcess'

const root = path.resolve(import.meta.dirname, '..', '..')
const HEALTH_TIMEOUT = 120_000
const STOP_TIMEOUT = 30_000
/** A seed took 42 s at load 5 and over 90 s at load 15 (each run starts tsx and Payload afresh). */
const SEED_WAIT_MS = 180_000
/** A machine with no locale in its environment (an empty variable is an unset one to setlocale). */
const NO_LOCALE = { LANG: '', LC_ALL: '', LC_CTYPE: '', LC_COLLATE: '' }

type Exit = { code: number | null; signal: NodeJS.Signals | null }

type Launched = {
  mode: string
  child: ChildProcess
  dataDir: string
  base: string
  exited: Promise<Exit>
  running: () => boolean
  output: () => string
}

const launched: Launched[] = []
const tempDirs: string[] = []

/** A fresh DATA_DIR the embedded PostgreSQL (run as the `postgres` OS user under root) can traverse. */
function freshDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-lifecycle-'))
  chmodSync(dir, 0o755)
  tempDirs.push(dir)
  return dir
}

/** The environment of an operator's shell: none of the test run's own settings leak in. */
function operatorEnv(
  extra: Record<string, string>,
  keep: { database?: boolean } = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) {
    if (
      key.startsWith('VITEST') ||
      ['NODE_ENV', 'CAL_TEST_URL', 'SERVER_URL', 'REBUILD', 'PORT'].includes(key)
    )
      delete env[key]
  }
  if (!keep.database) {
    delete env.DATABASE_URL
    delete env.PAYLOAD_SECRET
  }
  return { ...env, ...extra }
}

/** `npm run <mode>` as the operator runs it: the launcher in a process group of its own. */
function launch(
  mode: 'start' | 'seed',
  dataDir: string,
  env: NodeJS.ProcessEnv,
  port = 0,
): Launched {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/launch.ts', mode], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  let done = false
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => {
      done = true
      resolve({ code, signal })
    }),
  )
  const entry: Launched = {
    mode,
    child,
    dataDir,
    base: `http://127.0.0.1:${port}`,
    exited,
    running: () => !done,
    output: () => log,
  }
  launched.push(entry)
  return entry
}

async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  keep: { database?: boolean } = {},
): Promise<Launched> {
  const port = await freePort()
  const server = launch(
    'start',
    dataDir,
    operatorEnv({ DATA_DIR: dataDir, PORT: String(port), ...env }, keep),
    port,
  )
  try {
    await Promise.race([
      waitForHealth(server.base, HEALTH_TIMEOUT),
      server.exited.then((exit) => {
        throw new Error(`the launcher exited before it was healthy (${JSON.stringify(exit)})`)
      }),
    ])
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : error}\n--- launcher output ---\n${server.output()}`,
      { cause: error },
    )
  }
  return server
}

function signalGroup(entry: Launched, signal: NodeJS.Signals): void {
  if (!entry.child.pid || !entry.running()) return
  try {
    process.kill(-entry.child.pid, signal)
  } catch {
    // already gone
  }
}

/** Stops like Ctrl-C in a terminal would: SIGTERM to the launcher's process group. */
async function stop(entry: Launched): Promise<{ exit: Exit | undefined; ms: number }> {
  const started = Date.now()
  signalGroup(entry, 'SIGTERM')
  const exit = await Promise.race([entry.exited, sleep(STOP_TIMEOUT).then(() => undefined)])
  return { exit, ms: Date.now() - started }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function nodeOptionsOf(pid: number): string | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((entry) => entry.startsWith('NODE_OPTIONS='))
    return line?.slice('NODE_OPTIONS='.length)
  } catch {
    return undefined
  }
}

/** Processes started for this data directory (the launcher passes DATA_DIR down to all of them). */
function processesOf(dataDir: string): number[] {
  if (!existsSync('/proc')) return []
  const pids: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0')
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8')
      if (environ.includes(`DATA_DIR=${dataDir}`) || cmdline.includes(dataDir))
        pids.push(Number(name))
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids
}

/** The pid of a postmaster still holding the cluster directory, if any. */
function postmasterOf(clusterDir: string): number | undefined {
  const pidFile = path.join(clusterDir, 'postmaster.pid')
  if (!existsSync(pidFile)) return undefined
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0])
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined
}

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (check()) return true
    await sleep(200)
  }
  return check()
}

type Options = { token?: string; json?: unknown; method?: string }

/** A request to one of the instances this file starts (the `call` helper talks to the main test server). */
async function request(
  base: string,
  urlPath: string,
  options: Options = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {}
  if (options.token) headers.Authorization = `JWT ${options.token}`
  if (options.json !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(base + urlPath, {
    method: options.method ?? 'GET',
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    // not JSON
  }
  return { status: response.status, body }
}

beforeAll(() => {
  // `start` builds Next when there is no build: that must never happen from inside the test run.
  if (!existsSync(path.join(root, '.next', 'BUILD_ID')))
    throw new Error('no production build (.next/BUILD_ID): build before running this file')
})

afterAll(async () => {
  for (const entry of launched) signalGroup(entry, 'SIGTERM')
  await Promise.race([Promise.all(launched.map((entry) => entry.exited)), sleep(20_000)])
  for (const entry of launched) signalGroup(entry, 'SIGKILL')
  for (const dir of tempDirs) {
    for (const pid of processesOf(dir)) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // gone
      }
    }
  }
  await sleep(300)
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
}, 60_000)

describe('a fresh machine with the embedded database', () => {
  const ADMIN = { email: 'operator@calendar.test', password: 'operator-password-1' }
  let dataDir: string
  let secret: string
  let totalDocs: number
  let tokenBeforeRestart: string
  let seeded = false
  let stopped = false

  it(
    '`npm run seed` fills an empty data directory with the demo calendar',
    async () => {
      dataDir = freshDataDir()
      // No locale set, as in many containers: the cluster must still fold case beyond ASCII.
      const seed = launch('seed', dataDir, operatorEnv({ DATA_DIR: dataDir, ...NO_LOCALE }))
      const exit = await Promise.race([seed.exited, sleep(SEED_WAIT_MS).then(() => undefined)])
      expect(
        exit,
        `seed did not finish in ${SEED_WAIT_MS / 1000} s\n${seed.output()}`,
      ).toBeDefined()
      // Exit 13 is Node's "unsettled top-level await": the seed script stalled while loading.
      expect(
        exit!.code,
        `\`npm run seed\` exited ${JSON.stringify(exit)}; its output:\n${seed.output() || '(none)'}`,
      ).toBe(0)
      expect(seed.output()).toContain('Seeded 240 events.')
      expect(existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true)
      // The seed stopped its database on the way out.
      expect(postmasterOf(path.join(dataDir, 'postgres'))).toBeUndefined()
      secret = readFileSync(path.join(dataDir, 'secret'), 'utf8')
      expect(secret.trim()).toMatch(/^[0-9a-f]{64}$/)
      seeded = true
    },
    SEED_WAIT_MS + 10_000,
  )

  it('`npm start` serves the seeded, published, translated events to anonymous readers', async () => {
    expect(seeded, 'needs the data directory the seed test fills').toBe(true)
    const server = await startServer(dataDir)

    const list = await request(server.base, '/api/events?limit=1')
    expect(list.status).toBe(200)
    expect(list.body.totalDocs).toBeGreaterThanOrEqual(200)
    expect(list.body.docs[0].status).toBe('publish')
    totalDocs = list.body.totalDocs
    const notPublished = await request(
      server.base,
      '/api/events?where[status][not_equals]=publish&limit=1',
    )
    expect(notPublished.body.totalDocs).toBe(0)

    // The same events in French: some have a French title, and English stays English.
    const french = await request(
      server.base,
      `/api/events?locale=fr&limit=5&where[title][equals]=${encodeURIComponent('Jazz dans la cour')}`,
    )
    expect(french.status).toBe(200)
    expect(french.body.totalDocs).toBeGreaterThan(0)
    expect(french.body.docs[0].title).toBe('Jazz dans la cour')
    const english = await request(server.base, `/api/events/${french.body.docs[0].id}?locale=en`)
    expect(english.body.title).toMatch(/^Jazz in the Courtyard #\d+$/)

    // The operator registers the first administrator.
    const registered = await request(server.base, '/api/users/first-register', {
      method: 'POST',
      json: ADMIN,
    })
    expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300)
    const login = await request(server.base, '/api/users/login', { method: 'POST', json: ADMIN })
    expect(login.status).toBe(200)
    expect(login.body.user.role).toBe('administrator')
    tokenBeforeRestart = login.body.token

    // Made where no locale was set, the database still folds "É": a search finds "Repair Café" by
    // "CAFÉ", and "école" is the tag "École" already is (a SQL_ASCII cluster took both).
    const cafe = await request(
      server.base,
      `/api/events?limit=1&where[title][like]=${encodeURIComponent('REPAIR CAFÉ')}`,
    )
    expect(cafe.body.totalDocs).toBeGreaterThan(0)
    const tag = (name: string) =>
      request(server.base, '/api/cal/events/v1/tags', {
        method: 'POST',
        token: login.body.token,
        json: { name },
      })
    expect((await tag('École')).status).toBe(201)
    const again = await tag('école')
    expect([again.status, again.body.code]).toEqual([400, 'term_exists'])

    const { exit, ms } = await stop(server)
    expect(
      exit,
      `the launcher was still running ${STOP_TIMEOUT} ms after SIGTERM\n${server.output()}`,
    ).toBeDefined()
    expect([0, 130], `exit ${JSON.stringify(exit)} after ${ms} ms\n${server.output()}`).toContain(
      exit!.code,
    )
    // Nothing keeps running for this data directory: neither PostgreSQL nor the Next server.
    expect(postmasterOf(path.join(dataDir, 'postgres'))).toBeUndefined()
    expect(
      await waitUntil(() => processesOf(dataDir).length === 0, 10_000),
      `left running: ${processesOf(dataDir).join(', ')}`,
    ).toBe(true)
    await expect(fetch(`${server.base}/api/health`)).rejects.toThrow()
    stopped = true
  }, 150_000)

  it('a restart on the same data directory keeps the events, the secret and the accounts', async () => {
    expect(stopped, 'needs the data directory the previous test served and stopped').toBe(true)
    const server = await startServer(dataDir)

    expect(readFileSync(path.join(dataDir, 'secret'), 'utf8')).toBe(secret)
    const list = await request(server.base, '/api/events?limit=1')
    expect(list.body.totalDocs).toBe(totalDocs)
    // A session from before the restart is still valid (same secret), and the password still works.
    const me = await request(server.base, '/api/users/me', { token: tokenBeforeRestart })
    expect(me.body.user?.email).toBe(ADMIN.email)
    const login = await request(server.base, '/api/users/login', { method: 'POST', json: ADMIN })
    expect(login.status).toBe(200)
    const wrong = await request(server.base, '/api/users/login', {
      method: 'POST',
      json: { ...ADMIN, password: 'not-the-password' },
    })
    expect(wrong.status).toBe(401)

    const { exit } = await stop(server)
    expect(exit, server.output()).toBeDefined()
    expect([0, 130]).toContain(exit!.code)
    expect(postmasterOf(path.join(dataDir, 'postgres'))).toBeUndefined()
  }, 150_000)
})

describe('a second command on the data directory of a running server', () => {
  it(
    '`npm run seed` beside `npm start` seeds through the running database and leaves it running; a second `npm start` is refused in one line',
    async () => {
      const dataDir = freshDataDir()
      const server = await startServer(dataDir)
      const cluster = path.join(dataDir, 'postgres')
      const postmaster = postmasterOf(cluster)
      expect(postmaster).toBeDefined()

      // No locale set, as in many containers: the cluster must still fold case beyond ASCII.
      const seed = launch('seed', dataDir, operatorEnv({ DATA_DIR: dataDir, ...NO_LOCALE }))
      const exit = await Promise.race([seed.exited, sleep(SEED_WAIT_MS).then(() => undefined)])
      expect(
        exit,
        `seed did not finish in ${SEED_WAIT_MS / 1000} s\n${seed.output()}`,
      ).toBeDefined()
      expect(exit!.code, seed.output()).toBe(0)
      expect(seed.output()).toContain(
        `using the database that npm start (pid ${server.child.pid}) runs in ${cluster}; it keeps running`,
      )
      expect(seed.output()).toContain('Seeded 240 events.')

      // The server never lost its database: same postmaster, healthy, and it lists what the seed wrote.
      expect(postmasterOf(cluster)).toBe(postmaster)
      expect((await request(server.base, '/api/health')).status).toBe(200)
      const listed = await request(server.base, '/api/cal/events/v1/events?per_page=5')
      expect(listed.status).toBe(200)
      expect(listed.body.total).toBeGreaterThan(0)
      expect(listed.body.events).toHaveLength(5)

      const second = launch(
        'start',
        dataDir,
        operatorEnv({ DATA_DIR: dataDir, PORT: String(await freePort()) }),
      )
      const refused = await Promise.race([second.exited, sleep(60_000).then(() => undefined)])
      expect(refused, second.output()).toBeDefined()
      expect(refused!.code).not.toBe(0)
      expect(second.output().trim()).toBe(
        `the database in ${cluster} is in use by npm start (pid ${server.child.pid}): stop that first, or use another DATA_DIR`,
      )
      expect(postmasterOf(cluster)).toBe(postmaster)
      expect((await request(server.base, '/api/health')).status).toBe(200)

      // The server that started the database still stops it.
      const { exit: stopped } = await stop(server)
      expect(stopped, server.output()).toBeDefined()
      expect(postmasterOf(cluster)).toBeUndefined()
    },
    SEED_WAIT_MS + 200_000,
  )
})

describe('an instance on an existing database (DATABASE_URL)', () => {
  it('serves the same data as the main server, shares its sessions and creates no cluster', async () => {
    const databaseUrl = process.env.DATABASE_URL
    const secret = process.env.PAYLOAD_SECRET
    expect(databaseUrl, 'the test run passes DATABASE_URL down').toBeTruthy()
    expect(secret, 'the test run passes PAYLOAD_SECRET down').toBeTruthy()
    const dataDir = freshDataDir()
    const second = await startServer(
      dataDir,
      { DATABASE_URL: databaseUrl!, PAYLOAD_SECRET: secret! },
      { database: true },
    )

    const health = await request(second.base, '/api/health')
    expect(health.status).toBe(200)
    // The server runs under the default heap ceiling (SERVER_HEAP_MB).
    const options = processesOf(dataDir).map(nodeOptionsOf)
    expect(
      options.some((line) => line?.split(' ').includes(`--max-old-space-size=${DEFAULT_HEAP_MB}`)),
      JSON.stringify(options),
    ).toBe(true)

    // Written through the main server, read anonymously through the second one.
    const admin = await asAdmin()
    const title = unique('shared ')
    const start = new Date(Date.now() + 3 * 86_400_000).toISOString()
    const end = new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString()
    const created = await call('/api/events', {
      method: 'POST',
      token: admin,
      json: { title, start, end, status: 'publish' },
    })
    expect(created.status).toBe(201)
    const read = await request(second.base, `/api/events/${created.body.doc.id}`)
    expect(read.status).toBe(200)
    expect(read.body.title).toBe(title)

    // A session from the main server works on the second one, and its writes show on the first.
    const renamed = `${title} renamed`
    const patch = await request(second.base, `/api/events/${created.body.doc.id}`, {
      method: 'PATCH',
      token: admin,
      json: { title: renamed },
    })
    expect(patch.status, JSON.stringify(patch.body)).toBe(200)
    expect((await call(`/api/events/${created.body.doc.id}`)).body.title).toBe(renamed)
    const totals = await Promise.all([
      call('/api/events?limit=1'),
      request(second.base, '/api/events?limit=1'),
    ])
    expect(totals[1].body.totalDocs).toBe(totals[0].body.totalDocs)

    // No embedded cluster was made for an instance that was given a database.
    expect(readdirSync(dataDir).filter((entry) => entry.startsWith('postgres'))).toEqual([])

    const { exit } = await stop(second)
    expect(exit, second.output()).toBeDefined()
    expect([0, 130]).toContain(exit!.code)
    // The shared database is still there for the main server.
    expect((await call('/api/health')).status).toBe(200)
  }, 150_000)

  it('refuses a SERVER_HEAP_MB that is not a size, saying so, before serving', async () => {
    const dataDir = freshDataDir()
    const env = operatorEnv(
      { DATA_DIR: dataDir, PORT: String(await freePort()), SERVER_HEAP_MB: 'lots' },
      { database: true },
    )
    const refused = launch('start', dataDir, env)
    const exit = await Promise.race([refused.exited, sleep(60_000).then(() => undefined)])
    expect(exit, refused.output()).toBeDefined()
    expect(exit!.code).not.toBe(0)
    expect(refused.output()).toContain(
      'SERVER_HEAP_MB must be a whole number of megabytes, at least 128 (got lots)',
    )
    expect(processesOf(dataDir)).toEqual([])
  }, 90_000)

  /** `npm start` with `setting` set to `value`: it stops before serving, in one line that says `reason`. */
  async function refusedAtStart(setting: string, value: string, reason: string): Promise<void> {
    const dataDir = freshDataDir()
    const env = operatorEnv(
      { DATA_DIR: dataDir, PORT: String(await freePort()), [setting]: value },
      { database: true },
    )
    const refused = launch('start', dataDir, env)
    const exit = await Promise.race([refused.exited, sleep(90_000).then(() => undefined)])
    expect(exit, refused.output()).toBeDefined()
    expect(exit!.code).not.toBe(0)
    expect(refused.output()).toContain(reason)
    // One line, not a stack.
    expect(refused.output()).not.toMatch(/^\s+at /m)
    expect(processesOf(dataDir)).toEqual([])
  }

  it('stops npm run seed in one line on a setting that its modules read as they load', async () => {
    // The seed, the import and `npm run payload` load the config, which read it as a stack.
    const dataDir = freshDataDir()
    const env = operatorEnv(
      { DATA_DIR: dataDir, DATABASE_PREPARED_STATEMENTS: 'maybe' },
      { database: true },
    )
    const refused = launch('seed', dataDir, env)
    const exit = await Promise.race([refused.exited, sleep(90_000).then(() => undefined)])
    expect(exit, refused.output()).toBeDefined()
    expect(exit!.code, refused.output()).toBe(2)
    expect(refused.output()).toContain('DATABASE_PREPARED_STATEMENTS must be true or false')
    expect(refused.output()).not.toMatch(/^\s+at /m)
  }, 120_000)

  it('stops the server at start on a MAX_BODY_BYTES that is not a number, saying so', async () => {
    // Read as a number it was NaN, and a body of any size was read; read as its module loaded, its
    // refusal was a stack.
    await refusedAtStart(
      'MAX_BODY_BYTES',
      '2MB',
      'MAX_BODY_BYTES must be a whole number, at least 1 (got 2MB)',
    )
  }, 120_000)

  it('stops the server at start on a LOG_LEVEL its logger would fail every request on, in one line', async () => {
    await refusedAtStart(
      'LOG_LEVEL',
      'verbose',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got verbose)',
    )
  }, 120_000)
})
