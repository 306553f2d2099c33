import { queueJob } from './queueJob'
import type { CollectionAfterChangeHook, CollectionConfig } from 'payload'
import { administratorAccess } from '../calendar/access/collectionAccess'
import { HORIZON_JOB } from '../globals/Settings'
import {
  createdStatusField,
  credentialsField,
  isImportUrl,
  outcomeFields,
  recordCreator,
} from './fields/importRun'

/** The jobs-queue task that imports the subscriptions that are due (docs/api.md §23.7), every five minutes. */
export const SUBSCRIPTION_JOB = {
  task: 'refreshSubscriptions',
  queue: HORIZON_JOB.queue,
  every: '*/5 * * * *',
} as const

/**
 * A new subscription, one whose source changed or one turned on runs at once rather than at its next
 * due time: once, so the job carries the last run it follows, and a scheduled pass that ran it first
 * leaves the job nothing to do.
 */
const queueFirstRun: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  const changed =
    operation === 'create' ||
    ['url', 'format', 'credentials'].some((field) => doc[field] !== previousDoc?.[field]) ||
    (doc.active && !previousDoc?.active)
  if (doc.active && changed) {
    await queueJob(req, SUBSCRIPTION_JOB, {
      subscriptionId: doc.id,
      lastRunAt: doc.lastRunAt ?? null,
    })
  }
  return doc
}

/**
 * Feeds imported again and again (docs/api.md §23.7), administrators only: an iCalendar feed or another
 * calendar site, every so many hours. Each run updates what changed, adds what is new and trashes the
 * events that left the feed; the record keeps the last run's counts and failures.
 */
export const ImportSubscriptions: CollectionConfig = {
  slug: 'import-subscriptions',
  labels: { singular: 'Import subscription', plural: 'Import subscriptions' },
  access: administratorAccess,
  admin: {
    useAsTitle: 'url',
    defaultColumns: ['url', 'format', 'intervalHours', 'active', 'lastRunAt', 'lastStatus'],
    description:
      'Feeds imported every few hours: what changed is updated, what is new created, and events that left the feed go to the trash. Saving a new one imports it at once.',
  },
  hooks: {
    beforeChange: [recordCreator],
    afterChange: [queueFirstRun],
  },
  fields: [
    {
      name: 'url',
      label: 'URL',
      type: 'text',
      required: true,
      validate: (value: string | null | undefined) =>
        (value && isImportUrl(value)) || 'An http(s) or webcal:// URL.',
      admin: {
        description:
          'An iCalendar feed (https://…/basic.ics, webcal://…), or a calendar site’s REST API root.',
      },
    },
    {
      name: 'format',
      type: 'select',
      required: true,
      defaultValue: 'ical',
      options: [
        { value: 'ical', label: 'iCalendar feed' },
        { value: 'site', label: 'Calendar site (REST API v1)' },
      ],
    },
    credentialsField({
      description:
        'Optional: user:password (HTTP Basic), or a token with its scheme (JWT …, Bearer …).',
    }),
    {
      name: 'intervalHours',
      label: 'Every (hours)',
      type: 'number',
      required: true,
      defaultValue: 24,
      min: 0.25,
      admin: { description: 'How often it is imported; runs are checked every five minutes.' },
    },
    {
      name: 'defaultCategories',
      type: 'relationship',
      relationTo: 'event-categories',
      hasMany: true,
      admin: { description: 'Given to every event of the feed, besides its own.' },
    },
    createdStatusField(),
    { name: 'active', type: 'checkbox', defaultValue: true, admin: { position: 'sidebar' } },
    {
      name: 'lastStatus',
      type: 'select',
      options: [
        { value: 'running', label: 'Running' },
        { value: 'done', label: 'Done' },
        { value: 'failed', label: 'Failed' },
      ],
      admin: { readOnly: true, position: 'sidebar' },
    },
    {
      name: 'lastRunAt',
      type: 'date',
      admin: { readOnly: true, position: 'sidebar', date: { pickerAppearance: 'dayAndTime' } },
    },
    ...outcomeFields(
      "The last run's failed items and why",
      'Why the last run stopped, when it did.',
    ),
    {
      name: 'createdBy',
      type: 'relationship',
      relationTo: 'users',
      admin: {
        readOnly: true,
        position: 'sidebar',
        description: 'The author of what the subscription creates.',
      },
    },
  ],
}
