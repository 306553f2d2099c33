import { resourceOf } from '../../calendar/resources'
import type { LinkedKind } from '../../database/linked/linkedWithEvents'
import { unlocks } from '../passwords'
import type { Reader } from '../reader'
import { missing, probeOne, readOne, refuseUnreadable, withRelated, type OneRead } from '../readOne'
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
): Promise<OneRead<LinkedDoc> & { unlocked: boolean }> {
  const resource = resourceOf(kind)
  const probe = await probeOne(reader, kind, id)
  if (!probe) throw missing(resource, id)
  refuseUnreadable(reader, resource, probe)
  const unlocked = await unlocks(reader, kind, probe, unlocking, 'refuse')
  const doc = (await readOne(reader, kind, id, unlocked && Boolean(probe.hasPassword))) as LinkedDoc
  return { ...(await withRelated(doc, (docs) => linkedRelated(reader, docs))), unlocked }
}
