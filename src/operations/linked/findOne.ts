import { capabilities } from '../../calendar/access/capabilities'
import { errorCodes, resourceOf } from '../../calendar/resources'
import type { LinkedKind } from '../../database/linked/linkedWithEvents'
import { idBySlug } from '../../database/slugs'
import { unlocks } from '../passwords'
import { readOptions } from '../read'
import type { Reader } from '../reader'
import { Refusal } from '../refusal'
import type { Related } from '../related'
import type { Unlocking } from '../events/find'
import { linkedRelated, type LinkedDoc } from './find'

/**
 * A single venue or organizer (docs/api.md §5): unknown is a 400, unreadable a 403; `unlocked`:
 * whether the caller may see a protected one's content.
 */
export async function findLinkedById(
  reader: Reader,
  kind: LinkedKind,
  id: number,
  unlocking: Unlocking,
): Promise<{ doc: LinkedDoc; related: Related; unlocked: boolean }> {
  const resource = resourceOf(kind)
  const { singular } = resource
  const probe = await reader.req.payload.findByID({
    collection: kind,
    id,
    depth: 0,
    overrideAccess: true,
    req: reader.req,
    disableErrors: true,
    // The stored password too, so that checking a given one costs no second read.
    select: { status: true, author: true, hasPassword: true, password: true },
  })
  if (!probe) throw Refusal.invalidParams({ id: `No ${singular} has this id.` })
  if (probe.status !== 'publish' && !capabilities.readUnpublished(reader.actor, probe)) {
    throw new Refusal(errorCodes(resource).notAccessible, `The requested ${singular} is not accessible`, 403)
  }
  const unlocked = await unlocks(reader, kind, probe, unlocking, 'refuse')
  const doc = (await reader.req.payload.findByID({
    ...readOptions(reader, kind),
    collection: kind,
    id,
    overrideAccess: unlocked && Boolean(probe.hasPassword),
  })) as LinkedDoc
  return { doc, related: await linkedRelated(reader, [doc]), unlocked }
}

/** The venue or organizer whose slug is `slug`: an unknown slug is a 400. */
export async function linkedIdBySlug(reader: Reader, kind: LinkedKind, slug: string): Promise<number> {
  const id = await idBySlug(reader, kind, slug)
  if (id === undefined) throw Refusal.invalidParams({ slug: `No ${resourceOf(kind).singular} has this slug.` })
  return id
}
