/**
 * Another instance of the built app on the test database, as a second machine behind a load balancer
 * would run it: for what only shows across instances or under its own settings. With `ownDatabase`
 * it runs on a fresh database of the same cluster instead (migrated at start, dropped when it
 * stops): another calendar site, for imports.
 */
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import pg from 'pg'
import { freePort, waitForHealth } from '../../scripts/serverProcess'
import { productionServerEnv, serverCommand } from '../../scripts/productionServer'
import { startFaultyLink, type FaultyLink } from './faultyLink'

/**
 * A running instance: its address, its own database's name and URL (`ownDatabase`), what it has
 * written to its standard error (`keepErrors`) and to its standard output, Payload's log
 * (`keepLog`), so far (`settledLog`: all it had logged when asked), and how to stop it (`afterExit`: what to do once it has exited, before its own
 * database is dropped).
 */
export type Instance = {
  base: string
  database?: string
  databaseUrl?: string
  errors: () => string
  log: () => string
  settledLog: () => Promise<string>
  stop: (afterExit?: () => Promise<void>) => Promise<void>
}

async function onCluster(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

export async function startSecondInstance(
  env: Record<string, string> = {},
  options: { ownDatabase?: boolean; keepErrors?: boolean; keepLog?: boolean } = {},
): Promise<Instance> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through npm test')
  const root = path.resolve(import.meta.dirname, '..', '..')
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  let database: string | undefined
  const databaseEnv: Record<string, string> = {}
  if (options.ownDatabase) {
    database = `cal_site_${randomUUID().replace(/-/g, '').slice(0, 12)}`
    await onCluster(`create database ${database}`)
    const url = new URL(process.env.DATABASE_URL)
    url.pathname = `/${database}`
    databaseEnv.DATABASE_URL = url.href
  }
  const child = spawn(...serverCommand(port, '127.0.0.1'), {
    cwd: root,
    env: productionServerEnv({ ...process.env, SERVER_URL: base, ...databaseEnv, ...env }),
    detached: true,
    stdio: ['ignore', options.keepLog ? 'pipe' : 'ignore', options.keepErrors ? 'pipe' : 'ignore'],
  })
  let written = ''
  let logged = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (written += chunk))
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (logged += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (afterExit?: () => Promise<void>) => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM')
    await exited
    try {
      await afterExit?.()
    } finally {
      if (database) await onCluster(`drop database if exists ${database} with (force)`)
    }
  }
  try {
    await waitForHealth(base, 180_000)
  } catch (error) {
    await stop()
    throw error
  }
  // Payload's logger writes through libuv's thread pool, so a line can reach the pipe after its
  // answer; lines arrive in order, so once a request's own line has come, every earlier one has.
  const settledLog = async () => {
    const id = randomUUID()
    await fetch(`${base}/api/events/987654321`, { headers: { 'X-Request-Id': id } })
    const deadline = Date.now() + 10_000
    while (!logged.includes(id)) {
      if (Date.now() > deadline) throw new Error(`the instance logged nothing of request ${id}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return logged
  }
  return {
    base,
    database,
    databaseUrl: databaseEnv.DATABASE_URL,
    errors: () => written,
    log: () => logged,
    settledLog,
    stop,
  }
}

/** A second instance with the link its connections named by `envOf` go through; `stop` closes both. */
export type LinkedInstance = Instance & { link: FaultyLink }

/**
 * A second instance some of whose database connections go through a link the test can break
 * (`faultyLink.ts`): `envOf` names them, given the link's URL to the test database.
 */
export async function startInstanceBehindLink(
  envOf: (linkUrl: string) => Record<string, string>,
): Promise<LinkedInstance> {
  const url = process.env.DATABASE_URL
  if (!url) throw new Error('DATABASE_URL is not set: run through npm test')
  const link = await startFaultyLink(url)
  const instance = await startSecondInstance(envOf(link.url(url)))
  return {
    ...instance,
    link,
    stop: async () => {
      await instance.stop()
      await link.close()
    },
  }
}
