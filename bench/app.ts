import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { productionServerEnv, serverCommand, WITHOUT_RATE_LIMITS } from '../scripts/productionServer'
import type { EmbeddedDatabase } from '../src/database/embedded'
import { freePort } from '../scripts/serverProcess'

/** What the benchmarks share: the built app started as production runs it, and its administrator. */

const root = path.resolve(import.meta.dirname, '..')

export function start(command: string, argv: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(command, argv, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    process.kill(-child.pid!, 'SIGTERM')
  })
}

/**
 * The built app on a port of its own, against `database`, as production runs it, with `settings` in its
 * environment. `overTcp`: over loopback TCP, as a server elsewhere is reached, not its Unix socket.
 */
export async function startApp(
  database: EmbeddedDatabase,
  { overTcp = false, settings = {} }: { overTcp?: boolean; settings?: Record<string, string> } = {},
): Promise<{ app: ChildProcess; port: number; env: NodeJS.ProcessEnv }> {
  const port = await freePort()
  const env = productionServerEnv({
    ...process.env,
    ...settings,
    ...WITHOUT_RATE_LIMITS,
    DATABASE_URL: overTcp ? database.url : database.socketUrl,
    PAYLOAD_SECRET: 'bench',
    PORT: String(port),
    QUERY_COUNT_HEADER: 'false',
  })
  return { app: start(...serverCommand(port, '127.0.0.1'), env), port, env }
}

/** The administrator of the benchmark's database (the admin's sign-in form in Chromium uses it too). */
export const BENCH_ADMIN = { email: 'bench@calendar.test', password: 'bench-password-1' }

/** The administrator's token, registered on first use. */
export async function adminToken(base: string): Promise<string> {
  const credentials = BENCH_ADMIN
  await fetch(`${base}/api/users/first-register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(credentials) })
  const login = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(credentials) })
  return ((await login.json()) as { token: string }).token
}
