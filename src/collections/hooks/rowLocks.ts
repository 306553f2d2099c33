import { sql } from '@payloadcms/db-postgres'
import { inArray, type Table } from '@payloadcms/db-postgres/drizzle'
import type {
  CollectionBeforeOperationHook,
  CollectionSlug,
  Payload,
  PayloadRequest,
  Where,
} from 'payload'
import { reachableWhere } from './reach'
import { requestQuery } from '../../database/rawQuery'
import { isStoredId } from '../../database/unreadableValues'
import { tableNameOf, tableOf } from '../../database/seriesCopy'

type Id = number | string
type Column = Parameters<typeof inArray>[0] & { dataType?: string }
/** What an update must hold before its items' rows: given their ids and what the update writes. */
type First = (req: PayloadRequest, ids: number[], data: Record<string, unknown>) => Promise<void>

const TAKES_TURNS = Symbol('takes turns')

/** The ids a bulk write reaches within the caller's access (`reach`): none is read past it. */
export async function idsOf(req: PayloadRequest, slug: string, where: Where, locale?: string) {
  const { docs } = await req.payload.find({
    collection: slug as CollectionSlug,
    where,
    req,
    overrideAccess: true,
    pagination: false,
    depth: 0,
    select: {},
    ...(locale ? { locale: locale as 'all' } : {}),
  })
  return docs.map((doc) => doc.id as Id)
}

/**
 * Updates of one item take turns from their read (docs/api.md §11, "Writes at once"). Payload's
 * update reads the stored item, then writes its whole row and translation back from that read: two
 * updates at once each wrote back what the other had just changed, and one writer's acknowledged
 * change was gone. Versioned items happened to wait on their latest version (`guardDrafts`), but
 * terms, occurrences and single events that keep no version, and bulk updates (the admin's list
 * *Edit*, *Publish*), did not. So an update first holds its items' rows (`for no key update`, which
 * links to them do not wait for), in order of id, to the end of its transaction; the other writer's
 * read then comes after this one's commit. `first` takes what must be held before the rows, in the
 * same order for every writer, by id as in bulk (an event's series' lock: `seriesLock.ts`; the
 * events a trashed venue or organizer leaves: `trashedLinks.ts`).
 */
export function takingTurns(first?: First): CollectionBeforeOperationHook {
  const hook: CollectionBeforeOperationHook = async ({ args, collection, operation, req }) => {
    if (operation !== 'update') return args
    const call = args as {
      id?: Id
      where?: Where
      locale?: string
      overrideAccess?: boolean
      data?: Record<string, unknown>
    }
    const table = tableOf(req, tableNameOf(req.payload, collection.slug))
    if (!table) return args
    const byId = call.id !== undefined
    // A caller who may write nothing here holds nothing: Payload refuses them after this hook.
    const reach = await reachableWhere(collection, 'update', req, call)
    if (!reach) return args
    const ids = byId
      ? [call.id!]
      : call.where
        ? await idsOf(req, collection.slug, reach, call.locale)
        : []
    if (!ids.length) return args
    if (first) await first(req, ids.map(Number), call.data ?? {})
    await holdRows(req, table, ids)
    return args
  }
  return Object.assign(hook, { [TAKES_TURNS]: true })
}

/**
 * Holds the rows of `ids` in `table` to the end of the request's transaction, in order of id, as an
 * update holds them (`takingTurns`), and answers what they store of `columns` once held: what the
 * writer before committed.
 */
export async function holdRows<Row>(
  req: PayloadRequest,
  table: Table,
  ids: Id[],
  columns: string[] = [],
): Promise<Row[]> {
  const column = (table as unknown as { id: Column }).id
  // An id that names no item is Payload's to refuse (its read finds nothing), not this statement's.
  const known = column.dataType === 'number' ? ids.filter(isStoredId).map(Number) : ids.map(String)
  if (!known.length) return []
  const stored = columns.map((name) => sql`, ${sql.identifier(name)}`)
  return requestQuery<Row>(
    req,
    sql`select ${column}${sql.join(stored)} from ${table} where ${inArray(column, known)} order by 1 for no key update`,
  )
}

/**
 * Every collection's updates take turns (`takingTurns`), a developer's too, but Payload's own
 * (`payload-…`: jobs, preferences, locks, migrations), which Payload writes on its own terms. A
 * collection that takes turns already, at a place of its own in its hooks (events, after their
 * series' lock), keeps it.
 */
export function takeTurnsOnUpdates(payload: Payload): void {
  const turns = takingTurns()
  for (const { config } of Object.values(payload.collections)) {
    if (config.slug.startsWith('payload-')) continue
    const hooks = config.hooks.beforeOperation ?? []
    if (hooks.some((hook) => TAKES_TURNS in hook)) continue
    config.hooks.beforeOperation = [turns, ...hooks]
  }
}
