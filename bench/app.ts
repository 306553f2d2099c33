import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  productionServerEnv,
  serverCommand,
  WITHOUT_RATE_LIMITS,
} from '../scripts/productionServer'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/database/embedded'
import { freePort } from '../scripts/serverProcess'

/** What the benchmarks share: the built app started as production runs it, and its administrator. */

const root = path.resolve(import.meta.dirname, '..')

export function start(command: string, argv: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(command, argv, {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  })
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    process.kill(-child.pid!, 'SIGTERM')
  })
}

/**
 * The CPU time (ms, user and system) these processes have used so far, from /proc: on a machine shared
 * with other work the time a request takes follows the machine, what it costs does not (a profiler's
 * samples count a process waiting for a core as busy).
 */
export function cpuMs(pids: number[]): number {
  let ticks = 0
  for (const pid of pids) {
    try {
      // Past the command's name: utime and stime are the 14th and 15th fields, in clock ticks (100 a second).
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // gone
    }
  }
  return ticks * 10
}

/**
 * The built app on a port of its own, against `database`, as production runs it, with `settings` in its
 * environment. `overTcp`: over loopback TCP, as a server elsewhere is reached, not its Unix socket;
 * `ownUrl`: its own address as its SERVER_URL, for what writes absolute links (public pages, the widget);
 * `nodeFlags`: Node's own options for the server's process (a CPU profile).
 */
export async function startApp(
  database: Pick<EmbeddedDatabase, 'url' | 'socketUrl'>,
  {
    overTcp = false,
    ownUrl = false,
    nodeFlags = [],
    settings = {},
  }: {
    overTcp?: boolean
    ownUrl?: boolean
    nodeFlags?: string[]
    settings?: Record<string, string>
  } = {},
): Promise<{ app: ChildProcess; port: number; base: string; env: NodeJS.ProcessEnv }> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const env = productionServerEnv({
    ...process.env,
    ...settings,
    ...WITHOUT_RATE_LIMITS,
    ...(ownUrl ? { SERVER_URL: base } : {}),
    DATABASE_URL: overTcp ? database.url : database.socketUrl,
    PAYLOAD_SECRET: 'bench',
    PORT: String(port),
    QUERY_COUNT_HEADER: 'false',
  })
  const [command, argv] = serverCommand(port, '127.0.0.1')
  return { app: start(command, [...nodeFlags, ...argv], env), port, base, env }
}

/** A fresh embedded cluster in a temporary folder of its own; `remove` stops it and deletes the folder. */
export async function temporaryDatabase(
  prefix: string,
): Promise<{ database: EmbeddedDatabase; remove: () => Promise<void> }> {
  const work = await mkdtemp(path.join(tmpdir(), prefix))
  // As root the embedded server runs as `postgres`, which must enter the folder.
  await chmod(work, 0o755)
  const database = await startEmbeddedDatabase({
    directory: path.join(work, 'postgres'),
    fresh: true,
  })
  const remove = async () => {
    await database.stop()
    await rm(work, { recursive: true, force: true })
  }
  return { database, remove }
}

/** The administrator of the benchmark's database (the admin's sign-in form in Chromium uses it too). */
export const BENCH_ADMIN = { email: 'bench@calendar.test', password: 'bench-password-1' }

/** The administrator's token, registered on first use. */
export async function adminToken(base: string): Promise<string> {
  const credentials = BENCH_ADMIN
  await fetch(`${base}/api/users/first-register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  const login = await fetch(`${base}/api/users/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  return ((await login.json()) as { token: string }).token
}

/** A signed-in editor of the benchmark's database: the `Authorization` header of their requests. */
export async function editorAuthorization(base: string): Promise<string> {
  const admin = {
    'Content-Type': 'application/json',
    Authorization: `JWT ${await adminToken(base)}`,
  }
  const credentials = { email: 'bench-editor@calendar.test', password: 'bench-password-2' }
  await fetch(`${base}/api/users`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ ...credentials, role: 'editor' }),
  })
  const login = await fetch(`${base}/api/users/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  const { token } = (await login.json()) as { token?: string }
  if (!token) throw new Error('the benchmark editor cannot sign in')
  return `JWT ${token}`
}

/** Runs a bench's `main`, then exits with its outcome: pools and sockets left open do not hold the process. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
