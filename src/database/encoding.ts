import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { rawQuery } from './rawQuery'

/**
 * Says at start when the database is not in UTF-8: in SQL_ASCII (an embedded cluster made where
 * LANG was unset before 2026-12-02, or a server made so) term names differing only in the case of
 * "É" are two names and `search` misses them; in a one-byte encoding most of the site's languages
 * cannot be stored (docs/operations.md, "The database's encoding"). A warning rather than a refusal:
 * what is stored is still served.
 */
export async function warnOnNarrowEncoding(payload: Payload): Promise<void> {
  const [row] = await rawQuery<{ encoding: string }>(
    payload,
    sql`select current_setting('server_encoding') as encoding`,
  )
  if (row && row.encoding !== 'UTF8')
    payload.logger.warn(
      `the database's encoding is ${row.encoding}, not UTF8: text in some of the site's languages cannot be stored, and term names sort by the database's collation and may compare case-sensitively beyond ASCII (docs/operations.md, "The database's encoding")`,
    )
}
