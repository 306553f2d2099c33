import { readdirSync } from 'node:fs'

/** What runs SQL: a pg client or pool. */
type Queryable = { query: (text: string) => Promise<{ rows: unknown[] }> }

/** How a database's applied migrations compare with a release's own. */
export type MigrationState = {
  applied: string[]
  /** This release's migrations the database has not had yet: `npm start` applies them. */
  pending: string[]
  /** Migrations a newer release applied: this release must not run on the database. */
  unknown: string[]
}

/**
 * The names of a release's migrations, read from its migrations folder as Payload's CLI reads them
 * (every `.ts`/`.js` but the index), for the launcher, which must not load the migrations' code.
 */
export function migrationNames(directory: string): string[] {
  return readdirSync(directory)
    .filter((file) => /\.(ts|js)$/.test(file) && !/^index\.(ts|js)$/.test(file))
    .map((file) => file.replace(/\.(ts|js)$/, ''))
    .sort()
}

export async function migrationState(
  database: Queryable,
  known: string[],
): Promise<MigrationState> {
  const { rows } = await database.query(
    `select to_regclass('payload_migrations') is not null as present`,
  )
  const present = (rows[0] as { present: boolean }).present
  // `dev` is the row a schema push leaves, not a migration.
  const applied = present
    ? (
        await database.query(
          `select name from payload_migrations where name <> 'dev' order by name`,
        )
      ).rows.map((row) => (row as { name: string }).name)
    : []
  return {
    applied,
    pending: known.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !known.includes(name)),
  }
}

/** The one line a release answers with on a database a newer release has migrated. */
export function newerReleaseMessage(unknown: string[]): string {
  return (
    `this database was migrated by a newer release (migrations this release does not know: ${unknown.join(', ')}): ` +
    'run that release again, or restore the backup taken before the upgrade (npm run restore -- --force FILE) and then start this one'
  )
}

/**
 * The oldest PostgreSQL this release's migrations run on: they name no alias for a subquery in FROM,
 * which PostgreSQL 16 first allowed. On PostgreSQL 15 they stopped halfway, a dozen applied.
 */
export const OLDEST_SERVER = { number: 160000, named: '16' }

/** The one line a release answers with on a server older than `OLDEST_SERVER`, else nothing. */
export function tooOldServer(versionNumber: number, version: string): string | undefined {
  return versionNumber < OLDEST_SERVER.number
    ? `PostgreSQL ${version} is too old: this release needs PostgreSQL ${OLDEST_SERVER.named} or later, and nothing was migrated`
    : undefined
}

/** `tooOldServer` of the server `database` reaches. */
export async function serverTooOld(database: Queryable): Promise<string | undefined> {
  const { rows } = await database.query(
    `select current_setting('server_version_num')::int as number, current_setting('server_version') as version`,
  )
  const { number, version } = rows[0] as { number: number; version: string }
  return tooOldServer(number, version)
}
