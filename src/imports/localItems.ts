/**
 * The local side of an import: the collection of each kind, how an item is found when no mapping
 * names it, and the writes, through the operations' write step. Every call joins the item's
 * transaction (`ctx.req`) and overrides access: a run is started by an administrator (the admin's
 * imports), the operator (the CLI) or a subscription.
 */
import type { CollectionSlug, PayloadRequest, TypedLocale } from 'payload'
import { eventIdOfUid } from '../calendar/eventUid'
import { sameNamedTerm, type TermCollection } from '../database/terms/sameName'
import { holdName } from '../database/nameLocks'
import { DEFAULT_LANGUAGE, type LanguageCode } from '../i18n/languages'
import { createInLanguage, updateInLanguage } from '../operations/localizedWrite'
import type { Writer } from '../operations/writer'
import type { ImportKind, SourceItem } from './items'
import type { ItemMappings } from './runMappings'

/** What one item's import knows besides the item. */
export type ItemContext = {
  /** The item's own request: its transaction holds the item, the items made from its links and their mappings. */
  req: PayloadRequest
  /** Whom the item's writes are for: the system, in the item's request (`importWriter`). */
  writer: Writer
  /** The source's name in the mapping table. */
  source: string
  /** The source's mappings as this item sees them: the run's, and what its transaction records. */
  mappings: ItemMappings
  /** The status of the events, venues and organizers the run creates. */
  status: 'publish' | 'draft'
  /** The origins this site answers on (`https://events.example.org`): its own media and event UIDs. */
  origins: string[]
  /** Items made from this item's links, counted as created once the item commits. */
  madeFromLinks: ImportKind[]
  /** Whether images may be downloaded from private addresses (IMPORT_ALLOW_PRIVATE, or ALLOW_PRIVATE_IMAGE_URLS). */
  allowPrivateImages: boolean
  /** Local categories every event of the run gets besides its own (a subscription's). */
  extraCategories: number[]
  /**
   * The source is mirrored (a subscription): what it still yields comes back from the trash, and a
   * UID naming one of this site's events is that source's own event, not this site's.
   */
  mirrored: boolean
  /** The kinds whose unmapped items adopt a local item of the same name (the source's `matchByName`). */
  matchByName: readonly ImportKind[]
  /** What the item's import left out, for the summary (a website that is no web address). */
  notes: string[]
}

export const COLLECTION: Record<ImportKind, CollectionSlug> = {
  category: 'event-categories',
  tag: 'event-tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
}

const AUTHORED: ImportKind[] = ['venue', 'organizer', 'event']

/** A stored item as the local API reads it at depth 0 in the default language. */
export type StoredItem = Record<string, unknown> & { id: number }

const options = (ctx: ItemContext, locale: string = DEFAULT_LANGUAGE) =>
  ({ req: ctx.req, overrideAccess: true, depth: 0, locale: locale as TypedLocale }) as const

/**
 * A stored item in a language: the default one's own values, another's with the default's where it
 * has none (as readers and the source's answers see it).
 */
export async function readLocal(
  ctx: ItemContext,
  kind: ImportKind,
  id: number,
  locale: string = DEFAULT_LANGUAGE,
): Promise<StoredItem | undefined> {
  const fallbackLocale = (locale === DEFAULT_LANGUAGE ? false : DEFAULT_LANGUAGE) as
    TypedLocale | false
  const doc = await ctx.req.payload.findByID({
    ...options(ctx, locale),
    collection: COLLECTION[kind],
    id,
    disableErrors: true,
    fallbackLocale,
  })
  return (doc ?? undefined) as StoredItem | undefined
}

/** Whether mapped items are still here, and whether in the trash (events, venues, organizers): one read for them all. */
export async function localStates(
  req: PayloadRequest,
  kind: ImportKind,
  ids: number[],
): Promise<Map<number, 'trash' | 'here'>> {
  const { docs } = await req.payload.find({
    req,
    overrideAccess: true,
    depth: 0,
    locale: DEFAULT_LANGUAGE,
    collection: COLLECTION[kind],
    where: { id: { in: ids } },
    select: AUTHORED.includes(kind) ? { status: true } : { name: true },
    pagination: false,
  })
  return new Map(
    docs.map((doc) => [
      doc.id as number,
      (doc as { status?: string }).status === 'trash' ? 'trash' : 'here',
    ]),
  )
}

/** Whether a mapped item is still here, and whether it is in the trash. */
export async function localState(
  ctx: ItemContext,
  kind: ImportKind,
  id: number,
): Promise<'missing' | 'trash' | 'here'> {
  return (await localStates(ctx.req, kind, [id])).get(id) ?? 'missing'
}

/** The kinds an event is never newly linked to in the trash (docs/api.md §6.5). */
const LINKED_OUTSIDE_TRASH: ImportKind[] = ['venue', 'organizer']

/** Whether an item exists; with `outsideTrash`, and is not in the trash. */
export async function localExists(
  ctx: ItemContext,
  kind: ImportKind,
  id: number,
  outsideTrash = false,
): Promise<boolean> {
  const { totalDocs } = await ctx.req.payload.count({
    ...options(ctx),
    collection: COLLECTION[kind],
    where: outsideTrash
      ? { and: [{ id: { equals: id } }, { status: { not_equals: 'trash' } }] }
      : { id: { equals: id } },
  })
  return totalDocs > 0
}

