import type { CollectionConfig, Field } from 'payload'
import { termAccess } from '../calendar/access/collectionAccess'
import { validateCategoryParent } from './fields/categoryParent'
import { slugField } from './fields/slug'
import { takingTurns } from './hooks/rowLocks'
import { termsDeletedInTurn } from './hooks/termDeletes'
import { fillDefaultLanguage } from './hooks/defaultLanguage'
import { nameOfCopy, termNameIsFree, termNamesInTurn } from './hooks/termNames'
import { idOf } from '../calendar/relationId'

/** A name, or each language's of a write in every language at once, without the spaces around it. */
function trimmed(value: unknown): unknown {
  if (typeof value === 'string') return value.trim()
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([code, name]) => [
      code,
      typeof name === 'string' ? name.trim() : name,
    ]),
  )
}

function termCollection(
  slug: 'event-categories' | 'event-tags',
  labels: { singular: string; plural: string },
  extra: Field[],
): CollectionConfig {
  return {
    slug,
    labels,
    access: termAccess,
    admin: { useAsTitle: 'name', defaultColumns: ['name', 'slug'] },
    defaultSort: 'name',
    hooks: {
      beforeChange: [termNameIsFree],
      afterChange: [fillDefaultLanguage('name')],
      // Their names' turns before their rows': an import adopting a term holds its name, then writes it.
      beforeOperation: [termNamesInTurn, takingTurns(), termsDeletedInTurn],
    },
    fields: [
      {
        name: 'name',
        type: 'text',
        required: true,
        localized: true,
        index: true,
        // A copy's name cannot be its original's, nor an earlier copy's (termNameIsFree).
        hooks: {
          // Stored without the spaces around it, as WordPress stores a term's name, so that names
          // compare as they read (termNameIsFree).
          beforeValidate: [({ value }) => trimmed(value)],
          beforeDuplicate: [
            async ({ value, req, siblingData, collection }) =>
              typeof value === 'string'
                ? nameOfCopy(
                    req,
                    slug,
                    value,
                    idOf(siblingData?.parent) ?? 0,
                    Boolean(await collection?.access.create?.({ req })),
                  )
                : value,
          ],
        },
      },
      { name: 'description', type: 'textarea', localized: true },
      slugField(slug, 'name'),
      ...extra,
    ],
  }
}

export const EventCategories = termCollection(
  'event-categories',
  { singular: 'Event category', plural: 'Event categories' },
  [
    {
      name: 'parent',
      type: 'relationship',
      relationTo: 'event-categories',
      index: true,
      validate: validateCategoryParent,
      admin: { position: 'sidebar' },
    },
  ],
)

export const EventTags = termCollection(
  'event-tags',
  { singular: 'Event tag', plural: 'Event tags' },
  [],
)
