import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { rawQuery } from './rawQuery'

/**
 * Says at start when the database cannot fold case beyond ASCII: in a SQL_ASCII database (an
 * embedded cluster made before 2026-12-02 where LANG was unset, or a server made so) term names
 * differing only in the case of "É" are two names and `search` misses them (docs/operations.md,
 * "The database's encoding"). A warning rather than a refusal: the data is still served as stored.
 */
export async function warnOnNarrowEncoding(payload: Payload): Promise<void> {
  const [row] = await rawQuery<{ encoding: string }>(
    payload,
    sql`select current_setting('server_encoding') as encoding`,
  )
  if (row && row.encoding !== 'UTF8')
    payload.logger.warn(
      `the database's encoding is ${row.encoding}, not UTF8: names that differ only in the case of a letter beyond ASCII count as different (docs/operations.md, "The database's encoding")`,
    )
}
