import type { TermResource } from '../../calendar/resources'
import { inTransaction } from '../../database/transaction'
import { readOptions } from '../read'
import { heldItem, whileItExists } from '../readOne'
import type { Writer } from '../writer'
import { findTermById } from './findOne'

/**
 * Terms are deleted for good (no trash): events lose it and its child categories move up to its
 * parent (WordPress core). The term is held first, as an update holds it before it checks a parent:
 * a delete that held its children first, beside a change of the term's parent, took the two in
 * opposite orders, and PostgreSQL undid one (a 409). Its parent is the one stored once it is held.
 */
export async function deleteTerm(writer: Writer, terms: TermResource, id: number): Promise<void> {
  await findTermById(writer, terms, id)
  const { req } = writer
  await inTransaction(req, async () => {
    const category = terms.singular === 'category'
    const held = await heldItem<{ parent_id?: number | null }>(
      req,
      terms,
      id,
      category ? ['parent_id'] : [],
    )
    if (category) {
      await req.payload.update({
        collection: terms.collection,
        where: { parent: { equals: id } },
        data: { parent: held.parent_id ?? null } as never,
        req,
        overrideAccess: true,
        depth: 0,
        locale: 'en',
      })
    }
    await whileItExists(req, terms, id, () =>
      req.payload.delete({ ...readOptions(writer), collection: terms.collection, id }),
    )
  })
}
