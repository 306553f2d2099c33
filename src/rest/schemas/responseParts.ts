/**
 * The registry of `/doc`'s named schemas and the parts the namespace's answers embed: dates, costs,
 * images, terms and JSON-LD (`./responses.ts` holds the answers themselves).
 */
import { z } from 'zod'
import { STATUSES } from '../../calendar/access/capabilities'

/** The named schemas of `/doc`'s `components.schemas`, by id. */
export const responseSchemas = z.registry<{ id: string; description?: string }>()
const descriptions = new Map<string, string>()

export function named<T extends z.ZodType>(id: string, description: string, schema: T): T {
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
export const emptyList = z.array(z.never()).max(0)

export const wallClock = (description: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    .describe(description)
export const digits = (count: number) => z.string().regex(new RegExp(`^\\d{${count}}$`))
export const count = z.int().min(0)
export const id = z.int().min(1)
export const status = z.enum(STATUSES)

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

/**
 * A venue's (`Place`) or organizer's (`Person`) schema.org object: its type, name and description,
 * the keys of its own, and `sameAs`.
 */
function linkedJsonLd<S extends z.ZodRawShape>(type: 'Place' | 'Person', of: string, own: S) {
  return named(
    `${type}JsonLd`,
    `schema.org ${type} of ${of} (single reads only), without \`@context\` (as upstream); empty values are left out but \`description\`.`,
    z.looseObject({
      '@type': z.literal(type),
      name: z.string(),
      description: z
        .string()
        .optional()
        .describe(
          'The excerpt, else the description as plain text (55 words at most); absent only for a protected one in an event.',
        ),
      ...own,
      sameAs: z.string().optional(),
    }),
  )
}

export const PlaceJsonLd = linkedJsonLd('Place', 'a venue', {
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
})

export const PersonJsonLd = linkedJsonLd('Person', 'an organizer', {
  url: z.url().optional().describe('The organizer’s website.'),
  telephone: z.string().optional(),
  email: z.string().optional(),
})

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
