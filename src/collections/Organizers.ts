import { linkedCollection } from './linkedCollection'
import { websiteField } from './fields/website'

export const Organizers = linkedCollection({
  slug: 'organizers',
  labels: { singular: 'Organizer', plural: 'Organizers' },
  columns: ['name', 'email', 'phone', 'status'],
  protectedFields: ['phone', 'website', 'email'],
  fields: [
    {
      type: 'row',
      fields: [{ name: 'phone', type: 'text' }, websiteField(), { name: 'email', type: 'text' }],
    },
  ],
})
