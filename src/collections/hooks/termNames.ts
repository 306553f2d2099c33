import { ValidationError, type CollectionBeforeChangeHook, type PayloadRequest } from 'payload'
import { idOf } from '../../calendar/relationId'
import { sameNamedTerm, type TermCollection } from '../../database/terms/sameName'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'

export const TERM_EXISTS = 'A term with the name provided already exists with this parent.'

const TAKEN = Symbol('the term that has the name')

/** The term that has the name a write was refused for (`termNameIsFree`), if that was the refusal. */
export function termWithTakenName(error: unknown): number | undefined {
  return (error as { [TAKEN]?: number } | null)?.[TAKEN]
}

const MOVING_UP = 'calendar:childrenMovingUp'

/**
 * Runs `work` (a deleted category's children moved up to its parent) without asking their names:
 * WordPress moves them whatever their new siblings are called, and a delete refused for a name
 * would leave an editor unable to remove a category.
 */
export async function keepingNames<T>(req: PayloadRequest, work: () => Promise<T>): Promise<T> {
  req.context[MOVING_UP] = true
  try {
    return await work()
  } finally {
    delete req.context[MOVING_UP]
  }
}

const sameName = (a: unknown, b: unknown) =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.trim().toLowerCase() === b.trim().toLowerCase()

/**
 * No two categories under one parent, and no two tags, share a name in a language (WordPress's
 * `term_exists`), whichever door writes: the namespace answered `term_exists` while Payload's REST,
 * GraphQL and the admin stored the second "Jazz" (docs/api.md §8). A name or a parent that a write
 * leaves as it was is not asked again, so a term stored before this rule can still be edited. A
 * record made in another language takes its values as the default language's too
 * (`fillDefaultLanguage`), so its name must be free there as well. A deleted category's children
 * keep their names where they move (`keepingNames`). Payload answers the refusal as
 * its 400 naming `name`; the namespace as `term_exists` with the term that has it.
 */
export const termNameIsFree: CollectionBeforeChangeHook = async ({
  collection,
  data,
  originalDoc,
  operation,
  req,
}) => {
  const terms = collection.slug as TermCollection
  const parentOf = (doc: Record<string, unknown> | undefined) =>
    terms === 'event-categories' ? (idOf(doc?.parent) ?? 0) : 0
  const parent = 'parent' in data ? parentOf(data) : parentOf(originalDoc)
  const value: unknown = data.name ?? originalDoc?.name
  const language = req.locale && req.locale !== 'all' ? req.locale : DEFAULT_LANGUAGE
  // Written in every language at once (`locale=all`), the name is an object of them.
  const names: [string[], unknown][] =
    value !== null && typeof value === 'object'
      ? Object.entries(value).map(([code, name]) => [[code], name])
      : [[operation === 'create' ? [language, DEFAULT_LANGUAGE] : [language], value]]
  const unchanged =
    operation === 'update' && sameName(value, originalDoc?.name) && parent === parentOf(originalDoc)
  if (unchanged || req.context[MOVING_UP]) return data
  for (const [languages, name] of names) {
    if (typeof name !== 'string' || !name.trim()) continue
    const taken = await sameNamedTerm(req, terms, languages, name, parent, originalDoc?.id)
    if (taken === undefined) continue
    const refusal = new ValidationError(
      { collection: terms, errors: [{ path: 'name', message: TERM_EXISTS }] },
      req.t,
    )
    throw Object.assign(refusal, { [TAKEN]: taken })
  }
  return data
}
