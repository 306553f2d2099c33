import type { CollectionConfig } from 'payload'
import { authoredContentAccess, passwordProtection } from '../calendar/access/collectionAccess'
import { authoredFields, excerptField, imageField } from './fields/authored'
import { websiteField } from './fields/website'
import { validateLinkTargets } from './fields/linkTargets'
import { timezoneField } from './fields/timezone'
import { validateCalendarDate } from './fields/calendarDate'
import { descriptionFields } from './fields/description'
import { slugField } from './fields/slug'
import { guardDrafts, separateAutosaves } from './drafts'
import { enforceAuthorship, guardDuplicates, guardRestores } from './hooks/authored'
import { publishWhenDue, queuePublication } from './scheduledPublishing'
import { deriveEventSchedule } from './hooks/eventSchedule'
import { PRUNED_VERSIONS, pruneVersions } from './hooks/keptVersions'
import { keepSeries, planBulkSeries, releaseSeries, runBulkSeries } from './hooks/series'
import { validateParent, validateRecurrence } from './series'
import { takingTurns } from './hooks/rowLocks'
import { lockSeries, lockSeriesOf } from './hooks/seriesLock'
import { fillDefaultLanguage } from './hooks/defaultLanguage'

/** An event's details beyond its name, dates and texts: the namespace serves them, a password withholds them. */
export const EVENT_DETAILS = [
  'cost',
  'currencySymbol',
  'currencyCode',
  'currencyPosition',
  'website',
  'venue',
  'organizers',
  'categories',
  'tags',
  'showMap',
  'showMapLink',
  'sticky',
]

/**
 * What a password protects: withheld from readers who may not edit the item; and the links to other
 * protected items. The flags the namespace answers `null` go too (`ticketed` says whether it has a
 * cost); `allDay` stays, as the times it places do (docs/api.md §3.2).
 */
const protection = passwordProtection(
  [
    'description',
    'descriptionHtml',
    'excerpt',
    'image',
    ...EVENT_DETAILS,
    'featured',
    'hideFromListings',
    'ticketed',
    'meta',
  ],
  ['venue', 'organizers', 'parent'],
)

/**
 * The admin's recurrence editor and series panel, named through the package's `./client` export as
 * an installing app's import map resolves them; this app maps the name to its source in tsconfig.json.
 */
const RECURRENCE_EDITOR = 'cal-events/client#RecurrenceField'
const SERIES_INFO = 'cal-events/client#SeriesInfo'
/** Start and end as the event zone's wall clock, in the form and in the list (docs/api.md §21). */
const ZONED_DATE = {
  Field: 'cal-events/client#ZonedDateField',
  Cell: 'cal-events/client#EventTimeCell',
}

