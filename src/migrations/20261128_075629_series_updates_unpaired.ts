import type { MigrateDownArgs, MigrateUpArgs } from '@payloadcms/db-postgres'
import { sql } from '@payloadcms/db-postgres'
import type { Pairing } from './calendarSchema/keptCounts'
import { listDaysUpdated } from './calendarSchema/listDays'
import { termCountStatus } from './calendarSchema/termCounts'

const updateTriggers = (pairing: Pairing) =>
  sql.raw(`${termCountStatus('at commit', pairing)}\n${listDaysUpdated('at commit', pairing)}`)

/**
 * The kept counts' triggers on an update of events no longer join the rows before and after by id
 * (a nested loop over both transition tables, which a series' update of 729 occurrences took 1.5 s
 * through): they sum what the rows count after and before (`calendarSchema/keptCounts.ts`). Down:
 * the joins again.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(updateTriggers('summed'))
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(updateTriggers('joined'))
}
