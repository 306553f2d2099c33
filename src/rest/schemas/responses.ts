/**
 * The namespace's answers as zod schemas: what the serializers in `../serialize/` produce, key for key
 * (docs/api.md §3, docs/api.md §3, §3.3, §3.4, §3.5), with upstream's loose types kept as they are
 * (`author` a string, `image: false`, `venue` an object or `[]`, zero-padded string date parts).
 * Nothing validates answers at run time; `/doc` publishes these as `#/components/schemas/<id>`.
 */
import { z } from 'zod'
import { ORGANIZER_TEXT, VENUE_TEXT } from '../../calendar/linkedText'
import {
  Category,
  CostDetails,
  DateDetails,
  EmbeddedTerm,
  EventJsonLd,
  Image,
  PersonJsonLd,
  PlaceJsonLd,
  Tag,
  count,
  emptyList,
  id,
  named,
  status,
  wallClock,
} from './responseParts'

// The terms' answers are also parts of an event's, so they are made with the parts.
export { Category, Tag } from './responseParts'

/** What venues and organizers share; every key is left out when empty (docs/api.md §3.3, §3.4). */
const linkedHead = {
  id,
  author: z.string().describe('Author user id, as a string.').optional(),
  status: status.optional(),
  date: wallClock('Publication date in the site zone.').optional(),
  date_utc: wallClock('Publication date in UTC.').optional(),
  modified: wallClock('Last change in the site zone.').optional(),
  modified_utc: wallClock('Last change in UTC.').optional(),
  url: z.url().describe('Public page.').optional(),
}
const linkedContent = {
  description: z.string().describe('HTML.').optional(),
  excerpt: z.string().describe('HTML.').optional(),
  slug: z.string().optional(),
  image: Image.optional(),
}
const globalIds = { global_id: z.string(), global_id_lineage: z.array(z.string()) }

/** Keys of optional text, in this order. */
const optionalStrings = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, z.string().optional()])) as Record<
    K,
    z.ZodOptional<z.ZodString>
  >

/**
 * A venue's or organizer's answer: what they share, its name under `nameKey` (`venue`,
 * `organizer`), then keys of its own.
 */
function linkedItem<K extends string, S extends z.ZodRawShape>(
  id: string,
  description: string,
  nameKey: K,
  own: S,
) {
  const name = { [nameKey]: z.string().describe('Name.').optional() } as Record<
    K,
    z.ZodOptional<z.ZodString>
  >
  return named(
    id,
    description,
    z.looseObject({ ...linkedHead, ...name, ...linkedContent, ...own, ...globalIds }),
  )
}

export const Venue = linkedItem(
  'Venue',
  'A venue. Empty fields are left out; fields a developer added to venues appear as further keys. A protected venue keeps its name but not its content.',
  'venue',
  {
    ...optionalStrings(VENUE_TEXT),
    geo_lat: z.number().optional(),
    geo_lng: z.number().optional(),
    json_ld: PlaceJsonLd.optional(),
    show_map: z.boolean().nullable().describe('null while the venue is protected.'),
    show_map_link: z.boolean().nullable(),
  },
)

export const Organizer = linkedItem(
  'Organizer',
  'An organizer. Empty fields are left out; fields a developer added to organizers appear as further keys.',
  'organizer',
  {
    ...optionalStrings(ORGANIZER_TEXT),
    json_ld: PersonJsonLd.optional(),
  },
)

/** Flags a protected event shows as `null` until it is unlocked (docs/api.md §3.2). */
const flag = z.boolean().nullable()

export const Event = named(
  'Event',
  'An event: every key always present. A protected event that is not unlocked shows its title and dates, with its content emptied.',
  z.object({
    id,
    ...globalIds,
    author: z.string().describe('Author user id, as a string ("0": none).'),
    status,
    date: wallClock('Publication date in the site zone.'),
    date_utc: wallClock('Publication date in UTC.'),
    modified: wallClock('Last change in the site zone.'),
    modified_utc: wallClock('Last change in UTC.'),
    url: z.url().describe('Public page.'),
    rest_url: z.url(),
    title: z.string(),
    description: z.string().describe('HTML.'),
    excerpt: z.string().describe('HTML.'),
    slug: z.string(),
    image: z.union([Image, z.literal(false)]),
    all_day: flag,
    start_date: wallClock('Start, wall clock in the event zone.'),
    start_date_details: DateDetails,
    end_date: wallClock('End, wall clock in the event zone.'),
    end_date_details: DateDetails,
    utc_start_date: wallClock('Start in UTC.'),
    utc_start_date_details: DateDetails,
    utc_end_date: wallClock('End in UTC.'),
    utc_end_date_details: DateDetails,
    timezone: z.string().describe('IANA zone or UTC±H[:MM] offset.'),
    timezone_abbr: z.string().describe('tz database abbreviation at the start: CEST, +04, UTC+5.'),
    cost: z.string().describe('Lowest and highest cost: "$23", "Free – 30$".'),
    cost_details: CostDetails,
    website: z.string(),
    show_map: flag,
    show_map_link: flag,
    hide_from_listings: flag,
    sticky: flag,
    featured: flag,
    categories: z.array(EmbeddedTerm),
    tags: z.array(EmbeddedTerm),
    venue: z.union([Venue, emptyList]).describe('The venue, or [] when none.'),
    organizer: z.array(Organizer),
    custom_fields: z
      .union([z.record(z.string(), z.object({ label: z.string(), value: z.unknown() })), emptyList])
      .describe('Fields a developer added to events, with a value; [] when none.'),
    recurrence: z
      .string()
      .describe(
        'RFC 5545 RRULE, RDATE and EXDATE lines of a series’ first event (docs/api.md §16); "" on single events and on later occurrences.',
      ),
    post_parent: count.describe(
      'The id of the series’ first event on a later occurrence (docs/api.md §16.1); 0 on every other event.',
    ),
    json_ld: EventJsonLd.optional().describe(
      'Single reads only; never on a password-protected event.',
    ),
  }),
)

