import path from 'node:path'

/** Where the service keeps its state on this machine: the embedded cluster, the secret, uploads. */
export function dataDirectory(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR || '.data')
}

/** The cluster `npm start` serves from, under the data directory (dev and tests have their own). */
export const SERVING_CLUSTER = 'postgres'

/** Where backups go unless told: beside the data, not in what a backup copies. */
export function backupFileName(dataDir: string, kind: string): string {
  return path.join(
    dataDir,
    'backups',
    `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`,
  )
}
