/**
 * `npm run bench:writes`: the writes of a series through the namespace, on a fresh embedded
 * PostgreSQL and the built app as production runs it: a daily series of 730 occurrences created,
 * retitled through its first event, then moved an hour later. Prints each write's time and the
 * statements that wrote content, counted by a statement trigger on the content's tables. The
 * server's `X-Query-Count` leaves out what runs in a write's transaction, so it is not used here.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { SERVER_BUNDLE } from '../scripts/productionServer'
import { waitForHealth } from '../scripts/serverProcess'
import { startEmbeddedDatabase } from '../src/database/embedded'
import { countContentStatements } from '../scripts/contentStatements'
import { startApp, stop, runMain } from './app'
import { seriesWrites, type TimedWrite } from './series'

async function main(): Promise<void> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error('no production build: run `npm run build` first')
  const directory = path.resolve(import.meta.dirname, '.datasets', 'series-writes')
  const database = await startEmbeddedDatabase({ directory, fresh: true, unsafeFast: true })
  const { app, base } = await startApp(database)
  const db = new pg.Client({ connectionString: database.url })
  try {
    await waitForHealth(base, 180_000)
    await db.connect()
    const figures = await seriesWrites(base, (await countContentStatements(db)).count)
    const line = (name: string, { seconds, statements }: TimedWrite) =>
      `| ${name} | ${seconds.toFixed(2)} | ${statements} |`
    console.log(
      [
        '| daily series of 730 occurrences | s | statements writing content |',
        '|---|---:|---:|',
        line('create', figures.create),
        line('retitle the first event', figures.retitle),
        line('move the first event an hour later', figures.move),
      ].join('\n'),
    )
  } finally {
    await db.end()
    await stop(app)
    await database.stop()
  }
}

runMain(main)
