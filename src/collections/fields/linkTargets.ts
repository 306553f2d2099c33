import {
  traverseFields,
  type CollectionSlug,
  type Payload,
  type PayloadRequest,
  type RelationshipFieldValidation,
  type Validate,
} from 'payload'
import { relationship } from 'payload/shared'
import { writtenIdOf } from '../../calendar/relationId'
import { existingRows, heldRows, type HeldRow } from '../../database/existingRows'
import type { LinkedKind } from '../../database/linked/linkedWithEvents'
import { SERIES_UPKEEP } from '../series'

const NAMES: Record<LinkedKind, [one: string, many: string]> = {
  venues: ['Venue', 'Venues'],
  organizers: ['Organizer', 'Organizers'],
}

const isLinked = (relationTo: unknown): relationTo is LinkedKind =>
  typeof relationTo === 'string' && relationTo in NAMES

type Link = { collection: CollectionSlug; id: number }

/** The items a link's value names: ids, or `{ relationTo, value }` for a link to several collections. */
function linksIn(value: unknown, relationTo: CollectionSlug | CollectionSlug[]): Link[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
  return list.flatMap((item): Link[] => {
    const collection = Array.isArray(relationTo)
      ? (item as { relationTo?: CollectionSlug } | null)?.relationTo
      : relationTo
    const id = writtenIdOf(
      Array.isArray(relationTo) ? (item as { value?: unknown } | null)?.value : item,
    )
    return collection && id !== undefined ? [{ collection, id }] : []
  })
}

/** What one transaction's link validations ask, and what they are answered. */
type Answers = { held: HeldRow[]; existing: Map<string, Set<number>> }

/** The questions of one transaction's validations not yet sent, and the answers they will share. */
type Batch = {
  held: Record<LinkedKind, number[]>
  existing: Map<CollectionSlug, number[]>
  answer: Promise<Answers>
}

const BATCHES = 'calendarLinkChecks'

/**
 * The batch of the link validations of `req`'s transaction that starts before its statements are
 * sent: the held status of venues and organizers (`heldRows`, `database/existingRows.ts`), and which
 * ids name an item outside Payload's trash (`existingRows`). Payload validates a document's fields
 * side by side, so an event's venue's, organizers' and author's checks all join the batch their first
 * one opens, and a write sends one statement for each question where it sent one per field. The
 * batch is sent once the validations ready to run have asked (`setImmediate`), and forgotten then: a
 * later write in the request, a bulk edit's next event, opens its own and reads after its own start.
 * A question nobody asked sends nothing. Each validation reads the answers to its own ids alone, so
 * writes that share a batch never take each other's.
 */
function batchOf(req: PayloadRequest): Batch {
  const batches = ((req.context[BATCHES] as Map<unknown, Batch> | undefined) ??= new Map())
  const transaction = req.transactionID
  const open = batches.get(transaction)
  if (open) return open
  const held: Batch['held'] = { venues: [], organizers: [] }
  const existing: Batch['existing'] = new Map()
  const answer = new Promise<Answers>((resolve, reject) =>
    setImmediate(() => {
      batches.delete(transaction)
      Promise.all([
        heldRows(req, [
          { collection: 'venues', ids: held.venues },
          { collection: 'organizers', ids: held.organizers },
        ]),
        existingRows(
          req,
          [...existing].map(([collection, ids]) => ({ collection, ids })),
        ),
      ]).then(([held, existing]) => resolve({ held, existing }), reject)
    }),
  )
  const batch = { held, existing, answer }
  batches.set(transaction, batch)
  return batch
}

async function statusesOf(req: PayloadRequest, kind: LinkedKind, ids: number[]) {
  const batch = batchOf(req)
  batch.held[kind].push(...ids)
  return (await batch.answer).held
}

