import { z } from 'zod'
import { STATUSES } from '../../calendar/access/capabilities'
import { parseZone } from '../../calendar/dates/zone'
import { WEB_URL_RULE, webUrl } from '../../calendar/webUrl'
import { booleanParam, nonEmptyString, positiveIntParam } from '../http/coerce'
import { dateParam, languageParam, numberParam } from './common'

/** Text fields of a write: any string, `null` meaning empty (JSON clients send it for "clear"). */
export const textField = z.union([z.string(), z.null().transform(() => '')])

export const statusField = z
  .enum(STATUSES, { error: `Must be one of: ${STATUSES.join(', ')}.` })
  .describe('Status; roles that may not publish get pending.')

/** A web URL (calendar/webUrl.ts: the collections validate by the same rule), trimmed. */
function webUrlParam(error: string) {
  return z
    .string()
    .refine((value) => webUrl(value) !== null, { error })
    .transform((value) => webUrl(value)!)
    .meta({ format: 'uri' })
}

/** An http(s) URL or nothing (upstream validates with PHP's URL filter). */
export const urlField = z
  .union([z.literal(''), z.null().transform(() => ''), webUrlParam(WEB_URL_RULE)], {
    error: WEB_URL_RULE,
  })
  .describe('An http(s) URL, or empty.')

export const timezoneField = z
  .union([
    z.literal(''),
    z.string().refine((value) => parseZone(value) !== null, {
      error: 'Must be an IANA time zone or UTC±H[:MM].',
    }),
  ])
  .describe('IANA zone (Europe/Paris) or offset (UTC+2); empty for the site zone.')

const IMAGE_RULE = 'Must be a media id or an http(s) image URL.'

/** A media id, an http(s) image URL to download, or empty to remove (docs/api.md §6.4). */
export const imageField = z
  .union(
    [z.literal(''), z.literal(0), z.literal('0'), positiveIntParam(), webUrlParam(IMAGE_RULE)],
    { error: IMAGE_RULE },
  )
  .describe('Media id or http(s) image URL; empty removes it.')

/** Truthiness of upstream's string flags: 1, true, yes, y, on, enable(d). */
export const truthyField = z
  .union([z.string(), z.boolean(), z.number()])
  .transform((value) =>
    ['1', 'true', 'yes', 'y', 'on', 'enable', 'enabled'].includes(
      String(value).trim().toLowerCase(),
    ),
  )

/** What events, venues and organizers accept alike. */
export const authoredWriteFields = {
  i18n_language: languageParam,
  author: positiveIntParam()
    .optional()
    .describe('Author user id (editors and administrators only).'),
  date: dateParam('Publication date, in the event or site zone.').optional(),
  date_utc: dateParam('Publication date in UTC.').optional(),
  description: textField.optional().describe('HTML.'),
  excerpt: textField.optional(),
  slug: nonEmptyString().optional().describe('Slug in the request language.'),
  status: statusField.optional(),
  image: imageField.optional(),
  password: textField.optional().describe('Password protecting the content; empty removes it.'),
}

export const venueWriteFields = {
  ...authoredWriteFields,
  venue: nonEmptyString().describe('Name.'),
  show_map: truthyField.optional(),
  show_map_link: truthyField.optional(),
  address: textField.optional(),
  city: textField.optional(),
  country: textField.optional(),
  province: textField.optional(),
  state: textField.optional(),
  zip: textField.optional(),
  phone: textField.optional(),
  stateprovince: textField.optional(),
  website: urlField.optional(),
  geo_lat: z
    .union([z.literal(''), numberParam(-90, 90)])
    .optional()
    .describe('Latitude; empty removes it.'),
  geo_lng: z
    .union([z.literal(''), numberParam(-180, 180)])
    .optional()
    .describe('Longitude; empty removes it.'),
}

export const organizerWriteFields = {
  ...authoredWriteFields,
  organizer: nonEmptyString().describe('Name.'),
  phone: textField.optional(),
  website: urlField.optional(),
  email: textField.optional().describe('Email (not validated, as upstream).'),
}

/**
 * Loose, as the routes' own bodies (`writeRoutes.ts`): an inline venue or organizer carries the
 * developers' fields too.
 */
