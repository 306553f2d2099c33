/**
 * The namespace's answers as zod schemas: what the serializers in `../serialize/` produce, key for key
 * (docs/api.md §3, docs/api.md §3, §3.3, §3.4, §3.5), with upstream's loose types kept as they are
 * (`author` a string, `image: false`, `venue` an object or `[]`, zero-padded string date parts).
 * Nothing validates answers at run time; `/doc` publishes these as `#/components/schemas/<id>`.
 */
import { z } from 'zod'
import { STATUSES } from '../../calendar/access/capabilities'

/** The named schemas of `/doc`'s `components.schemas`, by id. */
export const responseSchemas = z.registry<{ id: string; description?: string }>()
const descriptions = new Map<string, string>()

function named<T extends z.ZodType>(id: string, description: string, schema: T): T {
  descriptions.set(id, description)
  responseSchemas.add(schema as z.ZodType, { id, description })
  return schema
}

/** Where `/doc` keeps a named schema: `Event` → `#/components/schemas/Event`. */
export const componentRef = (id: string) => `#/components/schemas/${id}`

export type JsonSchema = { [keyword: string]: unknown }

/**
 * Every named schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), referring to each other by
 * `componentRef`; `$schema` and `$id` are left to the document that holds them.
 */
export function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(responseSchemas, {
    uri: componentRef,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> }
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema
      return [id, { description: descriptions.get(id), ...rest }]
    }),
  )
}

/** `[]`: what PHP's empty array serialises to where an object or a list of objects would be. */
const emptyList = z.array(z.never()).max(0)

