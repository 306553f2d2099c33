import {
  ValidationError,
  type CollectionBeforeChangeHook,
  type CollectionBeforeOperationHook,
  type PayloadRequest,
  type Where,
} from 'payload'
import { idOf } from '../../calendar/relationId'
import {
  holdNames,
  namesOfTerms,
  sameNamedTerm,
  type TermCollection,
} from '../../database/terms/sameName'
import { DEFAULT_LANGUAGE } from '../../i18n/languages'
import { reachableWhere } from './reach'
import { idsOf } from './rowLocks'

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

function nameTaken(req: PayloadRequest, terms: TermCollection, taken: number): ValidationError {
  const refusal = new ValidationError(
    { collection: terms, errors: [{ path: 'name', message: TERM_EXISTS }] },
    req.t,
  )
  return Object.assign(refusal, { [TAKEN]: taken })
}

const languageOf = (req: PayloadRequest): string =>
  req.locale && req.locale !== 'all' ? req.locale : DEFAULT_LANGUAGE

/** The write's language, and for a create in another the default one too (`fillDefaultLanguage` copies the name there). */
function languagesOf(req: PayloadRequest, operation: 'create' | 'update'): string[] {
  return operation === 'create' ? [languageOf(req), DEFAULT_LANGUAGE] : [languageOf(req)]
}

const sameName = (a: unknown, b: unknown) =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.trim().toLowerCase() === b.trim().toLowerCase()

/**
 * A term's create or update takes its name's turn before anything else of the write (before its
 * slug's, which a field takes), so that every writer of a name takes the two in one order; and a
 * bulk update that would give two of the terms it writes one name among the same siblings (the
 * admin's list *Edit* of two tags to "Rock", or two "Jazz" categories moved under one parent) is
 * refused whole: Payload writes a bulk update's items side by side in one transaction, where each
 * item's own check sees the others as they were.
 */
export const termNamesInTurn: CollectionBeforeOperationHook = async ({
  args,
  collection,
  operation,
  req,
}) => {
  if ((operation !== 'create' && operation !== 'update') || req.context[MOVING_UP]) return args
  const terms = collection.slug as TermCollection
  const call = args as {
    id?: number | string
    where?: Where
    data?: Record<string, unknown>
    overrideAccess?: boolean
  }
  const data = call.data ?? {}
  if (typeof data.name === 'string')
    await holdNames(req, terms, languagesOf(req, operation), data.name)
  if (operation !== 'update' || call.id !== undefined || !call.where) return args
  if (typeof data.name !== 'string' && !('parent' in data)) return args
  // Asked of what the caller may write alone: anyone else is refused by Payload after this hook.
  const reach = await reachableWhere(collection, 'update', req, call)
  if (!reach) return args
  const ids = (await idsOf(req, terms, reach, req.locale)).map(Number)
  const seen = new Map<string, number>()
  for (const term of await namesOfTerms(req, terms, ids, languageOf(req))) {
    const name = typeof data.name === 'string' ? data.name : term.name
    if (typeof name !== 'string') continue
    const parent =
      terms === 'event-categories' && 'parent' in data ? (idOf(data.parent) ?? 0) : term.parent
    const key = `${parent}:${name.trim().toLowerCase()}`
    const other = seen.get(key)
    if (other !== undefined) throw nameTaken(req, terms, other)
    seen.set(key, term.id)
  }
  return args
}

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
  if (req.context[MOVING_UP]) return data
  const terms = collection.slug as TermCollection
  const parentOf = (doc: Record<string, unknown> | undefined) =>
    terms === 'event-categories' ? (idOf(doc?.parent) ?? 0) : 0
  const parent = 'parent' in data ? parentOf(data) : parentOf(originalDoc)
  const moved = operation === 'update' && parent !== parentOf(originalDoc)
  const value: unknown = data.name ?? originalDoc?.name
  // Written in every language at once (`locale=all`), the name is an object of them.
  const names: [string[], unknown, unknown][] =
    value !== null && typeof value === 'object'
      ? Object.entries(value).map(([code, name]) => [
          [code],
          name,
          (originalDoc?.name as Record<string, unknown> | undefined)?.[code],
        ])
      : [[languagesOf(req, operation), value, await storedName(req, terms, originalDoc)]]
  for (const [languages, name, before] of names) {
    if (typeof name !== 'string' || !name.trim()) continue
    if (operation === 'update' && !moved && sameName(name, before)) continue
    const taken = await sameNamedTerm(req, terms, languages, name, parent, originalDoc?.id)
    if (taken !== undefined) throw nameTaken(req, terms, taken)
  }
  return data
}

/**
 * The name an update leaves as it was: the stored one in the write's language, else (a term not yet
 * translated, which the namespace's update gives its English name there) the English one.
 */
async function storedName(
  req: PayloadRequest,
  terms: TermCollection,
  originalDoc: Record<string, unknown> | undefined,
): Promise<unknown> {
  if (!originalDoc || originalDoc.name || !req.locale || req.locale === DEFAULT_LANGUAGE)
    return originalDoc?.name
  const [english] = await namesOfTerms(req, terms, [originalDoc.id as number], DEFAULT_LANGUAGE)
  return english?.name
}
