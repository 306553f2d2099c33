import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/database/embedded'
import { serverCommand, WITHOUT_RATE_LIMITS, SERVER_BUNDLE } from '../productionServer'
import { freePort, waitForHealth } from '../serverProcess'
import { log } from './answers'

const root = path.resolve(import.meta.dirname, '../..')

/** What the run started, for `stopAll` to stop whatever point the run reached. */
const running: { database?: EmbeddedDatabase; app?: ChildProcess; scratch?: string } = {}

/** The database and the app under test, and what the run needs to know of them. */
export type Stack = {
  directory: string
  databaseUrl: string
  databasePort: number
  base: string
  app: ChildProcess
  appPid: number | undefined
  appLogPath: string
  /** Why the app exited, once it has. */
  appExited: () => string | undefined
}

const pgLog = process.env.DEBUG_POSTGRES ? (line: string) => process.stderr.write(line) : undefined

export async function stopAll(): Promise<void> {
  const { app, database, scratch } = running
  if (app?.pid && app.exitCode === null) {
    const exited = new Promise((resolve) => app.once('exit', resolve))
    try {
      process.kill(-app.pid, 'SIGTERM')
    } catch {
      // gone
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
  }
  await Promise.race([
    database?.stop().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, 15_000)),
  ])
  if (scratch) rmSync(scratch, { recursive: true, force: true })
}

export function postmasterPid(directory: string): number {
  return Number(readFileSync(path.join(directory, 'postmaster.pid'), 'utf8').split('\n')[0])
}

/** A fresh PostgreSQL with production durability, then the built app on it, healthy. */
export async function startStack(): Promise<Stack> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error('no build in .next/: run `npm run build` first')
  const scratch = (running.scratch = mkdtempSync(path.join(os.tmpdir(), 'cal-fault-')))
  chmodSync(scratch, 0o755) // PostgreSQL runs as the `postgres` user when we are root
  const directory = path.join(scratch, 'postgres')
  running.database = await startEmbeddedDatabase({ directory, fresh: true, log: pgLog })
  const databaseUrl = running.database.url
  const databasePort = Number(new URL(databaseUrl).port)
  log(`PostgreSQL on port ${databasePort} (pid ${postmasterPid(directory)}), data in ${directory}`)

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const appLogPath = path.join(os.tmpdir(), 'cal-fault-app.log')
  const appLog = openSync(appLogPath, 'w')
  const app = (running.app = spawn(...serverCommand(port, '127.0.0.1'), {
    cwd: root,
    detached: true,
    stdio: ['ignore', appLog, appLog],
    env: {
      ...process.env,
      ...WITHOUT_RATE_LIMITS,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PAYLOAD_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: scratch,
      SERVER_URL: base,
      NEXT_TELEMETRY_DISABLED: '1',
    },
  }))
  let appExited: string | undefined
  app.once('exit', (code, signal) => (appExited = `exited with ${code ?? signal}`))
  await waitForHealth(base, 180_000)
  log(`app on ${base} (pid ${app.pid})`)
  return {
    directory,
    databaseUrl,
    databasePort,
    base,
    app,
    appPid: app.pid,
    appLogPath,
    appExited: () => appExited,
  }
}

/** Kills the postmaster with SIGKILL; returns when it was killed. */
export function killDatabase(stack: Stack): number {
  const pid = postmasterPid(stack.directory)
  process.kill(pid, 'SIGKILL')
  const killedAt = Date.now()
  log(`killed the postmaster (pid ${pid}) with SIGKILL`)
  return killedAt
}

/** PostgreSQL again on the same directory and port; returns when it is back. */
export async function restartDatabase(stack: Stack): Promise<number> {
  const { directory, databasePort: port } = stack
  // Backends notice their postmaster's death and exit; until they have, a new postmaster refuses the
  // shared memory they hold: retry for a while.
  for (let attempt = 1; ; attempt++) {
    try {
      running.database = await startEmbeddedDatabase({ directory, port, log: pgLog })
      return Date.now()
    } catch (error) {
      if (attempt >= 20) throw error
      log(
        `restart attempt ${attempt} failed (${error instanceof Error ? error.message : error}); retrying`,
      )
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }
}
