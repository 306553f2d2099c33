import type { TermResource } from '../../calendar/resources'
import { inTransaction } from '../../database/transaction'
import { readOptions } from '../read'
import { whileItExists } from '../readOne'
import type { Writer } from '../writer'
import { findTermById } from './findOne'

/**
 * Terms are deleted for good (no trash): events lose it; the collection's own hook
 * (`termsDeletedInTurn`) holds the term and moves a category's children up to its parent, whichever
 * door deletes it.
 */
export async function deleteTerm(writer: Writer, terms: TermResource, id: number): Promise<void> {
  await findTermById(writer, terms, id)
  const { req } = writer
  await inTransaction(req, () =>
    whileItExists(req, terms, id, () =>
      req.payload.delete({ ...readOptions(writer), collection: terms.collection, id }),
    ),
  )
}
