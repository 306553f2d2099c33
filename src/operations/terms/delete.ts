import type { TermResource } from '../../calendar/resources'
import { inTransaction } from '../../database/transaction'
import { readOptions } from '../read'
import { whileItExists } from '../readOne'
import type { Writer } from '../writer'
import { findTermById } from './findOne'

/**
 * Terms are deleted for good (no trash): events lose it, and a category's children move up to its
 * parent in the collection's own hook (`childrenMoveUp`), whichever door deletes it.
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
