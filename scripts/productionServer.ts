import path from 'node:path'

/**
 * How the built app is started, one way for `npm start`, the tests and the benchmarks, so that
 * what they measure is what production runs.
 */

/** Old-space ceiling of the server when neither SERVER_HEAP_MB nor NODE_OPTIONS sets one. */
export const DEFAULT_HEAP_MB = 384

/**
 * The server's environment. V8 sizes its heap from the machine, not from the work: on 24 GiB the
 * loaded server kept 450–620 MB resident, and 245–276 MB at the same throughput under this ceiling
 * (bench, issue 8), because it collects sooner. A NODE_OPTIONS that already sets one wins.
 */
export function productionServerEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const options = env.NODE_OPTIONS ?? ''
  if (options.includes('--max-old-space-size')) return { ...env, NODE_ENV: 'production' }
  const heapMb = Number(env.SERVER_HEAP_MB ?? DEFAULT_HEAP_MB)
  if (!Number.isInteger(heapMb) || heapMb < 128) throw new Error(`SERVER_HEAP_MB must be a whole number of megabytes, at least 128 (got ${env.SERVER_HEAP_MB})`)
  return { ...env, NODE_ENV: 'production', NODE_OPTIONS: `${options} --max-old-space-size=${heapMb}`.trim() }
}

const root = path.resolve(import.meta.dirname, '..')

/**
 * The production server (scripts/server.ts: Next behind the load-shedding gate), bundled into the
 * build beside Next's output. Bundled, not run through tsx: tsx's loader thread alone kept about
 * 120 MB more resident (329 MB against 208 MB idle, measured).
 */
export const SERVER_BUNDLE = path.join(root, '.next', 'calendar-server.mjs')

/** Writes SERVER_BUNDLE; part of every build (`npm run build`, `npm start`'s, the tests'). */
export async function buildServer(): Promise<void> {
  const { build } = await import('esbuild')
  await build({
    entryPoints: [path.join(root, 'scripts', 'server.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  })
}

/** The command that starts the built app: the executable and its arguments, the port, and the interface when it is not every interface. */
export function serverCommand(port: number | string, host?: string): [string, string[]] {
  return [process.execPath, [SERVER_BUNDLE, String(port), ...(host ? [host] : [])]]
}

/**
 * The tests, the benchmark and the fault run drive one server from one address, far above what a
 * client may send (docs/operations.md): they turn the per-client rate limits off, and test them on
 * instances of their own.
 */
export const WITHOUT_RATE_LIMITS = { RATE_LIMIT_READS_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '0', RATE_LIMIT_LOGINS_PER_MINUTE: '0' }