async function existingOf(req: PayloadRequest, collection: CollectionSlug, ids: number[]) {
  const batch = batchOf(req)
  batch.existing.set(collection, [...(batch.existing.get(collection) ?? []), ...ids])
  return (await batch.answer).existing.get(collection) ?? new Set<number>()
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
  const idsIn = (links: unknown) => linksIn(links, relationTo).map((link) => link.id)
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

/** A collection's name in a refusal: its label when it has one in text, else its slug. */
function nameOf(req: PayloadRequest, collection: CollectionSlug, many: boolean): string {
  const labels = req.payload.collections[collection]?.config.labels
  const label = many ? labels?.plural : labels?.singular
  return typeof label === 'string' ? label : collection
}

/**
 * A link's validation that also refuses an id the write adds in a collection with Payload's trash
 * that names no item outside it, where Payload checks only the foreign key, which a row in its trash
 * still satisfies: an event's `author` a trashed user (in an app that gives its users `trash: true`)
 * was stored, and read back as no one. The namespace's existence checks ask the same question
 * (`existingRows`, `database/existingRows.ts`), and here it joins the transaction's batch of link
 * checks. As for venues and organizers, a link the item already had is left alone, and a series'
 * upkeep copies links its first event's write checked.
 */
function refusingTrashed(validate: Validate): Validate {
  return async (value, options) => {
    const valid = await validate(value, options)
    const { req, previousValue, relationTo } = options as typeof options & {
      relationTo: CollectionSlug | CollectionSlug[]
    }
    if (valid !== true || req.context[SERIES_UPKEEP]) return valid
    const kept = new Set(
      linksIn(previousValue, relationTo).map((link) => `${link.collection}:${link.id}`),
    )
    const added = new Map<CollectionSlug, number[]>()
    // Asked of the running app, not at install: the calendar's field objects are shared by every app
    // built in the process, and another may give the target no trash.
    const hasTrash = (collection: CollectionSlug) =>
      Boolean(req.payload.collections[collection]?.config.trash)
    for (const { collection, id } of linksIn(value, relationTo))
      if (hasTrash(collection) && !kept.has(`${collection}:${id}`))
        added.set(collection, [...(added.get(collection) ?? []), id])
    const refusals = await Promise.all(
      [...added].map(async ([collection, ids]) => {
        const found = await existingOf(req, collection, ids)
        const refused = [...new Set(ids)].filter((id) => !found.has(id))
        if (!refused.length) return []
        const list = refused.join(', ')
        return [
          refused.length === 1
            ? `${nameOf(req, collection, false)} ${list} does not exist or is in the trash: restore it, or choose another.`
            : `${nameOf(req, collection, true)} ${list} do not exist or are in the trash: restore them, or choose others.`,
        ]
      }),
    )
    return refusals.flat().join(' ') || true
  }
}

/** Fields already given the check: a field two collections share, or a second init, gets it once. */
const refusing = new WeakSet<object>()

/**
 * Gives each link of the calendar's collections (`slugs`) to a collection the running config gives
 * Payload's `trash` the check of `refusingTrashed`, on the sanitized config, once every plugin has
 * had its say: the README's example app gives its users `trash` after the calendar's plugin ran.
 * A link to collections without it is left as it was, and costs nothing more.
 */
export function refuseTrashedTargets(payload: Payload, slugs: CollectionSlug[]): void {
  const trashed = new Set(
    Object.values(payload.collections)
      .filter(({ config }) => config.trash)
      .map(({ config }) => config.slug),
  )
  if (!trashed.size) return
  for (const slug of slugs) {
    const fields = payload.collections[slug]?.config.fields
    if (!fields) continue
    traverseFields({
      config: payload.config,
      fields,
      callback: ({ field }) => {
        if (field.type !== 'relationship' && field.type !== 'upload') return
        // Payload's types tell its validations apart by `hasMany`; this one takes either.
        const link = field as { relationTo: CollectionSlug | CollectionSlug[]; validate?: Validate }
        if (!link.validate || refusing.has(link)) return
        if (![link.relationTo].flat().some((to) => trashed.has(to))) return
        refusing.add(link)
        link.validate = refusingTrashed(link.validate)
      },
    })
  }
}
