import type { PayloadRequest } from 'payload'
import { holdUntilCommit } from './exclusive'

/** A name as names are compared and held: case aside, without the spaces around it. */
export const nameKey = (name: string): string => name.trim().toLowerCase()

/**
 * Writes that look an item up by name and then create one or refuse (a term's duplicate name, a term
 * or an inline venue or organizer named by an event) take turns per name and language: two at once
 * each found none, and two items of one name were made.
 */
export function holdName(
  req: PayloadRequest,
  collection: string,
  language: string,
  name: string,
): Promise<void> {
  return holdUntilCommit(req, `name:${collection}:${language}:${nameKey(name)}`)
}
