import type { Where } from 'payload'
import { capabilities, STATUSES, type Status } from '../calendar/access/capabilities'
import { statusList } from '../database/events/eventMatch'
import type { Reader } from './reader'
import { Refusal } from './refusal'

/** Every status but trash: what writers see without `status`, and what their links echo. */
const ANY = 'any'

const EVERY_BUT_TRASH: readonly Status[] = STATUSES.filter((status) => status !== 'trash')

/**
 * Statuses the caller may filter on (docs/api.md §4.4): readers only `publish`, writers any status,
 * and `any` (every status but trash), which their lists echo in the links they hand out.
 */
export function statusFilter(
  reader: Pick<Reader, 'actor'>,
  requested: string[] | undefined,
): { statuses: readonly Status[]; echo: string } {
  const writer = capabilities.create(reader.actor)
  if (!requested)
    return writer
      ? { statuses: EVERY_BUT_TRASH, echo: ANY }
      : { statuses: ['publish'], echo: 'publish' }
  const allowed: readonly string[] = writer ? [...STATUSES, ANY] : ['publish']
  const refused = requested.filter((status) => !allowed.includes(status))
  if (refused.length)
    throw Refusal.invalidParams({ status: `Not a status you may ask for: ${refused.join(', ')}.` })
  const named = requested.includes(ANY) ? [...EVERY_BUT_TRASH, ...requested] : requested
  return {
    statuses: STATUSES.filter((status) => named.includes(status)),
    echo: requested.join(','),
  }
}

/** Statuses as Payload's `where`, for the reads Payload serves. */
export function statusWhere(statuses: readonly Status[]): Where {
  const { negated, values } = statusList(statuses)
  // Every status: no status is null, and an empty `not_in` is no list PostgreSQL reads.
  if (negated && !values.length) return { status: { exists: true } }
  return { status: negated ? { not_in: values } : { in: values } }
}
