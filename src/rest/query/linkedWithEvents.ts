import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { rawQuery } from '../../database/rawQuery'

export type LinkedKind = 'venues' | 'organizers'

/**
 * Ids of venues or organizers that events link to: those with events that are neither drafts nor
 * pending nor trashed (`has_events`, upstream §10.2), or with published events still to come
 * (`only_with_upcoming`). Hand-written: Payload cannot ask "related by any event" from this side.
 */
export async function linkedWithEvents(payload: Payload, kind: LinkedKind, upcomingAfter?: Date): Promise<number[]> {
  const upcoming = upcomingAfter ? sql`and e.status = 'publish' and e."end" >= ${upcomingAfter.toISOString()}` : sql`and e.status not in ('draft', 'pending', 'trash')`
  const query =
    kind === 'venues'
      ? sql`select distinct e.venue_id as id from events e where e.venue_id is not null ${upcoming}`
      : sql`select distinct r.organizers_id as id from events_rels r join events e on e.id = r.parent_id
             where r.path = 'organizers' and r.organizers_id is not null ${upcoming}`
  const rows = await rawQuery<{ id: number }>(payload, query)
  return rows.map((row) => Number(row.id))
}
