import type { CollectionSlug } from 'payload'
import { writtenIdOf } from '../calendar/relationId'
import { existingRows } from '../database/existingRows'
import type { Reader } from './reader'

type Reference = { param: string; collection: CollectionSlug; ids: number[] }

function idsIn(value: unknown): number[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
  // Only what could be an id: other numbers reach here only on routes without such a field (loose bodies).
  return list.filter(
    (entry): entry is number =>
      Number.isInteger(entry) && (entry as number) > 0 && (entry as number) <= 2_147_483_647,
  )
}

/**
 * Records a write names by id must exist: checked during validation, after the permission check
 * (docs/api.md §2), so only a caller who may write learns which ids exist. One statement for all of
 * them, where Payload's finds took one each.
 */
export async function missingReferences(
  reader: Reader,
  params: Record<string, unknown>,
): Promise<Record<string, string>> {
  const image = typeof params.image === 'string' ? writtenIdOf(params.image) : undefined
  const named: Reference[] = [
    { param: 'author', collection: 'users', ids: idsIn(params.author) },
    { param: 'venue', collection: 'venues', ids: idsIn(params.venue) },
    { param: 'organizer', collection: 'organizers', ids: idsIn(params.organizer) },
    { param: 'parent', collection: 'events', ids: idsIn(params.parent) },
    {
      param: 'image',
      collection: 'media',
      ids: image === undefined ? idsIn(params.image) : [image],
    },
  ]
  const references = named.filter((reference) => reference.ids.length)
  const found = await existingRows(reader.req, references)
  const invalid: Record<string, string> = {}
  for (const { param, collection, ids } of references) {
    const missing = ids.filter((id) => !found.get(collection)?.has(id))
    if (missing.length) invalid[param] = `No such ${param}: ${missing.join(', ')}.`
  }
  return invalid
}
