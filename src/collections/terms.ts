import type { CollectionConfig, Field } from 'payload'
import { termAccess } from '../calendar/access/collectionAccess'
import { validateCategoryParent } from './fields/categoryParent'
import { slugField } from './fields/slug'
import { termsDeletedInTurn } from './hooks/termDeletes'
import { fillDefaultLanguage } from './hooks/defaultLanguage'

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
    hooks: { afterChange: [fillDefaultLanguage('name')], beforeOperation: [termsDeletedInTurn] },
    fields: [
      { name: 'name', type: 'text', required: true, localized: true, index: true },
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
