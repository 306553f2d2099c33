import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { widgetBundlePath } from '../src/app/calendar/widgetBundle'
import { buildWidget } from './widgetBundle'

/**
 * How the built app is started, one way for `npm start`, the tests and the benchmarks, so that
 * what they measure is what production runs.
 */

/**
 * Old-space ceiling of the server when neither SERVER_HEAP_MB nor NODE_OPTIONS sets one. V8 lets the
 * heap grow by a factor that rises with the ceiling, and collects the old space later the further it
 * is from it: under 32 writes at once the server with 384 reached 357–382 MB resident, while the heap
 * it used stayed between 70 and 125 MB (docs/performance.md, "Memory").
 */
export const DEFAULT_HEAP_MB = 192

/**
 * glibc's malloc arenas when MALLOC_ARENA_MAX is not set. By default glibc gives each thread that
 * allocates (V8's and libuv's workers) an arena of its own, up to eight per core; with two the server
 * kept 15–25 MB less resident under load, and kept answers were served faster (docs/performance.md,
 * "Memory").
 */
export const DEFAULT_MALLOC_ARENAS = '2'

/**
 * glibc's mmap threshold (bytes) when MALLOC_MMAP_THRESHOLD_ is not set. Left to itself glibc raises
 * the threshold past every large block freed, so that the next answers of hundreds of KB (feeds,
 * exports, large pages) are carved from the heap and stay resident after they are freed: after 10 s
 * of the iCalendar feed the server's heap segment held 64 MB, against 14 MB with the threshold fixed
 * (docs/performance.md, "Memory").
 */
export const DEFAULT_MMAP_THRESHOLD = '131072'

/**
 * V8's semi-space (half the young generation, MB) when NODE_OPTIONS sets none. On this machine's
 * 24 GiB V8 chose 16; at 8 the server keeps about 20 MB less resident under made answers, which the
 * 256 MB target needs, for 11–19% more CPU a made list (docs/performance.md, "Memory" and "What a made
 * list costs").
 */
export const DEFAULT_SEMI_SPACE_MB = 8

/**
 * V8's heap growing factor, in percent over the live old space, when SERVER_HEAP_GROWING_PERCENT is
 * not set (0 leaves V8's own, which grows by 10% to 300% as it sees fit). At 20 the old space is
 * collected again once it holds a fifth more than the last collection left: under the made lists the
 * server kept 10–17 MB less resident, CPU an answer within the runs' spread (docs/performance.md,
 * "Memory").
 * A V8 flag NODE_OPTIONS may not carry: the server sets it as it starts (scripts/server.ts).
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 20

/**
 * The server's environment. V8 sizes its heap from the machine, not from the work: on 24 GiB the
 * loaded server kept 450–620 MB resident, and 245–276 MB at the same throughput under this ceiling
 * (the benchmark), because it collects sooner. A NODE_OPTIONS that already sets one wins.
 */
export function productionServerEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const given = env.NODE_OPTIONS ?? ''
  const options = given.includes('--max-semi-space-size')
    ? given
    : `${given} --max-semi-space-size=${DEFAULT_SEMI_SPACE_MB}`.trim()
  const growing = String(env.SERVER_HEAP_GROWING_PERCENT ?? DEFAULT_HEAP_GROWING_PERCENT)
  if (!/^\d{1,3}$/.test(growing) || Number(growing) > 300)
    throw new Error(
      `SERVER_HEAP_GROWING_PERCENT must be a whole number from 0 to 300 (got ${env.SERVER_HEAP_GROWING_PERCENT})`,
    )
  const base = {
    ...env,
    NODE_ENV: 'production' as const,
    SERVER_HEAP_GROWING_PERCENT: growing,
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? DEFAULT_MALLOC_ARENAS,
    MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? DEFAULT_MMAP_THRESHOLD,
  }
  if (options.includes('--max-old-space-size')) return { ...base, NODE_OPTIONS: options }
  const heapMb = Number(env.SERVER_HEAP_MB ?? DEFAULT_HEAP_MB)
  if (!Number.isInteger(heapMb) || heapMb < 128)
    throw new Error(
      `SERVER_HEAP_MB must be a whole number of megabytes, at least 128 (got ${env.SERVER_HEAP_MB})`,
    )
  return { ...base, NODE_OPTIONS: `${options} --max-old-space-size=${heapMb}`.trim() }
}

const root = path.resolve(import.meta.dirname, '..')

/**
 * The production server (scripts/server.ts: Next behind the load-shedding gate), bundled into the
 * build beside Next's output. Bundled, not run through tsx: tsx's loader thread alone kept about
 * 120 MB more resident (329 MB against 208 MB idle, measured).
 */
export const SERVER_BUNDLE = path.join(root, '.next', 'calendar-server.mjs')

/**
 * The scripts that load the config outside the server (`npm run import`, `npm run seed`), bundled as
 * the server is. Run through tsx, each run spent about 3 s and 4 s of CPU transforming the config's
 * sources before it did anything (docs/testing.md).
 */
export const SCRIPT_BUNDLES = {
  import: { entry: 'scripts/import.ts', outfile: path.join(root, '.next', 'calendar-import.mjs') },
  seed: { entry: 'src/seed/run.ts', outfile: path.join(root, '.next', 'calendar-seed.mjs') },
}
export type BundledScript = keyof typeof SCRIPT_BUNDLES

/**
 * Bundles one of this repository's scripts with its sources, its packages left to node_modules (so
 * the bundle must sit inside the repository). Written beside `outfile` and renamed into place, so
 * that a process starting it meanwhile reads the old bundle or the new one, never half of one.
 */
async function bundle(entry: string, outfile: string): Promise<void> {
  const { build } = await import('esbuild')
  const [output] = (
    await build({
      entryPoints: [path.join(root, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
      write: false,
    })
  ).outputFiles
  const written = `${outfile}.${process.pid}`
  await mkdir(path.dirname(outfile), { recursive: true })
  await writeFile(written, output!.contents)
  await rename(written, outfile)
}

/** Writes a script's bundle from the sources as they are now: the launcher calls it before each run. */
export function buildScript(script: BundledScript): Promise<void> {
  const { entry, outfile } = SCRIPT_BUNDLES[script]
  return bundle(entry, outfile)
}

/**
 * Writes SERVER_BUNDLE, the scripts' bundles and the widget's script the server serves
 * (`/calendar/widget.js`); part of every build (`npm run build`, `npm start`'s, the tests').
 */
export async function buildServer(): Promise<void> {
  await buildWidget(widgetBundlePath(root))
  await Promise.all([
    bundle('scripts/server.ts', SERVER_BUNDLE),
    buildScript('import'),
    buildScript('seed'),
  ])
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
export const WITHOUT_RATE_LIMITS = {
  RATE_LIMIT_READS_PER_MINUTE: '0',
  RATE_LIMIT_WRITES_PER_MINUTE: '0',
  RATE_LIMIT_LOGINS_PER_MINUTE: '0',
}
