import type { Field } from 'payload'
import { linkedCollection } from './linkedCollection'
import { websiteField } from './fields/website'
import { deriveStateProvince } from './hooks/stateProvince'

const text = (name: string): Field => ({ name, type: 'text' })

export const Venues = linkedCollection({
  slug: 'venues',
  labels: { singular: 'Venue', plural: 'Venues' },
  columns: ['name', 'city', 'country', 'status'],
  protectedFields: [
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
  ],
  beforeChange: [deriveStateProvince],
  fields: [
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
})
