import type { CollectionConfig, Field } from 'payload'
import { authoredContentAccess, passwordProtection } from '../calendar/access/collectionAccess'
import { AUTHORED_VERSIONS, authoredFields, excerptField, imageField } from './fields/authored'
import { websiteField } from './fields/website'
import { descriptionFields } from './fields/description'
import { slugField } from './fields/slug'
import { guardDrafts, separateAutosaves } from './drafts'
import { enforceAuthorship, guardDuplicates } from './hooks/authored'
import { publishWhenDue, queuePublication } from './scheduledPublishing'
import { deriveStateProvince } from './hooks/stateProvince'

const text = (name: string): Field => ({ name, type: 'text' })

/** What a password protects: withheld from readers who may not edit the item. */
const protection = passwordProtection([
  'description',
  'descriptionHtml',
  'excerpt',
  'image',
  'address',
  'city',
  'zip',
  'state',
  'province',
  'stateprovince',
  'country',
  'phone',
  'website',
  'geoLat',
  'geoLng',
  'showMap',
  'showMapLink',
])

export const Venues: CollectionConfig = {
  slug: 'venues',
  labels: { singular: 'Venue', plural: 'Venues' },
  access: authoredContentAccess,
  versions: AUTHORED_VERSIONS,
  forceSelect: protection.forceSelect,
  admin: { useAsTitle: 'name', defaultColumns: ['name', 'city', 'country', 'status'] },
  defaultSort: '-publishedAt',
  hooks: {
    beforeChange: [separateAutosaves, enforceAuthorship, publishWhenDue, deriveStateProvince],
    afterChange: [queuePublication],
    afterRead: protection.afterRead,
    beforeOperation: [guardDrafts, guardDuplicates, ...protection.beforeOperation],
  },
  fields: [
    { name: 'name', type: 'text', required: true, localized: true },
    ...descriptionFields(),
    excerptField(),
    slugField('venues', 'name'),
    ...authoredFields(),
    imageField(),
    {
      type: 'collapsible',
      label: 'Address',
      fields: [
        text('address'),
        { type: 'row', fields: [text('city'), text('zip')] },
        { type: 'row', fields: [text('state'), text('province'), text('stateprovince')] },
        text('country'),
        { type: 'row', fields: [text('phone'), websiteField()] },
        {
          type: 'row',
          fields: [
            { name: 'geoLat', label: 'Latitude', type: 'number', min: -90, max: 90, index: true },
            {
              name: 'geoLng',
              label: 'Longitude',
              type: 'number',
              min: -180,
              max: 180,
              index: true,
            },
          ],
        },
      ],
    },
    { name: 'showMap', type: 'checkbox', defaultValue: true, admin: { position: 'sidebar' } },
    { name: 'showMapLink', type: 'checkbox', defaultValue: true, admin: { position: 'sidebar' } },
  ],
}
