import { idOf } from '../../calendar/relationId'
import type { TermResource } from '../../calendar/resources'
import { inTransaction } from '../../database/transaction'
import { updateInLanguage } from '../localizedWrite'
import type { Writer } from '../writer'
import { refuseDuplicateName, termData, type TermInput } from './checks'
import { findTermById } from './findOne'

/** A partial update of a category or tag in the caller's language; a new name its siblings have is refused. */
export async function updateTerm(
  writer: Writer,
  terms: TermResource,
  input: TermInput & { id: number },
): Promise<void> {
  await inTransaction(writer.req, async () => {
    if (input.name !== undefined) {
      const parent =
        input.parent !== undefined
          ? Number(input.parent)
          : (idOf(((await findTermById(writer, terms, input.id)) as { parent?: unknown }).parent) ??
            0)
      await refuseDuplicateName(writer, terms, input.name, parent, input.id)
    }
    await updateInLanguage(writer, terms.collection, input.id, termData(input))
  })
}
