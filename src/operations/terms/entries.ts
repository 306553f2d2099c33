import { revisionCacheOf } from '../../calendar/caches'
import { termIds } from '../../database/terms/termIds'
import type { Reader } from '../reader'

/**
 * Category or tag ids from entries that are ids or slugs (docs/api.md §4.1): returns the ids and the
 * entries that name no term, once per content revision (whoever asks: terms are read without access
 * rules). Entries that are all ids take one statement of `termIds`; slugs are looked up by Payload in
 * the request language, then in English. With `subcategories`, the ids are the categories found and
 * every category below them, at any depth: a category filter lists the events filed under its
 * subcategories too, as WordPress's taxonomy queries do for hierarchical taxonomies (in the same
 * statement for ids, one more after slugs; kept with the rest).
 */
export function resolveTermEntries(
  reader: Reader,
  collection: 'event-categories' | 'event-tags',
  entries: string[],
  { subcategories = false } = {},
): Promise<{ ids: number[]; unknown: string[] }> {
  // Ids name the same terms in every language: one lookup serves them all.
  const byId = entries.every(isId)
  const key = byId
    ? `term-ids:${collection}:${entries.join(',')}`
    : `term-entries:${collection}:${reader.language}:${JSON.stringify(entries)}`
  return revisionCacheOf(reader.req.payload, 'revision').get(
    reader.revision,
    subcategories ? `${key}:subcategories` : key,
    async () => {
      if (byId) return existingTermIds(reader, collection, entries, subcategories)
      const found = await lookUpTermEntries(reader, collection, entries)
      if (!subcategories || !found.ids.length) return found
      const tree = await termIds(reader.req, collection, found.ids, { subcategories })
      return { ...found, ids: tree.ids }
    },
  )
}

const isId = (entry: string) => /^\d+$/.test(entry)

/** Ids are PostgreSQL integers: a larger number names no term (and must not reach the query). */
const storable = (entry: string) => Number(entry) <= 2_147_483_647

/** Which of these id entries name terms, and with `subcategories` the categories below them. */
async function existingTermIds(
  reader: Reader,
  collection: 'event-categories' | 'event-tags',
  entries: string[],
  subcategories: boolean,
): Promise<{ ids: number[]; unknown: string[] }> {
  const given = [...new Set(entries.filter(storable).map(Number))]
  const { found, ids } = await termIds(reader.req, collection, given, { subcategories })
  const known = new Set(found)
  return { ids, unknown: entries.filter((entry) => !known.has(Number(entry))) }
}

async function lookUpTermEntries(
  reader: Reader,
  collection: 'event-categories' | 'event-tags',
  entries: string[],
): Promise<{ ids: number[]; unknown: string[] }> {
  const numeric = entries.filter(isId).filter(storable).map(Number)
  const ids = new Set<number>()
  const slugs = new Map<string, number>()
  for (const locale of new Set([reader.language, 'en'] as const)) {
    const wanted = entries.filter((entry) => !isId(entry) && !slugs.has(entry))
    const { docs } = await reader.req.payload.find({
      collection,
      req: reader.req,
      locale,
      depth: 0,
      pagination: false,
      select: { slug: true },
      where: {
        or: [
          { id: { in: numeric.length ? numeric : [0] } },
          { slug: { in: wanted.length ? wanted : [''] } },
        ],
      },
    })
    for (const doc of docs) {
      if (numeric.includes(doc.id)) ids.add(doc.id)
      if (doc.slug && wanted.includes(doc.slug)) slugs.set(doc.slug, doc.id)
    }
    if (entries.every((entry) => ids.has(Number(entry)) || slugs.has(entry))) break
  }
  for (const id of slugs.values()) ids.add(id)
  const unknown = entries.filter((entry) => !ids.has(Number(entry)) && !slugs.has(entry))
  return { ids: [...ids], unknown }
}
