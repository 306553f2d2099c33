import type { RestContext } from '../context'
import { idOf } from '../serialize/common'

/** Trashing a venue or organizer removes it from every event that links it (upstream §10.5). */
export async function unlinkEverywhere(ctx: RestContext, kind: 'venues' | 'organizers', id: number): Promise<void> {
  const { payload } = ctx.req
  if (kind === 'venues') {
    await payload.update({ collection: 'events', where: { venue: { equals: id } }, data: { venue: null }, req: ctx.req, overrideAccess: true, depth: 0 })
    return
  }
  const { docs } = await payload.find({ collection: 'events', where: { organizers: { in: [id] } }, req: ctx.req, overrideAccess: true, depth: 0, pagination: false, select: { organizers: true } })
  for (const event of docs) {
    const organizers = (event.organizers ?? []).map(idOf).filter((other) => other !== undefined && other !== id)
    await payload.update({ collection: 'events', id: event.id, data: { organizers: organizers as number[] }, req: ctx.req, overrideAccess: true, depth: 0 })
  }
}
