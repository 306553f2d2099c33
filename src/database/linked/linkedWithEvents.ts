import { sql } from '@payloadcms/db-postgres'
import type { PayloadRequest } from 'payload'
import { capabilities } from '../../calendar/access/capabilities'
import type { Actor } from '../../calendar/access/roles'
import { requestQuery } from '../rawQuery'
import { isStoredId } from '../unreadableValues'
import type { LinkedResource } from '../../calendar/resources'

export type LinkedKind = LinkedResource['key']

/**
 * The events that count as upcoming ones for this reader: published ones, and the private ones it may
 * read (every one for editors and administrators, its own for authors and contributors), as the
 * events collection's read access has it. Drafts and pending events count for no one.
 */
function countedStatus(reader: Actor) {
  if (capabilities.editOthers(reader)) return sql`e.status in ('publish', 'private')`
  if (reader && capabilities.create(reader))
    return sql`(e.status = 'publish' or (e.status = 'private' and e.author_id = ${Number(reader.id)}))`
  return sql`e.status = 'publish'`
}

/**
 * Ids of venues or organizers that events link to: those with events that are neither drafts nor
 * pending nor trashed (`has_events`, docs/api.md §7), or, given `upcoming`, with events still to come
 * that the reader may see (`only_with_upcoming`). Hand-written: Payload cannot ask "related by any
 * event" from this side.
 */
export async function linkedWithEvents(
  req: PayloadRequest,
  kind: LinkedKind,
  upcoming?: { after: Date; reader: Actor },
): Promise<number[]> {
  const filter = upcoming
    ? sql`and ${countedStatus(upcoming.reader)} and e."end" >= ${upcoming.after.toISOString()}`
    : sql`and e.status not in ('draft', 'pending', 'trash')`
  const query =
    kind === 'venues'
      ? sql`select distinct e.venue_id as id from events e where e.venue_id is not null ${filter}`
      : sql`select distinct r.organizers_id as id from events_rels r join events e on e.id = r.parent_id
             where r.path = 'organizers' and r.organizers_id is not null ${filter}`
  const rows = await requestQuery<{ id: number }>(req, query)
  return rows.map((row) => Number(row.id))
}

/** Ids of the events that link any of these venues or organizers, whatever their status, in order. */
export async function eventsLinking(
  req: PayloadRequest,
  kind: LinkedKind,
  ids: number[],
): Promise<number[]> {
  const known = ids.filter(isStoredId)
  if (!known.length) return []
  const named = `{${known.join(',')}}`
  const query =
    kind === 'venues'
      ? sql`select id from events where venue_id = any(${named}::int[]) order by 1`
      : sql`select distinct parent_id as id from events_rels
             where path = 'organizers' and organizers_id = any(${named}::int[]) order by 1`
  const rows = await requestQuery<{ id: number }>(req, query)
  return rows.map((row) => Number(row.id))
}
