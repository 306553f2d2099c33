/**
 * `npm test` (inside the launcher, which has started a fresh database): builds the app as
 * production does, starts it, waits until it answers, then runs vitest against it. Unit tests and
 * API tests share one run, so the command's exit code is the suite's.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { buildServer, productionServerEnv, serverCommand, WITHOUT_RATE_LIMITS } from '../scripts/productionServer'
import { freePort, waitForHealth } from '../scripts/serverProcess'

const root = path.resolve(import.meta.dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)

function run(command: string, args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<number> } {
  const child = spawn(command, args, { stdio: 'inherit', env, cwd: root, detached: true })
  const done = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))))
  return { child, done }
}

/**
 * The tests stand where a proxy of the site's own would: the addresses they send as `X-Forwarded-For`
 * are the clients' (docs/operations.md), so that one test process can sign in from several.
 */
const TESTS_AS_PROXY = { TRUSTED_PROXY_HOPS: '1' }

/** The webhook receivers and the import sources of the tests listen on loopback, and retries come quickly. */
const LOOPBACK_FOR_TESTS = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_SECONDS: '1', WEBHOOK_MAX_FAILURES: '3', IMPORT_ALLOW_PRIVATE: 'true' }

async function main(): Promise<number> {
  const production = { ...process.env, NODE_ENV: 'production' as const }
  // SKIP_BUILD=1 is for iterating on tests against an existing build: no lint, no type check, no build.
  if (process.env.SKIP_BUILD !== '1') {
    const eslint = await run(bin('eslint'), ['.'], process.env).done
    if (eslint !== 0) return eslint
    const prettier = await run(bin('prettier'), ['--check', '--log-level', 'warn', '.'], process.env).done
    if (prettier !== 0) return prettier
    const typecheck = await run(bin('tsc'), ['--noEmit', '-p', root], process.env).done
    if (typecheck !== 0) return typecheck
    const code = await run(bin('next'), ['build'], production).done
    if (code !== 0) return code
    await buildServer()
  }
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const server = run(
    ...serverCommand(port, '127.0.0.1'),
    productionServerEnv({
      ...process.env,
      ...WITHOUT_RATE_LIMITS,
      DATABASE_URL: process.env.APP_DATABASE_URL ?? process.env.DATABASE_URL,
      SERVER_URL: baseUrl,
      QUERY_COUNT_HEADER: 'true',
      ...LOOPBACK_FOR_TESTS,
      ...TESTS_AS_PROXY,
    }),
  )
  try {
    await waitForHealth(baseUrl, 180_000)
    // The import CLI the tests run reads its sources on loopback too; the second instances they start stand behind them as the first does.
    return await run(bin('vitest'), ['run', ...process.argv.slice(2)], {
      ...process.env,
      ...TESTS_AS_PROXY,
      CAL_TEST_URL: baseUrl,
      IMPORT_ALLOW_PRIVATE: 'true',
    }).done
  } finally {
    if (server.child.pid) process.kill(-server.child.pid, 'SIGTERM')
    await server.done
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
