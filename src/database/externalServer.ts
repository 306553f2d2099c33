import { execFile } from 'node:child_process'
import pg from 'pg'

/**
 * With DATABASE_URL the database is the operator's own server, which `npm run backup` and `npm run
 * restore` do not copy: its own tools do, and they must be of its major version (pg_dump refuses a
 * newer server and, failing, still leaves an empty file behind). The answer names the tool, the
 * server's version and the version of the tool found on this machine.
 */
export async function externalServerAdvice(
  url: string,
  action: 'backup' | 'restore',
): Promise<string> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const server = await client
    .query(`select current_setting('server_version') as version`)
    .then(({ rows }) => String(rows[0].version))
    .finally(() => client.end())
  const major = server.split(/[.\s]/)[0]
  const tool = action === 'backup' ? 'pg_dump' : 'pg_restore'
  const found = await new Promise<string | undefined>((resolve) =>
    execFile(tool, ['--version'], (error, stdout) => resolve(error ? undefined : stdout.trim())),
  )
  const foundMajor = found ? /(\d+)(\.\d+)?/.exec(found)?.[1] : undefined
  const usage =
    action === 'backup'
      ? `pg_dump --format=custom --file=calendar.dump "$DATABASE_URL"`
      : `pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" calendar.dump`
  const check = !found
    ? `${tool} is not installed here: install PostgreSQL ${major}'s client tools`
    : foundMajor === major
      ? `${found} here matches the server`
      : `${found} here is not the server's major version ${major}: install PostgreSQL ${major}'s client tools`
  return [
    `DATABASE_URL points at your own PostgreSQL server (${server}): npm run ${action} copies only the embedded database.`,
    `Use ${tool} of PostgreSQL ${major} instead (${check}): ${usage}`,
    `and ${action === 'backup' ? 'keep' : 'put back'} the secret (PAYLOAD_SECRET, or $DATA_DIR/secret), $DATA_DIR/media and $DATA_DIR/imports with it.`,
  ].join('\n')
}
