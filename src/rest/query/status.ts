import type { Where } from 'payload'
import { capabilities, STATUSES } from '../../calendar/access/capabilities'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'

/** Statuses the caller may filter on (docs/api.md §4.4): readers only `publish`, writers any status. */
export function statusFilter(ctx: RestContext, requested: string[] | undefined): { where: Where; echo: string } {
  const writer = capabilities.create(ctx.actor)
  if (!requested) return writer ? { where: { status: { not_equals: 'trash' } }, echo: 'any' } : { where: { status: { equals: 'publish' } }, echo: 'publish' }
  const allowed: readonly string[] = writer ? STATUSES : ['publish']
  const refused = requested.filter((status) => !allowed.includes(status))
  if (refused.length) throw RestError.invalidParams({ status: `Not a status you may ask for: ${refused.join(', ')}.` })
  return { where: { status: { in: requested } }, echo: requested.join(',') }
}
