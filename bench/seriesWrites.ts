/**
 * `npm run bench:writes`: the writes of a series through the namespace, on a fresh embedded
 * PostgreSQL and the built app as production runs it: a daily series of 730 occurrences created,
 * retitled through its first event, then moved an hour later. Prints each write's time and the
 * queries the server counted.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { SERVER_BUNDLE } from '../scripts/productionServer'
import { waitForHealth } from '../scripts/serverProcess'
import { startEmbeddedDatabase } from '../src/database/embedded'
import { startApp, stop } from './app'
import { seriesWrites, type TimedWrite } from './series'

async function main(): Promise<void> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error('no production build: run `npm run build` first')
  const directory = path.resolve(import.meta.dirname, '.datasets', 'series-writes')
  const database = await startEmbeddedDatabase({ directory, fresh: true, unsafeFast: true })
  const { app, port } = await startApp(database, { countQueries: true })
  try {
    const base = `http://127.0.0.1:${port}`
    await waitForHealth(base, 180_000)
    const figures = await seriesWrites(base)
    const line = (name: string, { seconds, queries }: TimedWrite) => `| ${name} | ${seconds.toFixed(2)} | ${queries} |`
    console.log(
      [
        '| daily series of 730 occurrences | s | queries |',
        '|---|---:|---:|',
        line('create', figures.create),
        line('retitle the first event', figures.retitle),
        line('move the first event an hour later', figures.move),
      ].join('\n'),
    )
  } finally {
    await stop(app)
    await database.stop()
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
