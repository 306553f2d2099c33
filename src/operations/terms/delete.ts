import { idOf } from '../../calendar/relationId'
import type { TermResource } from '../../calendar/resources'
import { inTransaction } from '../../database/transaction'
import { readOptions } from '../read'
import { whileItExists } from '../readOne'
import type { Writer } from '../writer'
import { findTermById } from './findOne'

/**
 * Terms are deleted for good (no trash): events lose it and its child categories move up to its
 * parent (WordPress core).
 */
export async function deleteTerm(writer: Writer, terms: TermResource, id: number): Promise<void> {
  const term = (await findTermById(writer, terms, id)) as { parent?: unknown }
  await inTransaction(writer.req, async () => {
    if (terms.singular === 'category') {
      await writer.req.payload.update({
        collection: terms.collection,
        where: { parent: { equals: id } },
        data: { parent: idOf(term.parent) ?? null } as never,
        req: writer.req,
        overrideAccess: true,
        depth: 0,
        locale: 'en',
      })
    }
    await whileItExists(writer.req, terms, id, () =>
      writer.req.payload.delete({ ...readOptions(writer), collection: terms.collection, id }),
    )
  })
}
