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

/** `next start` arguments: the port, and the interface when it is not every interface. */
export function nextStartArgs(port: number | string, host?: string): string[] {
  return ['start', '-p', String(port), ...(host ? ['-H', host] : [])]
}

/**
 * The tests, the benchmark and the fault run drive one server from one address, far above what a
 * client may send (docs/operations.md): they turn the per-client rate limits off, and test them on
 * instances of their own.
 */
export const WITHOUT_RATE_LIMITS = { RATE_LIMIT_READS_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '0', RATE_LIMIT_LOGINS_PER_MINUTE: '0' }