const pageLinks = {
  rest_url: z.url().describe('This page, with the effective arguments.'),
  next_rest_url: z.url().optional().describe('The next page, when there is one.'),
  previous_rest_url: z.url().optional().describe('The previous page, when there is one.'),
}
const totals = { total: count.describe('Items matching, over all pages.'), total_pages: count }

function authoredList<T extends z.ZodType>(id: string, key: string, item: T) {
  return named(
    id,
    `A page of ${key} (headers X-Total, X-Total-Pages and Link carry the same).`,
    z.object({ [key]: z.array(item), ...pageLinks, ...totals }),
  )
}

export const EventList = authoredList('EventList', 'events', Event)
export const VenueList = authoredList('VenueList', 'venues', Venue)
export const OrganizerList = authoredList('OrganizerList', 'organizers', Organizer)

function termList<T extends z.ZodType>(id: string, key: string, item: T) {
  return named(
    id,
    `A page of ${key}; past the last page, an empty one.`,
    z.object({
      rest_url: pageLinks.rest_url,
      ...totals,
      [key]: z.array(item),
      next_rest_url: pageLinks.next_rest_url,
      previous_rest_url: pageLinks.previous_rest_url,
    }),
  )
}

export const CategoryList = termList('CategoryList', 'categories', Category)
export const TagList = termList('TagList', 'tags', Tag)

const links = (relation: string) => z.object({ [relation]: z.array(z.object({ href: z.url() })) })

export const RouteArgument = named(
  'RouteArgument',
  'One argument of a route, as JSON Schema keywords plus whether it is required.',
  z.looseObject({
    required: z.boolean(),
    description: z.string().optional(),
    type: z.union([z.string(), z.array(z.string())]).optional(),
    default: z.unknown().optional(),
    enum: z.array(z.unknown()).optional(),
  }),
)

const methods = z.array(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']))

export const ChangeList = named(
  'ChangeList',
  'Items changed since a cursor, each once, in the order of its latest change (docs/api.md §18).',
  z.object({
    changes: z.array(
      z.object({
        type: z.enum(['event', 'venue', 'organizer', 'category', 'tag']),
        id: z.int(),
        action: z
          .enum(['upsert', 'delete'])
          .describe('`delete`: gone, trashed, or no longer readable by the caller.'),
        modified_utc: z.string().describe('When the item last changed, `YYYY-MM-DD HH:MM:SS` UTC.'),
      }),
    ),
    next_cursor: z.string().describe('Pass as `since` to read on from here.'),
    has_more: z.boolean(),
  }),
)

export const NamespaceIndex = named(
  'NamespaceIndex',
  'The namespace, its routes keyed by path pattern (`/cal/events/v1/events/(?P<id>\\d+)`) and links.',
  z.object({
    namespace: z.string(),
    routes: z.record(
      z.string(),
      z.object({
        namespace: z.string(),
        methods,
        endpoints: z.array(z.object({ methods, args: z.record(z.string(), RouteArgument) })),
        _links: links('self').optional().describe('Only for routes without path variables.'),
      }),
    ),
    _links: links('up'),
  }),
)

export const OpenApiDocument = named(
  'OpenApiDocument',
  'This document: OpenAPI 3.1.',
  z.looseObject({
    openapi: z.string(),
    info: z.looseObject({
      title: z.string(),
      version: z.string(),
      description: z.string().optional(),
    }),
    servers: z.array(z.looseObject({ url: z.url() })),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.unknown()),
  }),
)

export const ErrorBody = named(
  'Error',
  'Every error: a code, a message, and `data.status` equal to the HTTP status.',
  z.object({
    code: z
      .string()
      .describe(
        'rest_invalid_param, rest_missing_callback_param, rest_forbidden, rest_no_route, event-archive-page-not-found...',
      ),
    message: z.string(),
    data: z.looseObject({
      status: z.int(),
      params: z
        .union([z.record(z.string(), z.string()), z.array(z.string())])
        .optional()
        .describe(
          'rest_invalid_param: each rejected parameter and why; rest_missing_callback_param: the missing names.',
        ),
      details: z
        .record(
          z.string(),
          z.object({
            code: z.string(),
            message: z.string(),
            data: z.object({ param: z.string() }),
          }),
        )
        .optional()
        .describe(
          'rest_invalid_param: the same, as WordPress nests it: per parameter, an error object naming it.',
        ),
    }),
  }),
)
