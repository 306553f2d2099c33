import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { rawQuery } from './rawQuery'

/**
 * Runs `body`, PL/pgSQL statements, as one anonymous block under the transaction-level advisory lock
 * `lock`: what the plugin installs in its database at start (tables, triggers, indexes, settings),
 * so that instances starting together install it once, one after the other. `declare`: the block's
 * variables.
 */
export async function installBlock(payload: Payload, lock: string, body: string, declare = ''): Promise<void> {
  await rawQuery(
    payload,
    sql.raw(`
    do $install$
    ${declare ? `declare ${declare}` : ''}
    begin
      perform pg_advisory_xact_lock(hashtext('${lock}'));
      ${body}
    end $install$`),
  )
}
