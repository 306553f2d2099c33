import { inTransaction } from '../../database/transaction'
import { updateInLanguage } from '../localizedWrite'
import type { Writer } from '../writer'
import type { InputOf } from './input'
import { dataOf, written, type AuthoredItem, type AuthoredKind, type Written } from './item'

/** A partial update in the caller's language: omitted fields keep their values (docs/api.md §6.1). */
export async function updateAuthored<K extends AuthoredKind>(
  writer: Writer,
  kind: K,
  stored: AuthoredItem,
  input: InputOf[K],
): Promise<Written> {
  const answer = await inTransaction(writer.req, async () =>
    updateInLanguage(writer, kind, stored.id, await dataOf(writer, kind, input, stored)),
  )
  return written(writer, kind, answer)
}
