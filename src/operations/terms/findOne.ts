import type { TermResource } from '../../calendar/resources'
import { findByIds } from '../read'
import type { Reader } from '../reader'
import { missing, withRelated } from '../readOne'
import { termRelated, type Term } from './find'

/** The category or tag with this id, for reads and as the existence check of writes: unknown is a 400. */
export async function findTermById(reader: Reader, terms: TermResource, id: number): Promise<Term> {
  const term = (await findByIds<Term>(reader, terms.collection, [id])).get(id)
  if (!term) throw missing(terms, id)
  return term
}

/** A single category or tag with its count and, for a category, its ancestors. */
export async function findTerm(reader: Reader, terms: TermResource, id: number) {
  const doc = await findTermById(reader, terms, id)
  return withRelated(doc, (docs) => termRelated(reader, terms, docs))
}
