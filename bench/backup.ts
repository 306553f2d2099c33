/**
 * `node --import tsx bench/backup.ts [--events N]`: how long `npm run backup` and `npm run restore`
 * take at N events (10,000 by default) and how large the archive is. The data set is the benchmark's
 * (bench/dataset.ts) in a fresh embedded cluster, with the built server running on it during the
 * backup, as in production; the restore goes into a second data directory and includes its first
 * start (the WAL replay). Not part of the tests.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { writeBackup } from '../src/database/backup'
import { SERVING_CLUSTER } from '../src/database/dataDirectory'
import { startEmbeddedDatabase } from '../src/database/embedded'
import { migrationNames } from '../src/database/migrationState'
import { restoreBackup } from '../src/database/restore'
import { waitForHealth } from '../scripts/serverProcess'
import { startApp, stop } from './app'
import { generateDataset } from './dataset'

const at = process.argv.indexOf('--events')
const events = at >= 0 ? Number(process.argv[at + 1]) : 10_000
if (!Number.isInteger(events) || events < 1) throw new Error('usage: bench/backup.ts [--events N]')

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

const work = await mkdtemp(path.join(tmpdir(), 'bench-backup-'))
// As root the embedded server runs as `postgres`, which must enter the folder.
await chmod(work, 0o755)
const original = path.join(work, 'original')
const restored = path.join(work, 'restored')
const archive = path.join(work, 'calendar.tar.gz')
const cluster = path.join(original, SERVING_CLUSTER)
try {
  const database = await startEmbeddedDatabase({ directory: cluster, fresh: true })
  const { app, base } = await startApp(database)
  try {
    await waitForHealth(base, 180_000)
    await generateDataset(database.url, events)
    const started = Date.now()
    const { bytes } = await writeBackup({
      url: database.url,
      clusterDirectory: cluster,
      dataDirectory: original,
      out: archive,
    })
    console.log(`${events} events: backup ${seconds(started)}, ${megabytes(bytes)}`)
  } finally {
    await stop(app)
    await database.stop()
  }
  const started = Date.now()
  await restoreBackup({
    file: archive,
    dataDirectory: restored,
    clusterDirectory: path.join(restored, SERVING_CLUSTER),
    knownMigrations: migrationNames(path.resolve(import.meta.dirname, '..', 'src', 'migrations')),
  })
  console.log(`${events} events: restore ${seconds(started)} (its first start included)`)
} finally {
  await rm(work, { recursive: true, force: true })
}
