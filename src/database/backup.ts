/**
 * Online backups of the embedded cluster: PostgreSQL's own base backup (`pg_backup_start` and
 * `pg_backup_stop` in one session), the cluster's files, the `backup_label` that `pg_backup_stop`
 * returns and the WAL written meanwhile, with the secret, media and imports beside it, in one
 * tar.gz. Those are copied before `pg_backup_stop`, the moment the restored database returns to,
 * and what is new or changed since is copied again after it (`copyEntries`). The server keeps serving and writing
 * throughout: PostgreSQL replays the copied WAL at the restored cluster's first start and reaches
 * the state of the moment the backup ended.
 *
 * Chosen over a logical copy (each table's COPY in one snapshot): the physical copy carries
 * everything the cluster holds whatever created it (the plugin's tables, triggers and functions made
 * at start, sequences, enum types), needs no migrations run at restore, and its correctness is
 * PostgreSQL's recovery, not code of ours. Its limit: it restores only into the same PostgreSQL major
 * version, which the embedded package fixes.
 */
import { rmSync } from 'node:fs'
import {
  chmod,
  copyFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { create as createTar } from 'tar'
import { migrationState } from './migrationState'

/** What a backup holds besides the cluster, under the data directory (src/database/dataDirectory.ts). */
export const DATA_ENTRIES = ['secret', 'media', 'imports']
/** The cluster's folder in an archive; the archive's description. */
export const ARCHIVE_DATABASE = 'database'
export const ARCHIVE_MANIFEST = 'backup.json'

export type Manifest = {
  format: 1
  createdAt: string
  postgresMajor: string
  migrations: string[]
  startLsn: string
  stopLsn: string
}

/**
 * Cluster folders whose contents a base backup leaves out (PostgreSQL's documentation, "Making a Base
 * Backup Using the Low Level API"): they are made again at start, or, for `pg_wal`, filled with the
 * segments the backup needs. The folders themselves must exist.
 */
const EMPTIED = [
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]
/** Files of the running server, and labels a crashed earlier backup could have left. */
const SKIPPED = [
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'backup_label.old',
  'tablespace_map',
  'tablespace_map.old',
]

export type BackupOptions = {
  /** The running cluster (superuser URL) and its folder. */
  url: string
  clusterDirectory: string
  dataDirectory: string
  out: string
}

/** The partial archives and staging folders of the backups this process is writing. */
const unfinished = new Set<string>()

/**
 * Removes what the backups under way have written so far: a signal stops the process before their
 * own clean-up runs (the launcher calls this before it exits).
 */
export function removeUnfinishedBackups(): void {
  for (const entry of unfinished) rmSync(entry, { recursive: true, force: true })
  unfinished.clear()
}

/**
 * Writes the archive to a temporary name beside `out` and renames it at the end: a failure at any
 * step, or a signal (`removeUnfinishedBackups`), leaves no file at `out` and nothing else behind.
 */
export async function writeBackup(
  options: BackupOptions,
): Promise<{ file: string; bytes: number }> {
  const out = path.resolve(options.out)
  // The archive holds the signing secret and the whole database: for its owner alone, whatever the
  // umask (a folder made here, the staging and the file itself).
  await mkdir(path.dirname(out), { recursive: true, mode: 0o700 })
  const partial = `${out}.partial-${process.pid}`
  const staging = `${partial}.d`
  unfinished.add(partial).add(staging)
  try {
    await mkdir(staging, { recursive: true, mode: 0o700 })
    await writeFile(partial, '', { mode: 0o600 })
    const copied: CopiedFiles = new Map()
    const manifest = await copyCluster(options, path.join(staging, ARCHIVE_DATABASE), () =>
      copyEntries(options.dataDirectory, staging, copied),
    )
    await copyEntries(options.dataDirectory, staging, copied)
    await writeFile(path.join(staging, ARCHIVE_MANIFEST), JSON.stringify(manifest, null, 2) + '\n')
    const entries = (await readdir(staging)).sort()
    await createTar({ gzip: true, file: partial, cwd: staging, portable: true }, entries)
    await chmod(partial, 0o600)
    await rename(partial, out)
    return { file: out, bytes: (await stat(out)).size }
  } finally {
    await rm(staging, { recursive: true, force: true })
    await rm(partial, { force: true })
    unfinished.delete(partial)
    unfinished.delete(staging)
  }
}

/**
 * The files the entries' copy has taken, each with its version when taken: the inode, size and
 * times, so that a file written in place (even keeping its size, or given back its former modification
 * time) or replaced by another (a rename) is taken again.
 */
type CopiedFiles = Map<string, string>

/**
 * The restored database is the cluster as it was at `pg_backup_stop`, and a file its rows name may be
 * deleted or rewritten at any time after: copied only after the stop, a media item deleted meanwhile
 * was in the restored database without its file. So the entries are copied once before the stop,
 * then again after it, taking only the files made or changed in between (`copied`), which rows
 * committed by the stop may name or describe (an upload writes its file before its row). A file
 * deleted after the first copy stays in the archive, whose database may still name it; one made after
 * the stop is there too, named by nothing.
 */
async function copyEntries(
  dataDirectory: string,
  staging: string,
  copied: CopiedFiles,
): Promise<void> {
  for (const entry of DATA_ENTRIES) {
    const source = path.join(dataDirectory, entry)
    const target = path.join(staging, entry)
    const found = await stat(source).catch(() => undefined)
    if (found?.isFile()) await copyIfChanged(source, target, copied)
    else if (found?.isDirectory()) await copyTree(source, target, { copied })
  }
}

async function copyCluster(
  options: BackupOptions,
  target: string,
  beforeStop: () => Promise<void>,
): Promise<Manifest> {
  const client = new pg.Client({ connectionString: options.url })
  await client.connect()
  try {
    const one = async <T>(text: string, values: unknown[] = []) =>
      (await client.query(text, values)).rows[0] as T
    // A temporary slot keeps the WAL from the backup's start until this session ends: a checkpoint
    // during a long copy must not recycle the segments the restored cluster will replay.
    await client.query(`select pg_create_physical_replication_slot($1, true, true)`, [
      `calendar_backup_${process.pid}`,
    ])
    const { lsn: startLsn } = await one<{ lsn: string }>(
      `select pg_backup_start($1, true)::text as lsn`,
      [`calendar backup ${new Date().toISOString()}`],
    )
    await copyTree(options.clusterDirectory, target, { cluster: true })
    await beforeStop()
    const stop = await one<{ lsn: string; labelfile: string; spcmapfile: string }>(
      `select lsn::text, labelfile, spcmapfile from pg_backup_stop(false)`,
    )
    await writeFile(path.join(target, 'backup_label'), stop.labelfile)
    if (stop.spcmapfile) await writeFile(path.join(target, 'tablespace_map'), stop.spcmapfile)
    await copyWal(client, options.clusterDirectory, target, startLsn, stop.lsn)
    const { applied: migrations } = await migrationState(client, [])
    const postgresMajor = (
      await readFile(path.join(options.clusterDirectory, 'PG_VERSION'), 'utf8')
    ).trim()
    return {
      format: 1,
      createdAt: new Date().toISOString(),
      postgresMajor,
      migrations,
      startLsn,
      stopLsn: stop.lsn,
    }
  } finally {
    await client.end()
  }
}

/**
 * The WAL segments from the one holding the start LSN to the one holding the stop LSN, all of which
 * must be there: `pg_backup_stop` has switched to a new segment, so the last one is complete.
 */
async function copyWal(
  client: pg.Client,
  cluster: string,
  target: string,
  startLsn: string,
  stopLsn: string,
): Promise<void> {
  const names = await client.query(
    `select pg_walfile_name($1::pg_lsn) as first, pg_walfile_name($2::pg_lsn) as last, current_setting('wal_segment_size') as size`,
    [startLsn, stopLsn],
  )
  const { first, last, size } = names.rows[0] as { first: string; last: string; size: string }
  const perLog = 0x100000000 / bytesOf(size)
  const index = (name: string) =>
    parseInt(name.slice(8, 16), 16) * perLog + parseInt(name.slice(16, 24), 16)
  const wanted = (await readdir(path.join(cluster, 'pg_wal'))).filter(
    (name) =>
      /^[0-9A-F]{24}$/.test(name) &&
      name.slice(0, 8) === first.slice(0, 8) &&
      name >= first &&
      name <= last,
  )
  if (wanted.length !== index(last) - index(first) + 1)
    throw new Error(`WAL segments ${first} to ${last} are not all in ${cluster}/pg_wal`)
  for (const name of wanted)
    await copyFile(path.join(cluster, 'pg_wal', name), path.join(target, 'pg_wal', name))
  for (const name of (await readdir(path.join(cluster, 'pg_wal'))).filter((name) =>
    name.endsWith('.history'),
  )) {
    await copyFile(path.join(cluster, 'pg_wal', name), path.join(target, 'pg_wal', name))
  }
}

/** `wal_segment_size` as PostgreSQL shows it ("16MB"). */
function bytesOf(setting: string): number {
  const match = /^(\d+)\s*(kB|MB|GB)?$/.exec(setting.trim())
  if (!match) throw new Error(`unexpected wal_segment_size: ${setting}`)
  return Number(match[1]) * { kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[match[2] ?? 'kB']!
}

/**
 * Copies a folder as it is now. Files the server removes meanwhile are skipped (the WAL replay
 * recreates or drops them); a file that grows or shrinks is copied as it was: the replay repairs
 * it, which is what a base backup allows. With `copied`, a file it holds at its present version is
 * left as copied before.
 */
async function copyTree(
  source: string,
  target: string,
  { cluster = false, copied }: { cluster?: boolean; copied?: CopiedFiles },
  depth = 0,
): Promise<void> {
  const entries = await readdir(source, { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    },
  )
  if (!entries) return
  await mkdir(target, { recursive: true, mode: 0o700 })
  for (const entry of entries) {
    const from = path.join(source, entry.name)
    const to = path.join(target, entry.name)
    if (cluster && depth === 0 && SKIPPED.includes(entry.name)) continue
    if (cluster && entry.name.startsWith('pgsql_tmp')) continue
    if (entry.isDirectory()) {
      if (cluster && depth === 0 && EMPTIED.includes(entry.name)) {
        await mkdir(to, { mode: 0o700 })
        if (entry.name === 'pg_wal')
          for (const folder of ['archive_status', 'summaries'])
            await mkdir(path.join(to, folder), { mode: 0o700 })
        continue
      }
      await copyTree(from, to, { cluster, copied }, depth + 1)
    } else if (entry.isFile()) {
      await copyIfChanged(from, to, copied)
    }
  }
}

/**
 * Copies `from` unless `copied` holds it at its present version, and notes that version first: a
 * write during the copy leaves a later one, so the next pass takes the file again. A file removed
 * meanwhile is skipped.
 */
async function copyIfChanged(from: string, to: string, copied?: CopiedFiles): Promise<void> {
  try {
    if (copied) {
      const { ino, size, mtimeMs, ctimeMs } = await stat(from)
      const version = `${ino} ${size} ${mtimeMs} ${ctimeMs}`
      if (copied.get(from) === version) return
      copied.set(from, version)
    }
    await copyFile(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}