const wallClock = (description: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    .describe(description)
const digits = (count: number) => z.string().regex(new RegExp(`^\\d{${count}}$`))
const count = z.int().min(0)
const id = z.int().min(1)
const status = z.enum(STATUSES)

export const DateDetails = named(
  'DateDetails',
  'The parts of a `YYYY-MM-DD HH:MM:SS` date, as zero-padded strings.',
  z.object({
    year: digits(4),
    month: digits(2),
    day: digits(2),
    hour: digits(2),
    minutes: digits(2),
    seconds: digits(2),
  }),
)

export const CostDetails = named(
  'CostDetails',
  'The cost values, ascending and as strings (a cost without a number as its slug, `free`, counted as 0), with the event’s currency symbol, code and position (empty when not set).',
  z.object({
    currency_symbol: z.string(),
    currency_code: z.string(),
    currency_position: z.enum(['prefix', 'postfix', '']),
    values: z.array(z.string()),
  }),
)

export const ImageSize = named(
  'ImageSize',
  'One generated size of an image.',
  z.object({
    width: count,
    height: count,
    'mime-type': z.string(),
    filesize: count.optional(),
    url: z.url(),
  }),
)

export const Image = named(
  'Image',
  'A featured image; empty values are left out, `sizes` is keyed by size name.',
  z.object({
    url: z.url(),
    id,
    extension: z.string().optional(),
    width: count.optional(),
    height: count.optional(),
    filesize: count.optional(),
    sizes: z.record(z.string(), ImageSize),
  }),
)

const TermUrls = named(
  'TermUrls',
  'REST URLs of a term, of its collection and, for a child category, of its parent.',
  z.object({ self: z.url(), collection: z.url(), up: z.url().optional() }),
)

const termFields = {
  id,
  count: count.describe('Published events with this term.'),
  description: z.string(),
  name: z.string(),
  slug: z.string(),
}

const TermLinks = named(
  'TermLinks',
  'WordPress-style links of a single-term answer: `self` with the methods the caller may use, the collection and, for a child category, its parent.',
  z.object({
    self: z.array(
      z.object({
        href: z.url(),
        targetHints: z.object({
          allow: z.array(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
        }),
      }),
    ),
    collection: z.array(z.object({ href: z.url() })),
    up: z.array(z.object({ href: z.url(), embeddable: z.literal(true) })).optional(),
  }),
)

const termTail = {
  meta: emptyList,
  url: z
    .url()
    .describe(
      'Public archive page of the term; a child category’s lies below its ancestors’ (`/events/category/music/jazz/`).',
    ),
  urls: TermUrls,
  _links: TermLinks.optional().describe(
    'Single-term reads, creates and updates only; not in lists nor in delete answers.',
  ),
}

export const Category = named(
  'Category',
  'An event category as `/categories` answers it.',
  z.object({
    ...termFields,
    taxonomy: z.literal('event_category'),
    parent: count.describe('Parent category id; 0 for none.'),
    ...termTail,
  }),
)

export const Tag = named(
  'Tag',
  'An event tag as `/tags` answers it (tags have no parent).',
  z.object({ ...termFields, taxonomy: z.literal('event_tag'), ...termTail }),
)

export const EmbeddedTerm = named(
  'EmbeddedTerm',
  'A category or tag as events embed it (the raw term: no `url`, no `meta`).',
  z.object({
    name: z.string(),
    slug: z.string(),
    term_group: z.int(),
    term_taxonomy_id: id,
    taxonomy: z.enum(['event_category', 'event_tag']),
    description: z.string(),
    parent: count,
    count,
    filter: z.literal('raw'),
    id,
    urls: TermUrls,
  }),
)

export const PlaceJsonLd = named(
  'PlaceJsonLd',
  'schema.org Place of a venue (single reads only), without `@context` (as upstream); empty values are left out but `description`.',
  z.looseObject({
    '@type': z.literal('Place'),
    name: z.string(),
    description: z
      .string()
      .optional()
      .describe(
        'The excerpt, else the description as plain text (55 words at most); absent only for a protected one in an event.',
      ),
    url: z.url(),
    address: z.looseObject({
      '@type': z.literal('PostalAddress'),
      streetAddress: z.string().optional(),
      addressLocality: z.string().optional(),
      addressRegion: z.string().optional(),
      postalCode: z.string().optional(),
      addressCountry: z.string().optional(),
    }),
    geo: z
      .object({ '@type': z.literal('GeoCoordinates'), latitude: z.number(), longitude: z.number() })
      .optional(),
    telephone: z.string().optional(),
    sameAs: z.string().optional(),
  }),
)

export const PersonJsonLd = named(
  'PersonJsonLd',
  'schema.org Person of an organizer (single reads only), without `@context` (as upstream); empty values are left out but `description`.',
  z.looseObject({
    '@type': z.literal('Person'),
    name: z.string(),
    description: z
      .string()
      .optional()
      .describe(
        'The excerpt, else the description as plain text (55 words at most); absent only for a protected one in an event.',
      ),
    url: z.url().optional().describe('The organizer’s website.'),
    telephone: z.string().optional(),
    email: z.string().optional(),
    sameAs: z.string().optional(),
  }),
)

export const EventJsonLd = named(
  'EventJsonLd',
  'schema.org Event (single reads of events without a password only).',
  z.looseObject({
    '@context': z.literal('http://schema.org'),
    '@type': z.literal('Event'),
    name: z
      .string()
      .describe(
        'The title; a private event’s starts with `Private: ` in the answer’s language, as WordPress titles it.',
      ),
    description: z
      .string()
      .describe('The excerpt, else the description as plain text (55 words at most).'),
    image: z.url().optional(),
    url: z.url(),
    eventAttendanceMode: z.literal('https://schema.org/OfflineEventAttendanceMode'),
    eventStatus: z.literal('https://schema.org/EventScheduled'),
    startDate: z.string().describe('ISO 8601 with the event zone’s offset.'),
    endDate: z.string(),
    location: PlaceJsonLd.optional(),
    organizer: PersonJsonLd.optional(),
    offers: z
      .object({
        '@type': z.literal('Offer'),
        price: z
          .string()
          .describe('The `cost` text without a currency symbol (`Free – 30`); `0` when free.'),
        priceCurrency: z.string(),
        url: z.url(),
        category: z.literal('primary'),
        availability: z.literal('inStock'),
        validFrom: z
          .string()
          .describe('Midnight of the publication day in the site zone, ISO 8601 with offset.'),
      })
      .optional(),
    performer: z.literal('Organization'),
  }),
)

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

export const Venue = named(
  'Venue',
  'A venue. Empty fields are left out; fields a developer added to venues appear as further keys. A protected venue keeps its name but not its content.',
  z.looseObject({
    ...linkedHead,
    venue: z.string().describe('Name.').optional(),
    ...linkedContent,
    address: z.string().optional(),
    city: z.string().optional(),
    country: z.string().optional(),
    province: z.string().optional(),
    state: z.string().optional(),
    zip: z.string().optional(),
    phone: z.string().optional(),
    website: z.string().optional(),
    stateprovince: z.string().optional(),
    geo_lat: z.number().optional(),
    geo_lng: z.number().optional(),
    json_ld: PlaceJsonLd.optional(),
    show_map: z.boolean().nullable().describe('null while the venue is protected.'),
    show_map_link: z.boolean().nullable(),
    ...globalIds,
  }),
)

export const Organizer = named(
  'Organizer',
  'An organizer. Empty fields are left out; fields a developer added to organizers appear as further keys.',
  z.looseObject({
    ...linkedHead,
    organizer: z.string().describe('Name.').optional(),
    ...linkedContent,
    phone: z.string().optional(),
    website: z.string().optional(),
    email: z.string().optional(),
    json_ld: PersonJsonLd.optional(),
    ...globalIds,
  }),
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
