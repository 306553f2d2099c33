import type { PayloadRequest } from 'payload'
import { holdUntilCommit } from './exclusive'

/** A name as names are compared and held: case aside, without the spaces around it. */
export const nameKey = (name: string): string => name.trim().toLowerCase()

const lockKey = (collection: string, language: string, name: string) =>
  `name:${collection}:${language}:${nameKey(name)}`

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
  return holdUntilCommit(req, lockKey(collection, language, name))
}

/**
 * Holds these names' turns, `[name, language]` pairs, in the one order every writer that holds
 * several takes them: their keys' order by code unit (not the process's locale, which another process
 * may not share), so that two writes never wait on each other in a circle.
 */
export async function holdInOrder(
  req: PayloadRequest,
  collection: string,
  names: (readonly [string, string])[],
): Promise<void> {
  const keys = new Set(names.map(([name, language]) => lockKey(collection, language, name)))
  for (const key of [...keys].sort()) await holdUntilCommit(req, key)
}
