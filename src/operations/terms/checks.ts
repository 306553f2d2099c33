import type { TermResource } from '../../calendar/resources'
import { BELOW_ITSELF, belowItself } from '../../collections/fields/categoryParent'
import { TERM_EXISTS, termWithTakenName } from '../../collections/hooks/termNames'
import { existingIds } from '../read'
import type { Reader } from '../reader'
import { Refusal } from '../refusal'

/** The validated fields of a write to a category or tag; a field left out is left as it is. */
export type TermInput = {
  id?: number
  name?: string
  description?: string
  slug?: string
  parent?: unknown
  /** The developers' fields, read by their types (`rest/schemas/customFields.ts`). */
  custom?: Record<string, unknown>
}

/** Checks against stored data, after the permission check: the term being changed and the parent named must exist. */
export async function invalidTermWrite(
  reader: Reader,
  terms: TermResource,
  input: TermInput,
): Promise<Record<string, string>> {
  const invalid: Record<string, string> = {}
  if (input.id !== undefined && !(await existingIds(reader, terms.collection, [input.id])).size)
    invalid.id = `No ${terms.singular} has this id.`
  const parent = Number(input.parent ?? 0)
  if (parent > 0 && !(await existingIds(reader, terms.collection, [parent])).size)
    invalid.parent = 'No such category.'
  else if (
    parent > 0 &&
    input.id !== undefined &&
    (await belowItself(reader.req, input.id, parent))
  )
    invalid.parent = BELOW_ITSELF
  return invalid
}

/**
 * A write of a name its siblings have, refused by the collection whichever door writes
 * (`termNameIsFree`), is the namespace's 400 `term_exists` carrying the term that has it (WordPress
 * core); tags are all siblings.
 */
export async function refusingTakenNames<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    const taken = termWithTakenName(error)
    if (taken === undefined) throw error
    throw new Refusal('term_exists', TERM_EXISTS, 400, { term_id: taken })
  }
}

/** Payload data of a term from the fields that were sent. */
export function termData(input: TermInput): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  if (input.name !== undefined) data.name = input.name
  if (input.description !== undefined) data.description = input.description
  if (input.slug !== undefined) data.slug = input.slug
  if (input.parent !== undefined) data.parent = Number(input.parent) || null
  return { ...data, ...input.custom }
}
