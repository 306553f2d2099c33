/**
 * What an operator does on a machine: npm commands on a data directory of their own (its own
 * embedded cluster, secret and media), and `npm start` serving it. Nothing here shares the test
 * run's database: its DATABASE_URL and secret are kept from the commands.
 */
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort, waitForHealth } from '../../scripts/serverProcess'
import { WITHOUT_RATE_LIMITS } from '../../scripts/productionServer'

const root = path.resolve(import.meta.dirname, '..', '..')

/** A new, empty data directory that the `postgres` user may enter (the launcher runs PostgreSQL as it under root). */
export function emptyDataDir(name: string): string {
  const directory = mkdtempSync(path.join(tmpdir(), `cal-${name}-`))
  chmodSync(directory, 0o755)
  return directory
}

function operatorEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const {
    DATABASE_URL: _url,
    APP_DATABASE_URL: _app,
    PAYLOAD_SECRET: _secret,
    ...rest
  } = process.env
  return {
    ...rest,
    ...WITHOUT_RATE_LIMITS,
    IMPORT_ALLOW_PRIVATE: 'true',
    DATA_DIR: dataDir,
    ...env,
  }
}

export type Outcome = { code: number; stdout: string; stderr: string }

/** `npm run <script> -- <args>` on a data directory, to its end. */
export function npmRun(
  script: string,
  args: string[],
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: operatorEnv(dataDir, env),
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), stdout, stderr }))
  })
}

/** The commands `npmRun` runs by name, as `package.json` runs them, for a signal to reach them. */
const COMMANDS = {
  backup: ['scripts/launch.ts', 'backup'],
  restore: ['scripts/restore.ts'],
}

/**
 * `npm run backup|restore -- <args>` interrupted as Ctrl-C does, with SIGINT, at the first moment
 * `when` holds (asked every 5 ms); `signalled` says whether it did before the command ended.
 */
export function interruptedRun(
  script: keyof typeof COMMANDS,
  args: string[],
  dataDir: string,
  when: () => boolean,
): Promise<Outcome & { signalled: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('node', ['--import', 'tsx', ...COMMANDS[script], ...args], {
      cwd: root,
      env: operatorEnv(dataDir, {}),
    })
    let stdout = ''
    let stderr = ''
    let signalled = false
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const watch = setInterval(() => {
      if (signalled || !when()) return
      signalled = true
      child.kill('SIGINT')
    }, 5)
    child.on('exit', (code, signal) => {
      clearInterval(watch)
      resolve({ code: code ?? (signal ? 1 : 0), stdout, stderr, signalled })
    })
  })
}

export type Started = { base: string; output: () => string; stop: () => Promise<void> }

/** `npm start` on a data directory, until it answers its health check; `stop` is Ctrl-C. */
export async function npmStart(
  dataDir: string,
  env: Record<string, string> = {},
  port?: number,
): Promise<Started> {
  port ??= await freePort()
  const base = `http://127.0.0.1:${port}`
  const child = spawn('node', ['--import', 'tsx', 'scripts/launch.ts', 'start'], {
    cwd: root,
    env: operatorEnv(dataDir, { PORT: String(port), SERVER_URL: base, ...env }),
    detached: true,
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGINT')
    await exited
  }
  try {
    await Promise.race([
      waitForHealth(base, 240_000),
      exited.then(() => Promise.reject(new Error(`npm start exited: ${output}`))),
    ])
  } catch (error) {
    await stop()
    throw error
  }
  return { base, output: () => output, stop }
}

/** The TCP URL of the embedded cluster a running command holds in a data directory, with `password` or the one kept for it. */
export function clusterUrl(dataDir: string, password = clusterPassword(dataDir)): string {
  const { port } = JSON.parse(readFileSync(path.join(dataDir, 'postgres.owner.json'), 'utf8')) as {
    port: number
  }
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/calendar`
}

/** Where the embedded cluster's superuser password is kept (docs/operations.md, "Backups"). */
export function clusterPasswordFile(dataDir: string): string {
  return path.join(dataDir, 'postgres', 'calendar-password')
}

function clusterPassword(dataDir: string): string {
  return readFileSync(clusterPasswordFile(dataDir), 'utf8').trim()
}

/** A small HTTP client for one server. */
export function client(base: string) {
  return async function request(
    pathname: string,
    options: {
      method?: string
      token?: string
      apiKey?: string
      json?: unknown
      body?: BodyInit
    } = {},
  ) {
    const headers: Record<string, string> = {}
    if (options.token) headers.Authorization = `JWT ${options.token}`
    if (options.apiKey) headers.Authorization = `users API-Key ${options.apiKey}`
    let body = options.body
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(options.json)
    }
    const response = await fetch(base + pathname, {
      method: options.method ?? 'GET',
      headers,
      body,
    })
    const bytes = Buffer.from(await response.arrayBuffer())
    let parsed: any = bytes
    if ((response.headers.get('content-type') ?? '').includes('json'))
      parsed = JSON.parse(bytes.toString('utf8'))
    return { status: response.status, body: parsed }
  }
}
