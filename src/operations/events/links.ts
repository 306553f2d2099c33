import { capabilities } from '../../calendar/access/capabilities'
import type { LinkEntry, OrganizerInput, VenueInput } from '../authored/input'
import { createLinkedIn, type LinkedKind } from '../linked/create'
import { createInLanguage } from '../localizedWrite'
import { sameNamedTerm } from '../../database/terms/sameName'
import { holdInOrder } from '../../database/nameLocks'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'
import { readVisibility } from '../../calendar/access/readVisibility'
import { readableIds } from '../read'
import { Refusal } from '../refusal'
import { resolveTermEntries } from '../terms/entries'
import type { Writer } from '../writer'

function entries<T>(value: null | LinkEntry<T> | LinkEntry<T>[]): LinkEntry<T>[] {
  if (value === null) return []
  return Array.isArray(value) ? value : [value]
}

/**
 * Venue or organizer links of an event write, in order: ids must name existing records (400
 * otherwise, naming the parameter); inline objects are created or de-duplicated.
 */
export async function resolveLinks<T extends VenueInput | OrganizerInput>(
  writer: Writer,
  kind: LinkedKind,
  param: string,
  value: null | LinkEntry<T> | LinkEntry<T>[],
  eventStatus: string | undefined,
): Promise<number[]> {
  const list = entries(value)
  const ids = list.filter((entry): entry is number => typeof entry === 'number')
  // Validation found that every id exists (references.ts); a caller who reads every item reads them all.
  const found = readVisibility(writer.actor).every
    ? new Set(ids)
    : await readableIds(writer, kind, ids)
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length)
    throw Refusal.invalidParams({ [param]: `No such ${param}: ${missing.join(', ')}.` })
  const resolved: number[] = []
  for (const entry of list) {
    const id =
      typeof entry === 'number'
        ? entry
        : await inline(param, () => createLinkedIn(writer, kind, entry, eventStatus))
    if (!resolved.includes(id)) resolved.push(id)
  }
  return resolved
}

/** A problem inside an inline venue or organizer is reported under the event's parameter naming it. */
async function inline<T>(param: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!(error instanceof Refusal) || error.code !== 'rest_invalid_param') throw error
    const inner = Object.entries((error.data.params ?? {}) as Record<string, string>).map(
      ([name, message]) => `${name}: ${message}`,
    )
    throw Refusal.invalidParams({ [param]: inner.join(' ') || error.message })
  }
}

/**
 * Categories or tags of an event write: ids must exist; names and slugs are looked up and, when
 * unknown, created by callers who may manage terms (others get a 400 naming the parameter).
 */
export async function resolveTermLinks(
  writer: Writer,
  param: 'categories' | 'tags',
  names: string[],
): Promise<number[]> {
  const collection = param === 'categories' ? 'event-categories' : 'event-tags'
  const { ids, unknown } = await resolveTermEntries(writer, collection, names)
  const unknownIds = unknown.filter((entry) => /^\d+$/.test(entry))
  if (unknownIds.length)
    throw Refusal.invalidParams({ [param]: `No such term id: ${unknownIds.join(', ')}.` })
  const byName = unknown.filter((entry) => !/^\d+$/.test(entry))
  const created: number[] = []
  const languages = [writer.language, DEFAULT_LANGUAGE]
  // Every name's turn first, in the order a term's move or bulk edit takes them too.
  await holdInOrder(
    writer.req,
    collection,
    byName.flatMap((name) => languages.map((language) => [name, language] as const)),
  )
  for (const name of byName) {
    // The term a create of this name would be refused for (its top-level namesake, in this language
    // or in English, case aside) is the one named, as well as one of exactly this name anywhere.
    const existing = await writer.req.payload.find({
      collection,
      req: writer.req,
      locale: writer.language,
      where: { name: { equals: name } },
      limit: 1,
      depth: 0,
      pagination: false,
    })
    const found =
      existing.docs[0]?.id ?? (await sameNamedTerm(writer.req, collection, languages, name, 0))
    if (found !== undefined) {
      created.push(found)
      continue
    }
    if (!capabilities.manageTerms(writer.actor))
      throw Refusal.invalidParams({ [param]: `No such term, and you may not create it: ${name}.` })
    created.push((await createInLanguage(writer, collection, { name })).id)
  }
  return [...new Set([...ids, ...created])]
}
