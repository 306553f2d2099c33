/**
 * Restores an archive of `writeBackup` into a data directory: the cluster with its `backup_label`
 * and WAL (PostgreSQL replays them at the first start, which the restore does itself, so a broken
 * archive fails here and not at the next `npm start`), the secret, media and imports.
 */
import { execFileSync } from 'node:child_process'
import { createReadStream, existsSync, rmSync } from 'node:fs'
import { chmod, lchown, lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import path from 'node:path'
import pg from 'pg'
import { extract } from 'tar'
import { ARCHIVE_DATABASE, ARCHIVE_MANIFEST, DATA_ENTRIES, type Manifest } from './backup'
import { embeddedMajor, postmasterPid, runningDatabase, startEmbeddedDatabase } from './embedded'

export type RestoreOptions = {
  file: string
  dataDirectory: string
  /** The cluster's folder under the data directory. */
  clusterDirectory: string
  /** Replace what the data directory holds of a backup's entries. */
  force?: boolean
  /** This release's migrations: an archive a newer release made holds others. */
  knownMigrations: string[]
}

/** What of a data directory a restore replaces: the cluster and the entries a backup holds. */
function replaced(options: RestoreOptions): string[] {
  return [
    options.clusterDirectory,
    ...DATA_ENTRIES.map((entry) => path.join(options.dataDirectory, entry)),
  ]
}

/** The restore under way in this process, for a signal's handler (`interruptRestore`). */
let underWay: { staging: string; replacing: boolean } | undefined

/**
 * What a signal does to the restore under way. While the archive is unpacked nothing has been
 * replaced: its staging is removed and the process may exit (true). Once it has begun to replace,
 * it must finish, since it puts back what it replaced if it fails: stopped there, it left the data
 * directory's contents moved aside and the data directory without a database (false).
 */
export function interruptRestore(): boolean {
  if (underWay?.replacing) return false
  if (underWay) rmSync(underWay.staging, { recursive: true, force: true })
  return true
}

export async function restoreBackup(options: RestoreOptions): Promise<Manifest> {
  const file = path.resolve(options.file)
  await refuseUnsafeRestore(file, options)
  await mkdir(options.dataDirectory, { recursive: true })
  const staging = path.join(options.dataDirectory, `.restore-${process.pid}`)
  const aside = path.join(options.dataDirectory, `.before-restore-${process.pid}`)
  const state = { staging, replacing: false }
  underWay = state
  try {
    return await restoreThrough(file, options, state, aside)
  } finally {
    underWay = undefined
  }
}

async function restoreThrough(
  file: string,
  options: RestoreOptions,
  state: NonNullable<typeof underWay>,
  aside: string,
): Promise<Manifest> {
  const { staging } = state
  let manifest: Manifest
  let failure: unknown
  const swap: Swap = { aside, moved: [], placed: [] }
  try {
    manifest = await unpacked(file, staging, options.knownMigrations)
    state.replacing = true
    await swapIn(options, staging, swap)
  } catch (error) {
    failure = error
    await putBack(swap)
    throw error
  } finally {
    // An archive the extraction refuses (cut short, a link out of the folder) fails it while its
    // entries are still being written: the staging is removed once they are, and a failure to
    // remove it never hides why the restore failed (it said `ENOTEMPTY` instead, and left it).
    await rm(staging, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(
      (error: unknown) => {
        if (!failure) throw error
      },
    )
  }
  try {
    await replayed(file, options, swap)
  } finally {
    // Put back on a failed start; once the restored database has started, what it replaced goes.
    await rm(aside, { recursive: true, force: true })
  }
  return manifest
}

/** What a restore moved aside and what it put in their places, so that a failure undoes exactly that. */
type Swap = { aside: string; moved: string[]; placed: string[] }

/** The reasons not to begin: no file, a data directory in use or not empty (without `force`), an archive holding links. */
async function refuseUnsafeRestore(file: string, options: RestoreOptions): Promise<void> {
  if (!existsSync(file)) throw new Error(`${file} does not exist`)
  const present = replaced(options).filter((entry) => existsSync(entry))
  if (present.length && !options.force) {
    throw new Error(
      `${options.dataDirectory} is not empty (${present.map((entry) => path.basename(entry)).join(', ')}): restore into an empty DATA_DIR, or add --force (npm run restore -- --force FILE) to replace them`,
    )
  }
  const running = await runningDatabase(options.clusterDirectory)
  if (running)
    throw new Error(
      `the database in ${options.clusterDirectory} is in use by ${running.startedBy} (pid ${running.pid}): stop it first`,
    )
  // A server whose launcher was killed keeps its database running: replacing the cluster under it
  // left a server answering 500 while its health check still passed.
  const orphan = await postmasterPid(options.clusterDirectory)
  if (orphan)
    throw new Error(
      `a PostgreSQL server (pid ${orphan}) still runs on ${options.clusterDirectory}, whose launcher is gone: stop it and the app server it serves first`,
    )
}

/** The archive unpacked into `staging`, and its manifest, once it is a backup this release can restore. */
async function unpacked(file: string, staging: string, known: string[]): Promise<Manifest> {
  await rm(staging, { recursive: true, force: true })
  await mkdir(staging, { mode: 0o700 })
  // Streamed, so that what is inflated waits for the disk rather than for memory; only files and
  // folders are written (`filesAndFolders`).
  const entries = filesAndFolders()
  await pipeline(
    createReadStream(file),
    // The restoring user's files, whoever owned them in the archive, with no set-user-id, set-group-id
    // or sticky bit, nor a write bit for others: run as root, node-tar kept the archive's owners and
    // modes, and a crafted archive's set-user-id program in media/ ran as root.
    extract({
      cwd: staging,
      strict: true,
      filter: entries.take,
      preserveOwner: false,
      umask: 0o7022,
    }),
  )
  if (entries.refused.length)
    throw new Error(
      `${file} is not a backup of this app: it holds entries other than files and folders, ${entries.refused.join(', ')}`,
    )
  // A live server's lock and options: never taken, however the archive spells their paths.
  for (const name of ['postmaster.pid', 'postmaster.opts'])
    await rm(path.join(staging, ARCHIVE_DATABASE, name), { force: true })
  const manifest = JSON.parse(
    await readFile(path.join(staging, ARCHIVE_MANIFEST), 'utf8').catch(() => 'null'),
  ) as Manifest | null
  if (manifest?.format !== 1 || !existsSync(path.join(staging, ARCHIVE_DATABASE, 'backup_label')))
    throw new Error(`${file} is not a backup of this app`)
  const major = embeddedMajor()
  if (String(manifest.postgresMajor) !== major)
    throw new Error(
      `${file} holds a PostgreSQL ${manifest.postgresMajor} cluster; this release runs PostgreSQL ${major}`,
    )
  // Restored, it was refused by the next `npm start` (`newerReleaseMessage`), what it replaced gone.
  const unknown = manifest.migrations.filter((name) => !known.includes(name))
  if (unknown.length)
    throw new Error(
      `${file} was made by a newer release (migrations this release does not know: ${unknown.join(', ')}), so nothing was replaced: restore it with that release`,
    )
  return manifest
}

/**
 * The unpacked entries in the data directory's places. What they replace is kept `aside` until the
 * restored database has started: a damaged archive (its WAL cut short) fails that start, and the
 * data directory is then put back as it was.
 */
async function swapIn(options: RestoreOptions, staging: string, swap: Swap): Promise<void> {
  await rm(swap.aside, { recursive: true, force: true })
  await mkdir(swap.aside, { mode: 0o700 })
  for (const entry of replaced(options)) {
    if (!existsSync(entry)) continue
    await rename(entry, path.join(swap.aside, path.basename(entry)))
    swap.moved.push(entry)
  }
  const place = async (from: string, to: string) => {
    await rename(from, to)
    swap.placed.push(to)
  }
  // Given to `postgres` while still in the staging folder, which only we may enter: handed over in
  // the data directory, which `postgres` may walk, a link it put in the tree meanwhile had root chown
  // whatever the link named.
  const cluster = path.join(staging, ARCHIVE_DATABASE)
  await chmod(cluster, 0o700)
  if (process.getuid?.() === 0) await chownTree(cluster, postgresUser())
  await place(cluster, options.clusterDirectory)
  for (const entry of DATA_ENTRIES) {
    if (existsSync(path.join(staging, entry)))
      await place(path.join(staging, entry), path.join(options.dataDirectory, entry))
  }
}

/**
 * The first start replays the WAL up to the end of the backup; a clean stop leaves a cluster that
 * starts like any other. A start that fails puts back what was there, and says what PostgreSQL said.
 */
async function replayed(file: string, options: RestoreOptions, swap: Swap): Promise<void> {
  const log: string[] = []
  const database = await startEmbeddedDatabase({
    directory: options.clusterDirectory,
    startedBy: 'npm run restore',
    log: (line) => log.push(String(line).trim()),
  }).catch(async (error: unknown) => {
    await putBack(swap)
    const said = log.filter((line) => /FATAL|PANIC|ERROR/.test(line)).slice(-3)
    const reason = said.length
      ? said.join(' | ')
      : error instanceof Error
        ? error.message
        : String(error)
    throw new Error(
      `${file} could not be started as a database, so nothing was replaced: ${reason}`,
    )
  })
  try {
    await movePastLostRevisions(database.url).catch((error: unknown) => {
      throw new Error(
        `${options.dataDirectory} holds the restored database, but its content revision could not be moved past the lost one's (${error instanceof Error ? error.message : String(error)}): restore again with --force (npm run restore -- --force FILE)`,
      )
    })
  } finally {
    await database.stop()
  }
}

/**
 * An extraction's filter that writes files and folders only, and the first entries it left out: a
 * link (`u2 -> u1/..`, which node-tar's checks take for a path inside the folder) led the restore, as
 * root, to hand a file outside DATA_DIR to PostgreSQL's user, which then wrote it. A link never made
 * leads nowhere; the restore then fails with those entries named.
 */
function filesAndFolders(): { take: (path: string, entry: unknown) => boolean; refused: string[] } {
  const refused: string[] = []
  return {
    refused,
    take: (entryPath, entry) => {
      const type = (entry as { type?: string }).type
      if (type === 'File' || type === 'Directory') return true
      if (refused.length < 3) refused.push(`${entryPath} (${type})`)
      return false
    },
  }
}

/** Undoes a restore that failed once it had begun to replace: what it placed goes, what it moved aside comes back. */
async function putBack(swap: Swap): Promise<void> {
  for (const entry of swap.placed.splice(0)) await rm(entry, { recursive: true, force: true })
  for (const entry of swap.moved.splice(0))
    await rename(path.join(swap.aside, path.basename(entry)), entry)
  await rm(swap.aside, { recursive: true, force: true })
}

/**
 * The restored content revision is the backup's, below what the database reached after it: counted
 * on from there, it would give again ETags that clients hold for other content (a 304 for a page
 * that changed). Nothing restored knows how far the lost database went, so the counter moves to the
 * time in milliseconds, which a counter moved by one per committed write never reaches (it would
 * take a thousand writes a second since 1970, or since the last restore, which moved it there too).
 * A backup older than the counter has none to move: the migrations make it at 0 on the next start.
 */
async function movePastLostRevisions(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`do $$ begin
      if to_regclass('calendar_revision') is not null then
        update calendar_revision
           set value = greatest(value + 1, (extract(epoch from clock_timestamp()) * 1000)::bigint)
         where id = 1;
      end if;
    end $$`)
  } finally {
    await client.end()
  }
}

/** PostgreSQL refuses to run as root: the embedded package runs it as `postgres`, which must own the cluster. */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  try {
    return { uid: id('-u'), gid: id('-g') }
  } catch {
    // A new machine: the same user the embedded package creates at its first initdb.
    execFileSync('groupadd', ['postgres'])
    execFileSync('useradd', ['-g', 'postgres', 'postgres'])
    return { uid: id('-u'), gid: id('-g') }
  }
}

/** Hands the cluster to `owner`, never following a link (the archive's entries are files and folders, checked). */
async function chownTree(folder: string, owner: { uid: number; gid: number }): Promise<void> {
  await lchown(folder, owner.uid, owner.gid)
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const child = path.join(folder, entry.name)
    if (entry.isDirectory()) await chownTree(child, owner)
    else if ((await lstat(child)).isFile()) await lchown(child, owner.uid, owner.gid)
  }
}
