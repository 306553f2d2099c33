import type { PayloadRequest, RelationshipFieldValidation } from 'payload'
import { relationship } from 'payload/shared'
import { writtenIdOf } from '../../calendar/relationId'
import { heldRows, type HeldRow } from '../../database/existingRows'
import type { LinkedKind } from '../../database/linked/linkedWithEvents'
import { SERIES_UPKEEP } from '../series'

const NAMES: Record<LinkedKind, [one: string, many: string]> = {
  venues: ['Venue', 'Venues'],
  organizers: ['Organizer', 'Organizers'],
}

const isLinked = (relationTo: unknown): relationTo is LinkedKind =>
  typeof relationTo === 'string' && relationTo in NAMES

function idsIn(value: unknown): number[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
  return list.map(writtenIdOf).filter((id): id is number => id !== undefined)
}

/** The questions of one transaction's validations not yet sent, and the answer they will share. */
type Batch = { ids: Record<LinkedKind, number[]>; answer: Promise<HeldRow[]> }

const BATCHES = 'calendarLinkChecks'

/**
 * The held status of `ids` (`heldRows`, `database/existingRows.ts`), asked together with every other link
 * validation of the same transaction that starts before the statement is sent. Payload validates an
 * event's fields side by side, so its venue's and its organizers' checks both join the batch their
 * first one opens, and a write sends one statement where it sent one per field. The batch is sent
 * once the validations ready to run have asked (`setImmediate`), and forgotten then: a later write
 * in the request, a bulk edit's next event, opens its own and reads statuses after its own start.
 * Each validation reads the answers to its own ids alone, so writes that share a batch never take
 * each other's.
 */
function statusesOf(req: PayloadRequest, kind: LinkedKind, ids: number[]): Promise<HeldRow[]> {
  const batches = ((req.context[BATCHES] as Map<unknown, Batch> | undefined) ??= new Map())
  const transaction = req.transactionID
  let batch = batches.get(transaction)
  if (!batch) {
    const asked: Batch['ids'] = { venues: [], organizers: [] }
    const answer = new Promise<HeldRow[]>((resolve, reject) =>
      setImmediate(() => {
        batches.delete(transaction)
        heldRows(req, [
          { collection: 'venues', ids: asked.venues },
          { collection: 'organizers', ids: asked.organizers },
        ]).then(resolve, reject)
      }),
    )
    batch = { ids: asked, answer }
    batches.set(transaction, batch)
  }
  batch.ids[kind].push(...ids)
  return batch.answer
}

/**
 * An event's venue and organizers are never newly linked to one in the trash, through any door
 * (docs/api.md §6.5): trashing one unlinks it from every event, so a link made afterwards would
 * stand alone, shown on the event and in its feeds while the venue itself is gone. Only the ids the
 * write adds are asked about, so an event that kept a link made before that rule still saves; they
 * are held until the write commits, so that a trash at the same time either waits for the write and
 * then unlinks the event, or is waited for and the link refused (`heldRows`, `database/existingRows.ts`). A
 * series' upkeep copies its first event's links, which that event's own write checked.
 */
export const validateLinkTargets: RelationshipFieldValidation = async (value, options) => {
  const valid = await relationship(value, options)
  const { req, previousValue, relationTo } = options
  if (valid !== true || req.context[SERIES_UPKEEP] || !isLinked(relationTo)) return valid
  const kept = new Set(idsIn(previousValue))
  const added = new Set(idsIn(value).filter((id) => !kept.has(id)))
  if (!added.size) return true
  const trashed = new Set(
    (await statusesOf(req, relationTo, [...added]))
      .filter((link) => link.collection === relationTo && link.status === 'trash')
      .map((link) => link.id),
  )
  // In the order the write names them, whatever order the rows come in.
  const refused = [...added].filter((id) => trashed.has(id))
  if (!refused.length) return true
  const [one, many] = NAMES[relationTo]
  const ids = refused.join(', ')
  return refused.length === 1
    ? `${one} ${ids} is in the trash: restore it first, or choose another.`
    : `${many} ${ids} are in the trash: restore them first, or choose others.`
}