export const venueCreateBody = z.looseObject(venueWriteFields)
export const organizerCreateBody = z.looseObject(organizerWriteFields)
export type VenueInput = z.output<typeof venueCreateBody>
export type OrganizerInput = z.output<typeof organizerCreateBody>

const unlink = z
  .union([z.literal(0), z.literal('0'), z.literal(''), z.null()])
  .transform(() => null)
const linkedId = z.union([
  positiveIntParam(),
  z.object({ id: positiveIntParam() }).transform((value) => value.id),
])

/** `venue` on events: an id, `{ id }`, an inline venue, or 0/empty to unlink (docs/api.md §6.5). */
export const venueLink = z
  .union(
    [unlink, linkedId, venueCreateBody, z.array(z.union([linkedId, venueCreateBody])).max(50)],
    {
      error: 'Must be a venue id, { id }, a venue object, or empty.',
    },
  )
  .describe('Venue id, { id }, or a venue object to create; 0 or empty unlinks.')

/** `"12, 13"`: lists accept CSV as well as arrays (docs/api.md §6.1). */
const idCsv = z
  .string()
  .regex(/^\s*\d+(\s*,\s*\d+)+\s*$/)
  .transform((value) => value.split(',').map((id) => Number(id.trim())))

/** `organizer` on events: ids, `{ id }`s and inline organizers, in order. */
export const organizerLinks = z
  .union(
    [
      unlink,
      linkedId,
      idCsv,
      organizerCreateBody,
      z.array(z.union([linkedId, organizerCreateBody])).max(50),
    ],
    {
      error: 'Must be organizer ids, { id }s or organizer objects, or empty.',
    },
  )
  .describe(
    'Organizer ids, { id } or organizer objects to create, in order; 0 or empty unlinks all.',
  )

/** Categories or tags on events: ids or names, an array or CSV; names not found are created. */
export const termLinks = z
  .union(
    [
      z.literal(''),
      z.null(),
      z.string(),
      z.number(),
      z.array(z.union([z.string(), z.number()])).max(100),
    ],
    { error: 'Must be term ids or names.' },
  )
  .transform((value) => {
    if (value === null || value === '') return []
    const entries = Array.isArray(value) ? value.map(String) : String(value).split(',')
    return entries.map((entry) => entry.trim()).filter(Boolean)
  })
  .describe(
    'Term ids or names, array or comma-separated; unknown names are created (editors); empty removes all.',
  )

export const costField = z
  .union([
    z.string(),
    z.number(),
    z.array(z.union([z.string(), z.number()])).max(50),
    z.null().transform(() => ''),
  ])
  .describe(
    'Cost: one value or a list ("0$", ["0$", "20$"]); the currency symbol and position are read from entries of one amount each ("20$"), not from ranges ("$10 - $20"). A lone "0" is no cost.',
  )

export const eventWriteFields = {
  ...authoredWriteFields,
  title: nonEmptyString().describe('Title in the request language.'),
  start_date: dateParam('Start, wall clock in the event zone.'),
  end_date: dateParam('End, wall clock in the event zone; not before the start.'),
  timezone: timezoneField.optional(),
  all_day: booleanParam()
    .optional()
    .describe('Whole days: 00:00:00 to 23:59:59 in the event zone.'),
  cost: costField.optional(),
  website: urlField
    .optional()
    .describe(
      'Event website; when omitted or empty on create, the event object shows the permalink.',
    ),
  show_map: booleanParam().optional().describe('false when omitted on create.'),
  show_map_link: booleanParam().optional().describe('false when omitted on create.'),
  hide_from_listings: booleanParam().optional(),
  sticky: booleanParam().optional(),
  featured: booleanParam().optional(),
  ticketed: booleanParam().optional(),
  categories: termLinks.optional(),
  tags: termLinks.optional(),
  venue: venueLink.optional(),
  organizer: organizerLinks.optional(),
  parent: z
    .union([unlink, positiveIntParam()])
    .optional()
    .describe('Parent event id; 0 or empty removes it.'),
  recurrence: textField
    .optional()
    .describe(
      'RFC 5545 lines: RRULE (one or more), RDATE, EXDATE; dates YYYYMMDDTHHMMSS in the event zone or UTC with Z. Makes the event the first of a series; "" ends it (docs/api.md §16).',
    ),
}

export const eventCreateBody = z.object(eventWriteFields)
export type EventInput = z.output<typeof eventCreateBody>
