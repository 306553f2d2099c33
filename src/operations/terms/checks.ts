import type { TermResource } from '../../calendar/resources'
import { BELOW_ITSELF, belowItself } from '../../collections/fields/categoryParent'
import { idOf } from '../../calendar/relationId'
import { escapeLike, existingIds } from '../read'
import { holdName } from '../nameLocks'
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
 * A name already used among the term's siblings is a 400 `term_exists` carrying the existing id
 * (WordPress core); tags are all siblings.
 */
export async function refuseDuplicateName(
  reader: Reader,
  terms: TermResource,
  name: string,
  parent: number,
  self?: number,
): Promise<void> {
  await holdName(reader, terms.collection, name)
  const { docs } = await reader.req.payload.find({
    collection: terms.collection,
    req: reader.req,
    locale: reader.language,
    depth: 0,
    pagination: false,
    where: { name: { like: escapeLike(name) } },
    select: { name: true, ...(terms.singular === 'category' ? { parent: true } : {}) } as never,
  })
  const clash = (docs as { id: number; name?: string; parent?: unknown }[]).find(
    (doc) =>
      doc.id !== self &&
      (idOf(doc.parent) ?? 0) === parent &&
      doc.name?.trim().toLowerCase() === name.trim().toLowerCase(),
  )
  if (clash)
    throw new Refusal(
      'term_exists',
      'A term with the name provided already exists with this parent.',
      400,
      { term_id: clash.id },
    )
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