export const Events: CollectionConfig = {
  slug: 'events',
  labels: { singular: 'Event', plural: 'Events' },
  access: authoredContentAccess,
  versions: PRUNED_VERSIONS,
  forceSelect: protection.forceSelect,
  admin: {
    useAsTitle: 'title',
    defaultColumns: ['title', 'start', 'venue', 'status'],
    listSearchableFields: ['title', 'slug'],
  },
  defaultSort: 'startLocal',
  indexes: [{ fields: ['status', 'hideFromListings', 'startLocal'] }],
  hooks: {
    beforeChange: [separateAutosaves, enforceAuthorship, publishWhenDue, deriveEventSchedule],
    afterChange: [fillDefaultLanguage('title'), keepSeries, queuePublication, pruneVersions],
    beforeDelete: [releaseSeries],
    afterRead: protection.afterRead,
    beforeOperation: [
      lockSeries,
      takingTurns(lockSeriesOf),
      guardDrafts,
      guardDuplicates,
      guardRestores,
      ...protection.beforeOperation,
      planBulkSeries,
    ],
    afterOperation: [runBulkSeries],
  },
  fields: [
    { name: 'title', type: 'text', required: true, localized: true },
    ...descriptionFields(),
    excerptField(),
    slugField('events', 'title'),
    ...authoredFields(),
    {
      type: 'row',
      fields: [
        {
          name: 'start',
          type: 'date',
          required: true,
          index: true,
          admin: { components: ZONED_DATE },
          validate: validateCalendarDate,
        },
        {
          name: 'end',
          type: 'date',
          required: true,
          index: true,
          admin: { components: ZONED_DATE },
          validate: (value, options) => {
            // An end left out is the schedule's to fill (hooks/eventSchedule.ts), as before.
            const checked = value ? validateCalendarDate(value, options) : true
            if (checked !== true) return checked
            const start = (options.siblingData as { start?: string }).start
            return (
              !value ||
              !start ||
              new Date(value) >= new Date(start) ||
              'The end must not be before the start.'
            )
          },
        },
      ],
    },
    {
      type: 'row',
      fields: [
        { name: 'allDay', type: 'checkbox', defaultValue: false },
        timezoneField('Not a known time zone.', {
          description: 'Start and end are entered in this zone. Empty: the site zone.',
          components: { Field: 'cal-events/client#TimezoneField' },
        }),
      ],
    },
    { name: 'startLocal', type: 'text', index: true, admin: { readOnly: true, hidden: true } },
    { name: 'endLocal', type: 'text', index: true, admin: { readOnly: true, hidden: true } },
    imageField(),
    {
      type: 'collapsible',
      label: 'Cost',
      fields: [
        {
          name: 'cost',
          type: 'text',
          hasMany: true,
          admin: { description: 'One or more amounts; 0 shows as Free.' },
        },
        {
          type: 'row',
          fields: [
            { name: 'currencySymbol', type: 'text' },
            { name: 'currencyCode', type: 'text' },
            {
              name: 'currencyPosition',
              type: 'select',
              options: [
                { value: 'prefix', label: 'Before' },
                { value: 'postfix', label: 'After' },
              ],
            },
          ],
        },
      ],
    },
    websiteField(),
    {
      name: 'venue',
      type: 'relationship',
      relationTo: 'venues',
      index: true,
      validate: validateLinkTargets,
    },
    {
      name: 'organizers',
      type: 'relationship',
      relationTo: 'organizers',
      hasMany: true,
      validate: validateLinkTargets,
    },
    { name: 'categories', type: 'relationship', relationTo: 'event-categories', hasMany: true },
    { name: 'tags', type: 'relationship', relationTo: 'event-tags', hasMany: true },
    {
      name: 'parent',
      type: 'relationship',
      relationTo: 'events',
      index: true,
      validate: validateParent,
      admin: { position: 'sidebar' },
      // A copy of an occurrence is an event of its own, not a member of the series.
      hooks: { beforeDuplicate: [() => null] },
    },
    {
      name: 'recurrence',
      type: 'textarea',
      validate: validateRecurrence,
      admin: {
        position: 'sidebar',
        components: { Field: RECURRENCE_EDITOR },
        description:
          'RFC 5545 lines (RRULE, RDATE, EXDATE) in the event zone; the start is the first occurrence. Occurrences are events whose parent is this one.',
      },
    },
    {
      name: 'recurrenceException',
      type: 'checkbox',
      defaultValue: false,
      admin: {
        position: 'sidebar',
        description: 'An occurrence edited on its own: changes to its series leave it as it is.',
      },
      hooks: { beforeDuplicate: [() => false] },
    },
    {
      name: 'series',
      type: 'ui',
      admin: { position: 'sidebar', components: { Field: SERIES_INFO } },
    },
    {
      type: 'collapsible',
      label: 'Display',
      admin: { position: 'sidebar' },
      fields: [
        { name: 'showMap', type: 'checkbox', defaultValue: true },
        { name: 'showMapLink', type: 'checkbox', defaultValue: true },
        { name: 'hideFromListings', type: 'checkbox', defaultValue: false, index: true },
        { name: 'sticky', type: 'checkbox', defaultValue: false },
        { name: 'featured', type: 'checkbox', defaultValue: false, index: true },
        { name: 'ticketed', type: 'checkbox', defaultValue: false, index: true },
      ],
    },
  ],
}
