import { HORIZON_JOB } from '../globals/Settings'
import * as importRun from './fields/importRun'

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
const firstRun = ({ doc, previousDoc, operation }: importRun.RecordChange) => {
  const changed =
    operation === 'create' ||
    ['url', 'format', 'credentials'].some((field) => doc[field] !== previousDoc?.[field]) ||
    (doc.active && !previousDoc?.active)
  return doc.active && changed ? { subscriptionId: doc.id, lastRunAt: doc.lastRunAt ?? null } : null
}

/**
 * Feeds imported again and again (docs/api.md §23.7), administrators only: an iCalendar feed or another
 * calendar site, every so many hours. Each run updates what changed, adds what is new and trashes the
 * events that left the feed; the record keeps the last run's counts and failures.
 */
export const ImportSubscriptions = importRun.importRecords(SUBSCRIPTION_JOB, firstRun, {
  slug: 'import-subscriptions',
  labels: { singular: 'Import subscription', plural: 'Import subscriptions' },
  admin: {
    useAsTitle: 'url',
    defaultColumns: ['url', 'format', 'intervalHours', 'active', 'lastRunAt', 'lastStatus'],
    description:
      'Feeds imported every few hours: what changed is updated, what is new created, and events that left the feed go to the trash. Saving a new one imports it at once.',
  },
  fields: [
    {
      name: 'url',
      label: 'URL',
      type: 'text',
      required: true,
      validate: (value: string | null | undefined) =>
        (value && importRun.isImportUrl(value)) || 'An http(s) or webcal:// URL.',
      admin: {
        description:
          'An iCalendar feed (https://…/basic.ics, webcal://…), or a calendar site’s REST API root.',
      },
    },
    importRun.choiceField('format', 'ical', {
      ical: 'iCalendar feed',
      site: 'Calendar site (REST API v1)',
    }),
    importRun.credentialsField({
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
    importRun.createdStatusField(),
    { name: 'active', type: 'checkbox', defaultValue: true, admin: { position: 'sidebar' } },
    {
      name: 'lastStatus',
      type: 'select',
      options: importRun.capitalizedOptions(['running', 'done', 'failed']),
      admin: { readOnly: true, position: 'sidebar' },
    },
    importRun.runTimeField('lastRunAt'),
    ...importRun.outcomeFields(
      "The last run's failed items and why",
      'Why the last run stopped, when it did.',
    ),
  ],
})
