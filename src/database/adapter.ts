import { postgresAdapter } from '@payloadcms/db-postgres'
import { guardedPg } from './connectionErrors'
import { claimingInTurns } from './jobClaims'
import { migrationState, newerReleaseMessage, serverTooOld } from './migrationState'
import { withoutDeadlines } from './statementDeadline'
import { limitTransactions } from './transactionSlots'
import { numberSetting } from '../calendar/settings'

type Migrations = NonNullable<Parameters<typeof postgresAdapter>[0]['prodMigrations']>

/**
 * The Payload database adapter: always PostgreSQL at DATABASE_URL (the launcher points it at the
 * embedded server when the operator gives none). Dev mode pushes the schema into its own cluster;
 * everything else applies the committed migrations at start, so the two never meet (field notes).
 * The migrations are the model's history, handed in by the app rather than imported from above.
 */
export function databaseAdapter(migrations: Migrations) {
  const url = process.env.DATABASE_URL
  if (!url)
    throw new Error(
      'DATABASE_URL is not set: start the service with `npm start` (embedded PostgreSQL) or set DATABASE_URL.',
    )
  const replicas = (process.env.DATABASE_READ_REPLICAS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const max = numberSetting('DATABASE_POOL_MAX')
  const deadline = numberSetting('DATABASE_DEADLINE_MS')
  const adapter = postgresAdapter({
    // A connection the server accepts but never answers (frozen, or its network dropping packets)
    // fails within the deadline too, as does a wait for a free connection of the pool.
    pool: { connectionString: url, max, connectionTimeoutMillis: deadline },
    push: process.env.PAYLOAD_SCHEMA_PUSH === 'true',
    migrationDir: 'src/migrations',
    prodMigrations: migrations,
    ...(replicas.length ? { readReplicas: replicas } : {}),
  })
  // The adapter keeps one client checked out for good (payloadcms/payload#11727), and queries outside
  // transactions need one more (see limitTransactions). Its pools are guarded before their first
  // connection, so the connections that migrations open are guarded too.
  return {
    ...adapter,
    init: (args: Parameters<typeof adapter.init>[0]) => {
      const db = adapter.init(args)
      db.pg = guardedPg(db.pg, args.payload.logger, deadline)
      claimingInTurns(db)
      // Payload applies what is pending and ignores the rest: on a database a newer release migrated,
      // this release would serve a schema it does not know (sign-ins failing on missing columns).
      const migrate = db.migrate.bind(db)
      db.migrate = async (options) => {
        const tooOld = await serverTooOld(db.pool)
        if (tooOld) throw new Error(tooOld)
        const { unknown } = await migrationState(
          db.pool,
          (options?.migrations ?? migrations).map((migration) => migration.name),
        )
        if (unknown.length) throw new Error(newerReleaseMessage(unknown))
        return migrate(options)
      }
      // Migrations (those connecting applies, and `payload migrate:*`) may change the schema of a
      // large table for minutes: no statement of theirs has a deadline.
      for (const name of [
        'connect',
        'migrate',
        'migrateDown',
        'migrateFresh',
        'migrateRefresh',
        'migrateReset',
      ] as const) {
        const run = db[name]?.bind(db) as ((...args: unknown[]) => Promise<void>) | undefined
        if (run) db[name] = ((...args: unknown[]) => withoutDeadlines(() => run(...args))) as never
      }
      return limitTransactions(db, max - 2)
    },
  }
}
