import { DEFAULT_LANGUAGE } from '../../i18n/languages'
import { idOf } from '../../calendar/relationId'
import type { Writer } from '../writer'

/**
 * Trashing a venue or organizer removes it from every event that links it (docs/api.md §6.1). The
 * links are not localized: they are written in the default language, where every event has a title.
 */
export async function unlinkEverywhere(
  writer: Writer,
  kind: 'venues' | 'organizers',
  id: number,
): Promise<void> {
  const { payload } = writer.req
  const options = {
    req: writer.req,
    overrideAccess: true,
    depth: 0,
    locale: DEFAULT_LANGUAGE,
  } as const
  if (kind === 'venues') {
    const { errors } = await payload.update({
      ...options,
      collection: 'events',
      where: { venue: { equals: id } },
      data: { venue: null },
    })
    if (errors.length)
      throw new Error(`unlinking venue ${id}: ${errors.map((error) => error.message).join('; ')}`)
    return
  }
  const { docs } = await payload.find({
    ...options,
    collection: 'events',
    where: { organizers: { in: [id] } },
    pagination: false,
    select: { organizers: true },
  })
  for (const event of docs) {
    const organizers = (event.organizers ?? [])
      .map(idOf)
      .filter((other) => other !== undefined && other !== id)
    await payload.update({
      ...options,
      collection: 'events',
      id: event.id,
      data: { organizers: organizers as number[] },
    })
  }
}
