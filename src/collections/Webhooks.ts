import { randomBytes } from 'node:crypto'
import type {
  CollectionConfig,
  FieldHook,
  PayloadRequest,
  TextFieldSingleValidation,
} from 'payload'
import { capabilities } from '../calendar/access/capabilities'
import { actorOf, administratorAccess, isAdministrator } from '../calendar/access/collectionAccess'
import { RESOURCES } from '../calendar/resources'
import { lastChange, pastTheEnd } from '../database/changeLog'
import { addressGuard, envFlag } from '../network/addressGuard'
import type { Webhook } from '../payload-types'

const administers = ({ req }: { req: PayloadRequest }) => capabilities.administer(actorOf(req.user))

/** Endpoints may reach private addresses only when the operator says so (WEBHOOK_ALLOW_PRIVATE, docs/operations.md). */
export const webhookGuard = addressGuard(envFlag('WEBHOOK_ALLOW_PRIVATE'))

/** An absolute http(s) URL that is not a private address written out; names are checked again at each delivery. */
const validateEndpoint: TextFieldSingleValidation = (value) => {
  let url: URL
  try {
    url = new URL(String(value ?? ''))
  } catch {
    return 'Enter an absolute URL, such as https://example.org/calendar-hook.'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'Only http and https URLs can receive webhooks.'
  if (url.username || url.password) return 'Put credentials in the secret, not in the URL.'
  if (webhookGuard.refusesLiteral(url)) return 'This address is private: webhooks may not reach it.'
  return true
}

/** Left empty (omitted on create, or cleared), the secret is generated: 48 hex characters. */
const generateWhenEmpty: FieldHook<Webhook, string | null | undefined> = ({ value }) =>
  value === undefined || value === null || value === '' ? randomBytes(24).toString('hex') : value

/**
 * A secret of your own is taken as given, however short (the administrator's choice; the admin says
 * what a generated one is), but without spaces at either end: a receiver's copy loses them easily,
 * and every signature then fails. One saved before this rule stays valid until it is changed: its
 * receiver holds it, and refusing it would stop the endpoint's deliveries.
 */
const validateSecret: TextFieldSingleValidation = (value, { previousValue }) => {
  // Empty only in the admin's form before saving: the hook above fills it in.
  if (value === undefined || value === null || value === '') return true
  if (value === previousValue) return true
  if (value.trim() !== value) return 'A secret may not begin or end with a space.'
  return true
}

/**
 * A position the change log has reached: anything else fails every delivery's query, and a position
 * past its end (which the change feed refuses, docs/api.md §18) would have the endpoint receive
 * nothing, silently, until the log caught up. Read on the primary, at every door's save; a cursor
 * saved unchanged is not read again, so that one saved before this rule does not block other edits.
 */
const validateCursor: TextFieldSingleValidation = async (value, { previousValue, req }) => {
  if (!value) return true
  if (!/^\d{1,18}$/.test(value))
    return 'The cursor is a position in the change log: a whole number.'
  if (value !== previousValue && (await pastTheEnd(req.payload, value)))
    return 'The change log has not reached this position: the endpoint would receive nothing until it did.'
  return true
}

/**
 * Endpoints that receive every change, signed (docs/api.md §20). Administrators only: a webhook sees
 * what the change feed shows anonymous readers, and its secret signs the deliveries.
 */
export const Webhooks: CollectionConfig = {
  slug: 'webhooks',
  admin: {
    useAsTitle: 'url',
    defaultColumns: ['url', 'types', 'active', 'failures', 'retryAt'],
    group: 'Integrations',
  },
  access: { ...administratorAccess, admin: administers },
  hooks: {
    // An endpoint's delivery log goes with it.
    beforeDelete: [
      async ({ id, req }) => {
        await req.payload.db.deleteMany({
          collection: 'webhook-deliveries',
          where: { webhook: { equals: id } },
          req,
        })
      },
    ],
    beforeChange: [
      // A new endpoint receives what changes from now on, not the whole history.
      async ({ data, operation, req }) => {
        if (operation === 'create' && !data.cursor) data.cursor = await lastChange(req.payload)
        return data
      },
      // Turned on again, an endpoint resumes at the next pass where it stopped: the wait after its
      // last failure (hours, after ten) and its count of failures (the next one would turn it off
      // again at once) belong to the run that ended.
      ({ data, operation, originalDoc }) => {
        if (operation === 'update' && data.active === true && originalDoc?.active === false)
          return { ...data, failures: 0, retryAt: null }
        return data
      },
    ],
  },
  fields: [
    {
      name: 'url',
      type: 'text',
      required: true,
      validate: validateEndpoint,
      admin: { description: 'Each change is POSTed here as JSON.' },
    },
    {
      name: 'secret',
      type: 'text',
      required: true,
      validate: validateSecret,
      // A field with a read rule of its own is optional in GraphQL's input, as everywhere else: left
      // out there too, the secret is generated (the collection is read by administrators alone anyway).
      access: { read: administers },
      hooks: { beforeValidate: [generateWhenEmpty] },
      admin: {
        description: `Signs each delivery: X-Calendar-Signature is sha256=HMAC-SHA256(secret, timestamp + "." + body). Leave it empty to have one generated (48 hex characters); one of your own should be as long, and may not begin or end with a space.`,
      },
    },
    {
      name: 'types',
      type: 'select',
      hasMany: true,
      options: RESOURCES.map((resource) => ({ label: resource.noun, value: resource.singular })),
      admin: {
        description: 'The kinds of items whose changes are sent; none chosen sends them all.',
      },
    },
    {
      name: 'active',
      type: 'checkbox',
      defaultValue: true,
      admin: { description: 'Turned off by itself after too many failures in a row.' },
    },
    {
      name: 'cursor',
      type: 'text',
      validate: validateCursor,
      admin: {
        readOnly: true,
        position: 'sidebar',
        description: 'The change log position delivered so far.',
      },
    },
    {
      name: 'failures',
      type: 'number',
      defaultValue: 0,
      admin: { readOnly: true, position: 'sidebar', description: 'Failed deliveries in a row.' },
    },
    {
      name: 'retryAt',
      type: 'date',
      admin: { readOnly: true, position: 'sidebar', date: { pickerAppearance: 'dayAndTime' } },
    },
    { name: 'lastError', type: 'text', admin: { readOnly: true, position: 'sidebar' } },
  ],
}

/** One log line per delivery attempt, kept as long as the change feed keeps changes. */
export const WebhookDeliveries: CollectionConfig = {
  slug: 'webhook-deliveries',
  admin: {
    useAsTitle: 'summary',
    defaultColumns: ['summary', 'webhook', 'ok', 'status', 'attempt', 'createdAt'],
    group: 'Integrations',
  },
  access: {
    read: isAdministrator,
    create: () => false,
    update: () => false,
    delete: isAdministrator,
    admin: administers,
  },
  fields: [
    { name: 'webhook', type: 'relationship', relationTo: 'webhooks', required: true, index: true },
    { name: 'summary', type: 'text', required: true },
    { name: 'seq', type: 'text', required: true },
    { name: 'ok', type: 'checkbox', defaultValue: false },
    {
      name: 'status',
      type: 'number',
      admin: { description: 'The HTTP status answered; empty when there was no answer.' },
    },
    { name: 'attempt', type: 'number', required: true },
    { name: 'error', type: 'text' },
    { name: 'durationMs', type: 'number' },
  ],
}

/** The jobs-queue task that delivers changes to webhooks, on its own queue polled every ten seconds. */
export const DELIVER_JOB = {
  task: 'deliverWebhooks',
  queue: 'webhooks',
  every: '*/10 * * * * *',
} as const

/** Forgets delivery logs older than the change feed's retention (the daily pruning task calls it). */
export async function pruneDeliveries(req: PayloadRequest, retentionDays: number): Promise<void> {
  const before = new Date(Date.now() - retentionDays * 86_400_000).toISOString()
  await req.payload.db.deleteMany({
    collection: 'webhook-deliveries',
    where: { createdAt: { less_than: before } },
    req,
  })
}
