/**
 * Restores an archive of `writeBackup` into a data directory: the cluster with its `backup_label`
 * and WAL (PostgreSQL replays them at the first start, which the restore does itself, so a broken
 * archive fails here and not at the next `npm start`), the secret, media and imports.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, chown, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { extract } from 'tar'
import { ARCHIVE_DATABASE, ARCHIVE_MANIFEST, DATA_ENTRIES, type Manifest } from './backup'
import { embeddedMajor, runningDatabase, startEmbeddedDatabase } from './embedded'

export type RestoreOptions = {
  file: string
  dataDirectory: string
  /** The cluster's folder under the data directory. */
  clusterDirectory: string
  /** Replace what the data directory holds of a backup's entries. */
  force?: boolean
}

/** What of a data directory a restore replaces: the cluster and the entries a backup holds. */
function replaced(options: RestoreOptions): string[] {
  return [
    options.clusterDirectory,
    ...DATA_ENTRIES.map((entry) => path.join(options.dataDirectory, entry)),
  ]
}

export async function restoreBackup(options: RestoreOptions): Promise<Manifest> {
  const file = path.resolve(options.file)
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

  await mkdir(options.dataDirectory, { recursive: true })
  const staging = path.join(options.dataDirectory, `.restore-${process.pid}`)
  let manifest: Manifest | null
  let failure: unknown
  try {
    await rm(staging, { recursive: true, force: true })
    await mkdir(staging, { mode: 0o700 })
    await extract({ file, cwd: staging, strict: true })
    manifest = JSON.parse(
      await readFile(path.join(staging, ARCHIVE_MANIFEST), 'utf8').catch(() => 'null'),
    ) as Manifest | null
    if (manifest?.format !== 1 || !existsSync(path.join(staging, ARCHIVE_DATABASE, 'backup_label')))
      throw new Error(`${file} is not a backup of this app`)
    const major = embeddedMajor()
    if (String(manifest.postgresMajor) !== major)
      throw new Error(
        `${file} holds a PostgreSQL ${manifest.postgresMajor} cluster; this release runs PostgreSQL ${major}`,
      )

    for (const entry of replaced(options)) await rm(entry, { recursive: true, force: true })
    await rename(path.join(staging, ARCHIVE_DATABASE), options.clusterDirectory)
    for (const entry of DATA_ENTRIES) {
      if (existsSync(path.join(staging, entry)))
        await rename(path.join(staging, entry), path.join(options.dataDirectory, entry))
    }
    await chmod(options.clusterDirectory, 0o700)
    if (process.getuid?.() === 0) await chownTree(options.clusterDirectory, postgresUser())
  } catch (error) {
    failure = error
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

  // The first start replays the WAL up to the end of the backup; a clean stop leaves a cluster that
  // starts like any other.
  const database = await startEmbeddedDatabase({
    directory: options.clusterDirectory,
    startedBy: 'npm run restore',
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
  return manifest
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

async function chownTree(folder: string, owner: { uid: number; gid: number }): Promise<void> {
  await chown(folder, owner.uid, owner.gid)
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const child = path.join(folder, entry.name)
    if (entry.isDirectory()) await chownTree(child, owner)
    else if ((await stat(child)).isFile()) await chown(child, owner.uid, owner.gid)
  }
}
