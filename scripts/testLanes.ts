import path from 'node:path'

/**
 * `npm test`'s lanes: each a data directory with a fresh cluster of its own, served by a server of
 * its own, against which one vitest process runs its share of the files. Most of a file's time is
 * spent waiting on its server or on processes it starts, so two lanes keep both cores busy.
 */
export type TestLane = { dataDir: string; url: string; socketUrl: string }

/** Where the launcher hands the lanes to `tests/run.ts`. */
export const LANES_VARIABLE = 'CAL_TEST_LANES'

/**
 * Two lanes for the whole suite; one when the command names what to run (a file, a filter), which
 * a second server would only slow down. TEST_LANES overrides both.
 */
export function laneCount(args: string[], given = process.env.TEST_LANES): number {
  if (given === undefined || given === '') return args.length ? 1 : 2
  const count = Number(given)
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`TEST_LANES must be a whole number, at least 1 (got ${given})`)
  return count
}

/** The data directory of lane `index` (from 1): the first is the run's own, the others inside it. */
export function laneDataDir(dataDir: string, index: number): string {
  return index === 1 ? dataDir : path.join(dataDir, 'test-lanes', String(index))
}
