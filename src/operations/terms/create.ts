import type { TermResource } from '../../calendar/resources'
import { inTransaction } from '../../database/transaction'
import { createInLanguage } from '../localizedWrite'
import type { Writer } from '../writer'
import { refuseDuplicateName, termData, type TermInput } from './checks'

/** Creates a category or tag in the caller's language; a name its siblings have is refused. Answers its id. */
export async function createTerm(
  writer: Writer,
  terms: TermResource,
  input: TermInput,
): Promise<number> {
  return inTransaction(writer.req, async () => {
    await refuseDuplicateName(writer, terms, input.name ?? '', Number(input.parent ?? 0))
    return (await createInLanguage(writer, terms.collection, termData(input))).id
  })
}
