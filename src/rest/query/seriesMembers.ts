import { sql } from '@payloadcms/db-postgres'
import { combineQueries, type Where } from 'payload'
import { requestQuery } from '../../database/rawQuery'
import type { Event } from '../../payload-types'
import type { RestContext } from '../context'
import { idOf } from '../serialize/common'

/** What a series needs to know of each of its later events: where it lies and whether it was edited on its own. */
export type SeriesMember = { id: number; parent: number; startLocal: string; recurrenceException: boolean }

/**
 * The later events of these series that the caller may see (the collection's read access and
 * `visibility`), in one query whatever their number: their ids, days and exception flags only.
 */
export async function visibleMembers(ctx: RestContext, parents: number[], visibility: Where): Promise<SeriesMember[]> {
  if (!parents.length) return []
  const access = await ctx.req.payload.collections.events.config.access.read({ req: ctx.req })
  if (access === false) return []
  const { docs } = await ctx.req.payload.db.find({
    collection: 'events',
    where: combineQueries({ and: [{ parent: { in: parents } }, visibility] }, access),
    locale: ctx.language,
    req: ctx.req,
    sort: 'id',
    limit: 0,
    pagination: false,
    select: { parent: true, startLocal: true, recurrenceException: true },
  })
  return (docs as Pick<Event, 'id' | 'parent' | 'startLocal' | 'recurrenceException'>[]).map((doc) => ({
    id: doc.id,
    parent: idOf(doc.parent) ?? 0,
    startLocal: String(doc.startLocal ?? ''),
    recurrenceException: Boolean(doc.recurrenceException),
  }))
}

/**
 * The start of the latest event each series has made, whoever may see it, trashed ones included: how
 * far its rule has been materialized, so that only days up to there can lack an event.
 */
export async function latestMemberStarts(ctx: RestContext, parents: number[]): Promise<Map<number, Date>> {
  if (!parents.length) return new Map()
  const rows = await requestQuery<{ parent: number; latest: Date | string }>(
    ctx.req,
    sql`select parent_id as parent, max(start) as latest from events where parent_id = any(${`{${parents.join(',')}}`}::int[]) group by parent_id`,
  )
  return new Map(rows.map((row) => [Number(row.parent), new Date(row.latest)]))
}
