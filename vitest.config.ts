import path from 'node:path'
import { defineConfig } from 'vitest/config'
import { LaneSequencer } from './tests/support/laneSequencer'

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
