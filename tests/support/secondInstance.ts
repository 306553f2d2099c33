/**
 * Another instance of the built app on the test database, as a second machine behind a load balancer
 * would run it: for what only shows across instances or under its own settings.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { freePort, waitForHealth } from '../../scripts/serverProcess'
import { productionServerEnv, serverCommand } from '../../scripts/productionServer'

export type Instance = { base: string; stop: () => Promise<void> }

export async function startSecondInstance(env: Record<string, string> = {}): Promise<Instance> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run through npm test')
  const root = path.resolve(import.meta.dirname, '..', '..')
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const child = spawn(...serverCommand(port, '127.0.0.1'), {
    cwd: root,
    env: productionServerEnv({ ...process.env, SERVER_URL: base, ...env }),
    detached: true,
    stdio: 'ignore',
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM')
    await exited
  }
  try {
    await waitForHealth(base, 120_000)
  } catch (error) {
    await stop()
    throw error
  }
  return { base, stop }
}