/** Creates an item from the operation's data, in the default language. */
export async function createLocal(
  ctx: ItemContext,
  kind: ImportKind,
  data: Record<string, unknown>,
): Promise<number> {
  return (await createInLanguage(ctx.writer, COLLECTION[kind], data)).id
}

export async function updateLocal(
  ctx: ItemContext,
  kind: ImportKind,
  id: number,
  data: Record<string, unknown>,
  language: LanguageCode = DEFAULT_LANGUAGE,
): Promise<void> {
  await updateInLanguage({ ...ctx.writer, language }, COLLECTION[kind], id, data)
}

/**
 * The local item a source id of this source was imported as, if it still exists (asked of the
 * database once a run). A venue or organizer in the trash is as good as deleted: no event may be
 * linked to it anew, so the link is resolved as it would be had the item been deleted.
 */
export async function mappedLocal(
  ctx: ItemContext,
  kind: ImportKind,
  sourceId: string,
): Promise<number | undefined> {
  const mapped = await ctx.mappings.find(kind, sourceId)
  if (!mapped) return undefined
  const { localId } = mapped
  const outsideTrash = LINKED_OUTSIDE_TRASH.includes(kind)
  return (await ctx.mappings.exists(kind, localId, () =>
    localExists(ctx, kind, localId, outsideTrash),
  ))
    ? localId
    : undefined
}

/** The first item of a kind with this name (default language), trashed ones aside. */
export async function localByName(
  ctx: ItemContext,
  kind: ImportKind,
  name: string,
): Promise<number | undefined> {
  const field = kind === 'event' ? 'title' : 'name'
  const where = AUTHORED.includes(kind)
    ? { and: [{ [field]: { equals: name } }, { status: { not_equals: 'trash' } }] }
    : { [field]: { equals: name } }
  const { docs } = await ctx.req.payload.find({
    ...options(ctx),
    collection: COLLECTION[kind],
    where,
    limit: 1,
    pagination: false,
    sort: 'id',
  })
  return docs[0]?.id as number | undefined
}

/**
 * The local category or tag of this name (default language, case aside) among the siblings under
 * `parent`: no other may be made beside it (docs/api.md §8), so a term an import would make there is
 * that one, whatever the source matches by.
 */
export async function localSibling(
  ctx: ItemContext,
  kind: 'category' | 'tag',
  name: string,
  parent: number,
): Promise<number | undefined> {
  const terms = COLLECTION[kind] as TermCollection
  await holdName(ctx.req, terms, DEFAULT_LANGUAGE, name)
  return sameNamedTerm(ctx.req, terms, [DEFAULT_LANGUAGE], name, parent)
}

/**
 * The local item a source item is when no mapping names it yet: an occurrence of a series already
 * imported, by its day; an event UID this site wrote, its event; and, for the kinds the source matches
 * by name (CSV, as upstream's importer), an event with the same title and start or an item of the same
 * name. Never by name otherwise: distinct iCalendar events may share a title and a time ("Busy"), and a
 * site's two categories named alike under two parents are two (a term that would be made beside one
 * of its name is that one: `localSibling`, once its parent is known).
 */
export async function matchLocal(ctx: ItemContext, item: SourceItem): Promise<number | undefined> {
  const byName = ctx.matchByName.includes(item.kind)
  if (item.kind !== 'event') return byName ? localByName(ctx, item.kind, item.data.name) : undefined
  const occurrence =
    item.data.occurrenceOf &&
    (await localOccurrence(ctx, item.data.occurrenceOf.parent.sourceId, item.data.occurrenceOf.day))
  if (occurrence !== undefined) return occurrence
  // A mirrored feed (a subscription) is another party's, refreshed unattended: were a UID naming one of
  // this site's events taken at its word, any feed could rewrite that event, trash it by leaving it
  // out and bring it back from the trash. Only an import someone starts by hand reads its own UIDs.
  const own = ctx.mirrored
    ? undefined
    : eventIdOfUid(
        item.sourceId,
        ctx.origins.map((origin) => new URL(origin).host),
      )
  if (own !== undefined && (await localExists(ctx, 'event', own))) return own
  if (!byName) return undefined
  const { docs } = await ctx.req.payload.find({
    ...options(ctx),
    collection: 'events',
    where: {
      and: [
        { title: { equals: item.data.title } },
        { startLocal: { equals: item.data.start } },
        { status: { not_equals: 'trash' } },
      ],
    },
    limit: 1,
    pagination: false,
    sort: 'id',
  })
  return docs[0]?.id
}

/** The local series' occurrence on a day, its first event being what the source's first event was imported as. */
async function localOccurrence(
  ctx: ItemContext,
  parentSourceId: string,
  day: string,
): Promise<number | undefined> {
  const parent = await mappedLocal(ctx, 'event', parentSourceId)
  if (parent === undefined) return undefined
  const { docs } = await ctx.req.payload.find({
    ...options(ctx),
    collection: 'events',
    where: {
      and: [
        { parent: { equals: parent } },
        { startLocal: { greater_than_equal: `${day} 00:00:00` } },
        { startLocal: { less_than_equal: `${day} 23:59:59` } },
        { status: { not_equals: 'trash' } },
      ],
    },
    limit: 1,
    pagination: false,
    sort: 'startLocal',
  })
  return docs[0]?.id
}
