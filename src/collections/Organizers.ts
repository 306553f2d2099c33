import type { CollectionConfig } from 'payload'
import { authoredContentAccess, protectedContentRead } from '../access/collectionAccess'
import { authoredFields, excerptField, imageField } from './fields/authored'
import { descriptionFields } from './fields/description'
import { slugField } from './fields/slug'
import { enforceAuthorship } from './hooks/authored'

const content = { read: protectedContentRead }

export const Organizers: CollectionConfig = {
  slug: 'organizers',
  labels: { singular: 'Organizer', plural: 'Organizers' },
  access: authoredContentAccess,
  admin: { useAsTitle: 'name', defaultColumns: ['name', 'email', 'phone', 'status'] },
  defaultSort: '-publishedAt',
  hooks: { beforeChange: [enforceAuthorship] },
  fields: [
    { name: 'name', type: 'text', required: true, localized: true },
    ...descriptionFields(),
    excerptField(),
    slugField('organizers', 'name'),
    ...authoredFields(),
    imageField(),
    {
      type: 'row',
      fields: [
        { name: 'phone', type: 'text', access: content },
        { name: 'website', type: 'text', access: content },
        { name: 'email', type: 'text', access: content },
      ],
    },
  ],
}
