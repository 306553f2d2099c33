import type { TermResource } from '../../calendar/resources'
import { inTransaction } from '../../database/transaction'
import { updateInLanguage } from '../localizedWrite'
import type { Writer } from '../writer'
import { refusingTakenNames, termData, type TermInput } from './checks'

/** A partial update of a category or tag in the caller's language; a name its new siblings have is refused. */
export async function updateTerm(
  writer: Writer,
  terms: TermResource,
  input: TermInput & { id: number },
): Promise<void> {
  await inTransaction(writer.req, () =>
    refusingTakenNames(() => updateInLanguage(writer, terms.collection, input.id, termData(input))),
  )
}
