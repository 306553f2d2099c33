import type { Where } from 'payload'
import { capabilities, STATUSES } from '../calendar/access/capabilities'
import type { Reader } from './reader'
import { Refusal } from './refusal'

/** Every status but trash: what writers see without `status`, and what their links echo. */
const ANY = 'any'

/**
 * Statuses the caller may filter on (docs/api.md §4.4): readers only `publish`, writers any status,
 * and `any` (every status but trash), which their lists echo in the links they hand out.
 */
export function statusFilter(reader: Pick<Reader, 'actor'>, requested: string[] | undefined): { where: Where; echo: string } {
  const writer = capabilities.create(reader.actor)
  const everyButTrash: Where = { status: { not_equals: 'trash' } }
  if (!requested) return writer ? { where: everyButTrash, echo: ANY } : { where: { status: { equals: 'publish' } }, echo: 'publish' }
  const allowed: readonly string[] = writer ? [...STATUSES, ANY] : ['publish']
  const refused = requested.filter((status) => !allowed.includes(status))
  if (refused.length) throw Refusal.invalidParams({ status: `Not a status you may ask for: ${refused.join(', ')}.` })
  const named = requested.filter((status) => status !== ANY)
  const where: Where = requested.includes(ANY) ? (named.length ? { or: [everyButTrash, { status: { in: named } }] } : everyButTrash) : { status: { in: named } }
  return { where, echo: requested.join(',') }
}
