import { holdUntilCommit } from '../database/exclusive'
import type { Reader } from './reader'

/**
 * Writes that look an item up by name and then create one or refuse (a term's duplicate name, a term
 * or an inline venue or organizer named by an event) take turns per name in the caller's language:
 * two at once each found none, and two items of one name were made.
 */
export function holdName(reader: Reader, collection: string, name: string): Promise<void> {
  return holdUntilCommit(
    reader.req,
    `name:${collection}:${reader.language}:${name.trim().toLowerCase()}`,
  )
}
