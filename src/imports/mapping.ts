/**
 * The import mapping: which local item each source's item became, and the content hash it was last
 * imported with. A plain table rather than a Payload collection: it is bookkeeping, not content (no
 * admin screen, access rules, hooks, languages or change feed to pay for on every item); each row is
 * written with one upsert inside the imported item's own transaction, so an item and its mapping
 * commit together or not at all. Its table is made by the calendar's schema migration
 * (`src/migrations/calendarSchema/records.ts`).
 */
import { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'
import { rawQuery, requestQuery } from '../database/rawQuery'
import type { ImportKind } from './items'

/** A source item's local item; `hash` is null for items made from a link, whose content was never imported. */
export type Mapping = { localId: number; hash: string | null }

/** What is mapped: the items, and the images they link (by URL), so an image is downloaded once per source. */
export type MappedKind = ImportKind | 'image'

export async function findMapping(
  req: PayloadRequest,
  source: string,
  kind: MappedKind,
  sourceId: string,
): Promise<Mapping | undefined> {
  const rows = await requestQuery<{ local_id: number; hash: string | null }>(
    req,
    sql`select local_id, hash from calendar_import_map where source = ${source} and kind = ${kind} and source_id = ${sourceId}`,
  )
  return rows[0] && { localId: rows[0].local_id, hash: rows[0].hash }
}

export async function recordMapping(
  req: PayloadRequest,
  source: string,
  kind: MappedKind,
  sourceId: string,
  mapping: Mapping,
): Promise<void> {
  await requestQuery(
    req,
    sql`insert into calendar_import_map (source, kind, source_id, local_id, hash) values (${source}, ${kind}, ${sourceId}, ${mapping.localId}, ${mapping.hash})
        on conflict (source, kind, source_id) do update set local_id = excluded.local_id, hash = excluded.hash, imported_at = now()`,
  )
}

/** The mappings of many items of a source, in one statement: `${kind} ${sourceId}` → its mapping. */
export async function mappingsOfItems(
  req: PayloadRequest,
  source: string,
  keys: { kind: MappedKind; sourceId: string }[],
): Promise<Map<string, Mapping>> {
  const found = new Map<string, Mapping>()
  if (!keys.length) return found
  const rows = await requestQuery<{
    kind: string
    source_id: string
    local_id: number
    hash: string | null
  }>(
    req,
    sql`select m.kind, m.source_id, m.local_id, m.hash from calendar_import_map m
        join jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k("kind" text, "sourceId" text)
          on m.kind = k."kind" and m.source_id = k."sourceId"
        where m.source = ${source}`,
  )
  for (const row of rows)
    found.set(mappingKey(row.kind as MappedKind, row.source_id), {
      localId: row.local_id,
      hash: row.hash,
    })
  return found
}

export const mappingKey = (kind: MappedKind, sourceId: string) => `${kind} ${sourceId}`

/** Every item of a kind a source has imported: its source id and local id. */
export async function mappingsOf(
  payload: Payload,
  source: string,
  kind: ImportKind,
): Promise<{ sourceId: string; localId: number }[]> {
  const rows = await rawQuery<{ source_id: string; local_id: number }>(
    payload,
    sql`select source_id, local_id from calendar_import_map where source = ${source} and kind = ${kind} order by imported_at`,
  )
  return rows.map((row) => ({ sourceId: row.source_id, localId: row.local_id }))
}
