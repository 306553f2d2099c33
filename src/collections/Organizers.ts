import type { CollectionConfig } from 'payload'
import { authoredContentAccess, passwordProtection } from '../calendar/access/collectionAccess'
import { AUTHORED_VERSIONS, authoredFields, excerptField, imageField } from './fields/authored'
import { websiteField } from './fields/website'
import { descriptionFields } from './fields/description'
import { slugField } from './fields/slug'
import { guardDrafts, separateAutosaves } from './drafts'
import { enforceAuthorship, guardDuplicates } from './hooks/authored'
import { publishWhenDue, queuePublication } from './scheduledPublishing'

/** What a password protects: withheld from readers who may not edit the item. */
const protection = passwordProtection([
  'description',
  'descriptionHtml',
  'excerpt',
  'image',
  'phone',
  'website',
  'email',
])

export const Organizers: CollectionConfig = {
  slug: 'organizers',
  labels: { singular: 'Organizer', plural: 'Organizers' },
  access: authoredContentAccess,
  versions: AUTHORED_VERSIONS,
  forceSelect: protection.forceSelect,
  admin: { useAsTitle: 'name', defaultColumns: ['name', 'email', 'phone', 'status'] },
  defaultSort: '-publishedAt',
  hooks: {
    beforeChange: [separateAutosaves, enforceAuthorship, publishWhenDue],
    afterChange: [queuePublication],
    afterRead: protection.afterRead,
    beforeOperation: [guardDrafts, guardDuplicates, ...protection.beforeOperation],
  },
  fields: [
    { name: 'name', type: 'text', required: true, localized: true },
    ...descriptionFields(),
    excerptField(),
    slugField('organizers', 'name'),
    ...authoredFields(),
    imageField(),
    {
      type: 'row',
      fields: [{ name: 'phone', type: 'text' }, websiteField(), { name: 'email', type: 'text' }],
    },
  ],
}
