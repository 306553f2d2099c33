/**
 * The local side of an import: the collection of each kind, how an item is found when no mapping
 * names it, and the writes. Every call joins the item's transaction (`ctx.req`) and overrides access:
 * a run is started by an administrator (the admin's imports) or the operator (the CLI).
 */
import type { CollectionSlug, PayloadRequest, TypedLocale } from 'payload'
import { eventIdOfUid } from '../calendar/eventUid'
import { DEFAULT_LANGUAGE } from '../i18n/languages'
import type { ImportKind, SourceItem } from './items'

/** What one item's import knows besides the item. */
export type ItemContext = {
  /** The item's own request: its transaction holds the item, the items made from its links and their mappings. */
  req: PayloadRequest
  /** The source's name in the mapping table. */
  source: string
  /** The status of the events, venues and organizers the run creates. */
  status: 'publish' | 'draft'
  /** The site's zone, for events without their own. */
  siteZone: string
  /** The origins this site answers on (`https://events.example.org`): its own media and event UIDs. */
  origins: string[]
  /** Items made from this item's links, counted as created once the item commits. */
  madeFromLinks: ImportKind[]
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

const options = (ctx: ItemContext) => ({ req: ctx.req, overrideAccess: true, depth: 0, locale: DEFAULT_LANGUAGE as TypedLocale }) as const

export async function readLocal(ctx: ItemContext, kind: ImportKind, id: number): Promise<StoredItem | undefined> {
  const doc = await ctx.req.payload.findByID({ ...options(ctx), collection: COLLECTION[kind], id, disableErrors: true, fallbackLocale: false })
  return (doc ?? undefined) as StoredItem | undefined
}

export async function localExists(ctx: ItemContext, kind: ImportKind, id: number): Promise<boolean> {
  const { totalDocs } = await ctx.req.payload.count({ ...options(ctx), collection: COLLECTION[kind], where: { id: { equals: id } } })
  return totalDocs > 0
}

export async function createLocal(ctx: ItemContext, kind: ImportKind, data: Record<string, unknown>): Promise<number> {
  const status = AUTHORED.includes(kind) ? { status: ctx.status } : {}
  const doc = await ctx.req.payload.create({ ...options(ctx), collection: COLLECTION[kind], data: { ...data, ...status } as never })
  return doc.id as number
}

export async function updateLocal(ctx: ItemContext, kind: ImportKind, id: number, data: Record<string, unknown>): Promise<void> {
  await ctx.req.payload.update({ ...options(ctx), collection: COLLECTION[kind], id, data: data as never })
}

/** The first item of a kind with this name (default language), trashed ones aside. */
export async function localByName(ctx: ItemContext, kind: ImportKind, name: string): Promise<number | undefined> {
  const field = kind === 'event' ? 'title' : 'name'
  const where = AUTHORED.includes(kind) ? { and: [{ [field]: { equals: name } }, { status: { not_equals: 'trash' } }] } : { [field]: { equals: name } }
  const { docs } = await ctx.req.payload.find({ ...options(ctx), collection: COLLECTION[kind], where, limit: 1, pagination: false, sort: 'id' })
  return docs[0]?.id as number | undefined
}

/**
 * The local item a source item is when no mapping names it yet, so a first import adopts what the
 * calendar already has instead of duplicating it: an event UID this site wrote names its event; else,
 * as upstream's CSV importer matches, an event with the same title and start, or an item of the same name.
 */
export async function matchLocal(ctx: ItemContext, item: SourceItem): Promise<number | undefined> {
  if (item.kind !== 'event') return localByName(ctx, item.kind, item.data.name)
  const own = eventIdOfUid(
    item.sourceId,
    ctx.origins.map((origin) => new URL(origin).host),
  )
  if (own !== undefined && (await localExists(ctx, 'event', own))) return own
  const { docs } = await ctx.req.payload.find({
    ...options(ctx),
    collection: 'events',
    where: { and: [{ title: { equals: item.data.title } }, { startLocal: { equals: item.data.start } }, { status: { not_equals: 'trash' } }] },
    limit: 1,
    pagination: false,
    sort: 'id',
  })
  return docs[0]?.id
}
