import path from 'node:path'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import fileSeconds from './tests/support/fileSeconds.json' with { type: 'json' }

/** What a file not measured yet is taken to last: about what most API files take. */
const UNMEASURED_SECONDS = 10

const measured: Record<string, number> = fileSeconds

/**
 * Shares the files between `npm test`'s lanes (`--shard=i/n`, scripts/testLanes.ts) by how long each
 * took in a whole run (`tests/support/fileSeconds.json`), so that the lanes end together: vitest's own
 * shards split by path, which can put several of the slowest files in one lane. Longest first, each
 * to the lane with the least time so far; every lane computes the same split from the same list.
 */
class LaneSequencer extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!
    const seconds = (spec: TestSpecification) =>
      measured[path.relative(this.ctx.config.root, spec.moduleId)] ?? UNMEASURED_SECONDS
    const order = [...files].sort(
      (a, b) => seconds(b) - seconds(a) || a.moduleId.localeCompare(b.moduleId),
    )
    const totals = Array.from({ length: count }, () => 0)
    return order.filter((spec) => {
      const lane = totals.indexOf(Math.min(...totals))
      totals[lane]! += seconds(spec)
      return lane === index - 1
    })
  }
}

export default defineConfig({
  resolve: { alias: { '@payload-config': path.resolve(import.meta.dirname, 'payload.config.ts') } },
  test: {
    include: ['tests/**/*.test.ts'],
    // A lane's files share one server and database; running them one after the other keeps totals honest.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default'],
    sequence: { sequencer: LaneSequencer },
  },
})
