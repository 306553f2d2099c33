import {
  ValidationError,
  type CollectionBeforeChangeHook,
  type CollectionBeforeOperationHook,
  type PayloadRequest,
  type Where,
} from 'payload'
import { idOf } from '../../calendar/relationId'
import {
  everyNameOfTerms,
  namesOfTerms,
  sameNamedTerm,
  type TermCollection,
} from '../../database/terms/sameName'
import { holdInOrder, holdName, nameKey } from '../../database/nameLocks'
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGES } from '../../i18n/languages'
import { whileFlagged } from '../requestFlags'
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
export function keepingNames<T>(req: PayloadRequest, work: () => Promise<T>): Promise<T> {
  return whileFlagged(req, MOVING_UP, work)
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
  typeof a === 'string' && typeof b === 'string' && nameKey(a) === nameKey(b)

/**
 * A term's create or update takes its names' turns before anything else of the write: before its
 * row's (the terms take turns after this hook: `takingTurns` in `terms.ts`), its slug's and the
 * category tree's, so that every writer of a name (an event naming a term, an import adopting one)
 * takes them in one order. An update holds the name it writes, or a move the names it moves. A bulk
 * update that would give two of the terms it writes one name among the same siblings (the admin's
 * list *Edit* of two tags to "Rock", or two "Jazz" categories moved under one parent) is refused
 * whole: Payload writes a bulk update's items side by side in one transaction, where each item's
 * own check sees the others as they were. Someone who may not write terms holds nothing.
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
  const written = namesWritten(req, data.name)
  if (operation === 'create') {
    const allowed = call.overrideAccess || (await collection.access.create?.({ req, data }))
    if (allowed)
      await holdInOrder(
        req,
        terms,
        written.flatMap(([language, name]) => [
          [name, language] as const,
          [name, DEFAULT_LANGUAGE] as const,
        ]),
      )
    return args
  }
  const moves = terms === 'event-categories' && 'parent' in data
  if (!written.length && !moves) return args
  const reach = await reachableWhere(collection, 'update', req, call)
  if (!reach) return args
  const ids =
    call.id !== undefined
      ? [Number(call.id)]
      : (await idsOf(req, terms, reach, req.locale)).map(Number)
  const asked = written.length ? written : [[languageOf(req), undefined] as const]
  const target = moves ? (idOf(data.parent) ?? 0) : undefined
  // A bulk edit's terms already under the parent it sends: they move nowhere.
  const staying = new Set<number>()
  const held: [string, string][] = []
  for (const [language, name] of asked) {
    // One item's new name is all there is to hold; its stored names only where it moves or it is one of several.
    if (name !== undefined && call.id !== undefined) {
      held.push([nameKey(name), language])
      continue
    }
    const seen = new Map<string, number>()
    for (const term of await namesOfTerms(req, terms, ids, language)) {
      if (target === term.parent) staying.add(term.id)
      const after = name ?? term.name
      if (typeof after !== 'string') continue
      held.push([nameKey(after), language])
      if (call.id !== undefined) continue
      // Two terms the edit neither renames nor moves were siblings of one name before it (a parent's
      // delete moves children up with their names): not the edit's to refuse. One it changes meets
      // them in its own check (`termNameIsFree`); only the changed ones can meet each other unseen.
      const moving = target !== undefined && !staying.has(term.id)
      if (!moving && sameName(after, term.name)) continue
      const key = `${target ?? term.parent}:${nameKey(after)}`
      const other = seen.get(key)
      if (other !== undefined) throw nameTaken(req, terms, other)
      seen.set(key, term.id)
    }
  }
  // A move takes the term's names in every language along: each must be free among its new siblings.
  if (moves) {
    const asking = new Set(asked.map(([language]) => language))
    const seen = new Map<string, number>()
    for (const term of await everyNameOfTerms(req, terms, ids)) {
      if (asking.has(term.language) || staying.has(term.id)) continue
      held.push([nameKey(term.name), term.language])
      if (call.id !== undefined) continue
      const key = `${term.language}:${nameKey(term.name)}`
      const other = seen.get(key)
      if (other !== undefined) throw nameTaken(req, terms, other)
      seen.set(key, term.id)
    }
  }
  await holdInOrder(req, terms, held)
  return args
}

/**
 * The names a write gives, by language: the request's for a name, each configured language's for
 * the object of them a write in every language at once (`locale=all`) sends; keys that are no
 * language of the site are Payload's to refuse, not names to ask about.
 */
function namesWritten(req: PayloadRequest, value: unknown): (readonly [string, string])[] {
  if (typeof value === 'string') return value.trim() ? [[languageOf(req), value]] : []
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).filter(
    (entry): entry is [string, string] =>
      isLanguageCode(entry[0]) && typeof entry[1] === 'string' && entry[1].trim() !== '',
  )
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
      ? namesWritten(req, value).map(([code, name]) => [
          [code],
          name,
          (originalDoc?.name as Record<string, unknown> | undefined)?.[code],
        ])
      : [[languagesOf(req, operation), value, await storedName(req, terms, originalDoc)]]
  for (const [languages, name, before] of names) {
    if (typeof name !== 'string' || !name.trim()) continue
    if (operation === 'update' && !moved && sameName(name, before)) continue
    // Held already by `termNamesInTurn`, but for a duplicate, whose name only its own hooks give.
    await holdInOrder(
      req,
      terms,
      languages.map((language) => [name, language] as const),
    )
    const taken = await sameNamedTerm(req, terms, languages, name, parent, originalDoc?.id)
    if (taken !== undefined) throw nameTaken(req, terms, taken)
  }
  if (moved) await movedNamesAreFree(req, terms, names, parent, Number(originalDoc!.id))
  return data
}

/** A moved category's names in the languages the write does not name, each asked among its new siblings. */
async function movedNamesAreFree(
  req: PayloadRequest,
  terms: TermCollection,
  written: [string[], unknown, unknown][],
  parent: number,
  id: number,
): Promise<void> {
  const asked = new Set(written.flatMap(([languages]) => languages))
  for (const { language, name } of await everyNameOfTerms(req, terms, [id])) {
    if (asked.has(language)) continue
    await holdName(req, terms, language, name)
    const taken = await sameNamedTerm(req, terms, [language], name, parent, id)
    if (taken !== undefined) throw nameTaken(req, terms, taken)
  }
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

/** Copies named before one refusal is left to `termNameIsFree` to answer. */
const COPY_NAMES_TRIED = 50

/**
 * A duplicate's name, as Payload names a unique field's copy ("Jazz - Copy"), numbered past the
 * copies its siblings have already ("Jazz - Copy 2"): a second duplicate of a term was refused for the
 * first one's name. Asked in every language, since the hook is not told which language it names.
 */
export async function nameOfCopy(
  req: PayloadRequest,
  terms: TermCollection,
  name: string,
  parent: number,
  mayCreate: boolean,
): Promise<string> {
  const copy = `${name} - ${req.t('general:copy')}`
  // Payload names the copy before it asks whether the caller may create one: no lookups for a refusal.
  if (!mayCreate) return copy
  const languages = LANGUAGES.map(({ code }) => code)
  for (let number = 1; number <= COPY_NAMES_TRIED; number++) {
    const candidate = number === 1 ? copy : `${copy} ${number}`
    if ((await sameNamedTerm(req, terms, languages, candidate, parent)) === undefined)
      return candidate
  }
  return copy
}
