import type { RelationshipFieldValidation } from 'payload'
import { relationship } from 'payload/shared'
import { writtenIdOf } from '../../calendar/relationId'
import { SERIES_UPKEEP } from '../series'

const NAMES: Record<string, [one: string, many: string]> = {
  venues: ['Venue', 'Venues'],
  organizers: ['Organizer', 'Organizers'],
}

function idsIn(value: unknown): number[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
  return list.map(writtenIdOf).filter((id): id is number => id !== undefined)
}

/**
 * An event's venue and organizers are never newly linked to one in the trash, through any door
 * (docs/api.md §6.5): trashing one unlinks it from every event, so a link made afterwards would
 * stand alone, shown on the event and in its feeds while the venue itself is gone. Only the ids the
 * write adds are asked about: an event that kept a link made before that rule still saves. A
 * series' upkeep copies its first event's links, which that event's own write checked.
 */
export const validateLinkTargets: RelationshipFieldValidation = async (value, options) => {
  const valid = await relationship(value, options)
  const { req, previousValue, relationTo } = options
  if (valid !== true || req.context[SERIES_UPKEEP] || typeof relationTo !== 'string') return valid
  const kept = new Set(idsIn(previousValue))
  const added = idsIn(value).filter((id) => !kept.has(id))
  if (!added.length) return true
  const { docs } = await req.payload.find({
    collection: relationTo,
    where: { and: [{ id: { in: added } }, { status: { equals: 'trash' } }] },
    select: { status: true },
    depth: 0,
    pagination: false,
    overrideAccess: true,
    req,
  })
  if (!docs.length) return true
  const [one, many] = NAMES[relationTo] ?? [relationTo, relationTo]
  const ids = docs.map((doc) => doc.id).join(', ')
  return docs.length === 1
    ? `${one} ${ids} is in the trash: restore it first, or choose another.`
    : `${many} ${ids} are in the trash: restore them first, or choose others.`
}
