import type { CollectionConfig, Field } from 'payload'
import { termAccess } from '../calendar/access/collectionAccess'
import { validateCategoryParent } from './fields/categoryParent'
import { slugField } from './fields/slug'
import { termsDeletedInTurn } from './hooks/termDeletes'
import { fillDefaultLanguage } from './hooks/defaultLanguage'
import { termNameIsFree, termNamesInTurn } from './hooks/termNames'

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
      beforeOperation: [termNamesInTurn, termsDeletedInTurn],
    },
    fields: [
      {
        name: 'name',
        type: 'text',
        required: true,
        localized: true,
        index: true,
        // A copy's name cannot be its original's (termNameIsFree): named as Payload names a unique field's copy.
        hooks: {
          beforeDuplicate: [
            ({ value, req }) =>
              typeof value === 'string' ? `${value} - ${req.t('general:copy')}` : value,
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
