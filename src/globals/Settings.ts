import { queueJob } from '../collections/queueJob'
import type { GlobalAfterChangeHook, GlobalConfig } from 'payload'
import { isAdministrator } from '../calendar/access/collectionAccess'
import { timezoneField } from '../collections/fields/timezone'
import { validateWebUrl } from '../calendar/webUrl'
import { validateWholeNumber } from '../collections/fields/wholeNumber'
import { RECURRENCE_DEFAULTS } from '../calendar/recurrence'

export const SETTINGS_DEFAULTS = {
  postsPerPage: 10,
  timezone: 'UTC',
  siteUrl: '',
  geolocRadiusKm: 25,
  currencySymbol: '$',
  currencyCode: 'USD',
  currencyPosition: 'prefix' as 'prefix' | 'postfix',
  recurrenceHorizonMonths: RECURRENCE_DEFAULTS.horizonMonths,
  maxOccurrences: RECURRENCE_DEFAULTS.maxOccurrences,
  changesRetentionDays: 30,
  icalMaxEvents: 1000,
  siteName: '',
  icalRefreshMinutes: 60,
}

/** The jobs-queue task that materializes series up to the horizon, and its queue (docs/api.md §16.3). */
export const HORIZON_JOB = { task: 'extendRecurrenceHorizons', queue: 'calendar' } as const

/** The jobs-queue task that publishes scheduled items when their publication date comes (docs/api.md §2). */
export const PUBLISH_JOB = { task: 'publishScheduled', queue: HORIZON_JOB.queue } as const

/** The jobs-queue task that forgets changes older than `changesRetentionDays` (docs/api.md §18). */
export const PRUNE_CHANGES_JOB = { task: 'pruneChangeLog', queue: HORIZON_JOB.queue } as const

/** A changed horizon or maximum applies to existing series at once, not at the next scheduled run. */
const queueHorizonJob: GlobalAfterChangeHook = async ({ doc, previousDoc, req }) => {
  const changed = ['recurrenceHorizonMonths', 'maxOccurrences'].some(
    (key) => doc[key] !== previousDoc?.[key],
  )
  if (changed) await queueJob(req, HORIZON_JOB, {})
  return doc
}

/** A shorter retention forgets at once what it no longer keeps. */
const queuePruneJob: GlobalAfterChangeHook = async ({ doc, previousDoc, req }) => {
  if (doc.changesRetentionDays !== previousDoc?.changesRetentionDays) {
    await queueJob(req, PRUNE_CHANGES_JOB, {})
  }
  return doc
}

export const Settings: GlobalConfig = {
  slug: 'settings',
  label: 'Calendar settings',
  access: { read: () => true, update: isAdministrator },
  hooks: { afterChange: [queueHorizonJob, queuePruneJob] },
  fields: [
    {
      name: 'postsPerPage',
      type: 'number',
      validate: validateWholeNumber,
      min: 1,
      max: 50,
      defaultValue: SETTINGS_DEFAULTS.postsPerPage,
      admin: { description: 'Default page size of the lists (at most 50).' },
    },
    {
      ...timezoneField('An IANA zone such as Europe/Paris, or an offset such as UTC+2.', {
        description: 'Site time zone: events without their own zone use it.',
      }),
      defaultValue: SETTINGS_DEFAULTS.timezone,
    },
    {
      name: 'siteUrl',
      type: 'text',
      validate: validateWebUrl,
      admin: { description: 'Base of permalinks (https://example.org). Empty: the server URL.' },
    },
    {
      name: 'siteName',
      type: 'text',
      admin: {
        description:
          'The name calendar applications give a subscribed feed. Empty: the host of the site URL.',
      },
    },
    {
      name: 'geolocRadiusKm',
      type: 'number',
      min: 0,
      defaultValue: SETTINGS_DEFAULTS.geolocRadiusKm,
      admin: { description: 'Default radius of the geolocation filter, in kilometres.' },
    },
    { name: 'currencySymbol', type: 'text', defaultValue: SETTINGS_DEFAULTS.currencySymbol },
    { name: 'currencyCode', type: 'text', defaultValue: SETTINGS_DEFAULTS.currencyCode },
    {
      name: 'currencyPosition',
      type: 'select',
      defaultValue: SETTINGS_DEFAULTS.currencyPosition,
      options: [
        { value: 'prefix', label: 'Before the amount' },
        { value: 'postfix', label: 'After the amount' },
      ],
    },
    {
      name: 'recurrenceHorizonMonths',
      type: 'number',
      validate: validateWholeNumber,
      min: 1,
      max: 120,
      defaultValue: SETTINGS_DEFAULTS.recurrenceHorizonMonths,
      admin: {
        description: 'How many months ahead the occurrences of recurring events exist as events.',
      },
    },
    {
      name: 'maxOccurrences',
      type: 'number',
      validate: validateWholeNumber,
      min: 1,
      max: 10000,
      defaultValue: SETTINGS_DEFAULTS.maxOccurrences,
      admin: { description: 'The most events a series may have within that horizon.' },
    },
    {
      name: 'changesRetentionDays',
      type: 'number',
      validate: validateWholeNumber,
      min: 1,
      max: 3650,
      defaultValue: SETTINGS_DEFAULTS.changesRetentionDays,
      admin: {
        description:
          'How long the change feed remembers changes and deletions; older cursors must read everything again.',
      },
    },
    {
      name: 'icalMaxEvents',
      type: 'number',
      validate: validateWholeNumber,
      min: 1,
      max: 10000,
      defaultValue: SETTINGS_DEFAULTS.icalMaxEvents,
      admin: {
        description:
          'The most events of the list an iCalendar feed (events.ics) holds; the series they belong to come whole.',
      },
    },
    {
      name: 'icalRefreshMinutes',
      type: 'number',
      validate: validateWholeNumber,
      min: 5,
      max: 10080,
      defaultValue: SETTINGS_DEFAULTS.icalRefreshMinutes,
      admin: {
        description:
          'How often calendar applications subscribed to a feed should read it again, in minutes.',
      },
    },
  ],
}
