import type { TermResource } from '../../calendar/resources'
import { inTransaction } from '../../database/transaction'
import { createInLanguage } from '../localizedWrite'
import type { Writer } from '../writer'
import { refusingTakenNames, termData, type TermInput } from './checks'

/** Creates a category or tag in the caller's language; a name its siblings have is refused. Answers its id. */
export async function createTerm(
  writer: Writer,
  terms: TermResource,
  input: TermInput,
): Promise<number> {
  return inTransaction(writer.req, () =>
    refusingTakenNames(
      async () => (await createInLanguage(writer, terms.collection, termData(input))).id,
    ),
  )
}
