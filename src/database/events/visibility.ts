import { sql } from '@payloadcms/db-postgres'
import type { ReadVisibility } from '../../calendar/access/readVisibility'
import type { SQL } from '../rawQuery'

/** The read rule (`ReadVisibility`) as a condition on the row `alias` of events, venues or organizers. */
export function visibilitySql(visibility: ReadVisibility, alias: string): SQL {
  if (visibility.every) return sql`true`
  const published = sql`${sql.raw(`${alias}.status`)} = 'publish'`
  return visibility.ownerId === undefined
    ? published
    : sql`(${published} or ${sql.raw(`${alias}.author_id`)} = ${visibility.ownerId})`
}
