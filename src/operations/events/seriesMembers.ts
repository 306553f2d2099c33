import { combineQueries } from 'payload'
import { idOf } from '../../calendar/relationId'
import type { EventMatch } from '../../database/events/eventMatch'
import { latestMemberStarts } from '../../database/events/latestMembers'
import type { Event } from '../../payload-types'
import type { Reader } from '../reader'
import { matchWhere } from './matchWhere'

/** What a series needs to know of each of its later events: where it lies and whether it was edited on its own. */
export type SeriesMember = {
  id: number
  parent: number
  startLocal: string
  recurrenceException: boolean
}

/**
 * The later events of these series that the caller may see (the collection's read access and
 * `visibility`), in one query whatever their number: their ids, days and exception flags only.
 */
async function visibleMembers(
  reader: Reader,
  parents: number[],
  visibility: EventMatch,
): Promise<SeriesMember[]> {
  if (!parents.length) return []
  const access = await reader.req.payload.collections.events.config.access.read({ req: reader.req })
  if (access === false) return []
  const { docs } = await reader.req.payload.db.find({
    collection: 'events',
    where: combineQueries(matchWhere(reader, { ...visibility, parents }), access),
    locale: reader.language,
    req: reader.req,
    sort: 'id',
    limit: 0,
    pagination: false,
    select: { parent: true, startLocal: true, recurrenceException: true },
  })
  return (docs as Pick<Event, 'id' | 'parent' | 'startLocal' | 'recurrenceException'>[]).map(
    (doc) => ({
      id: doc.id,
      parent: idOf(doc.parent) ?? 0,
      startLocal: String(doc.startLocal ?? ''),
      recurrenceException: Boolean(doc.recurrenceException),
    }),
  )
}

/**
 * What the iCalendar writer needs of these series: their later events that the caller may see, and
 * the start of the latest event each series has made, whoever may see it (how far its rule has been
 * made), in two queries whatever their number.
 */
export async function seriesMembers(reader: Reader, parents: number[], visibility: EventMatch) {
  const [members, latest] = await Promise.all([
    visibleMembers(reader, parents, visibility),
    latestMemberStarts(reader.req, parents),
  ])
  return { members, latest }
}
