import { resourceOf } from '../../calendar/resources'
import { renameExactly } from '../../collections/fields/slug'
import { inTransaction } from '../../database/transaction'
import { updateInLanguage } from '../localizedWrite'
import type { Writer } from '../writer'
import type { InputOf } from './input'
import { dataOf, written, type AuthoredItem, type AuthoredKind, type Written } from './item'

/** Why a rename to a slug another item of the kind has in the language is refused. */
export const slugTakenRefusal = (kind: AuthoredKind): string =>
  `Another ${resourceOf(kind).singular} has this slug in this language.`

/** A partial update in the caller's language: omitted fields keep their values (docs/api.md §6.1). */
export async function updateAuthored<K extends AuthoredKind>(
  writer: Writer,
  kind: K,
  stored: AuthoredItem,
  input: InputOf[K],
): Promise<Written> {
  if (input.slug !== undefined) renameExactly(writer.req, kind, stored.id, slugTakenRefusal(kind))
  const answer = await inTransaction(writer.req, async () =>
    updateInLanguage(writer, kind, stored.id, await dataOf(writer, kind, input, stored)),
  )
  return written(writer, kind, answer)
}
