import { z } from 'zod'
import { RESOURCES, errorCodes, resourceOfPath } from '../../calendar/resources'
import type { CalendarRuntime, CustomField } from '../../options'
import type { RestContext } from '../context'
import { RestError } from '../../server/errors'
import type { AnyRoute, HttpMethod, RestResult } from '../route'
import {
  componentRef,
  componentSchemas,
  ErrorBody,
  responseSchemas,
  type JsonSchema,
} from '../schemas/responses'

type ObjectSchema = JsonSchema & { properties?: Record<string, JsonSchema>; required?: string[] }

const PATH_PATTERNS: Record<string, string> = { id: '(?P<id>\\d+)', slug: '(?P<slug>[^/]+)' }
/** Keywords of an argument worth publishing (WordPress echoes only JSON-schema ones). */
const ARG_KEYWORDS = [
  'type',
  'description',
  'default',
  'enum',
  'items',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'anyOf',
  'oneOf',
  'pattern',
]

/** A route's parameters as JSON Schema (2020-12, which OpenAPI 3.1 uses), describing what is accepted. */
function inputSchema(route: AnyRoute): ObjectSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(route.params, {
    io: 'input',
    unrepresentable: 'any',
  }) as ObjectSchema
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (refused(route.params.shape[name] as z.ZodType, property))
      schema.properties![name] = {
        not: {},
        description: 'Not accepted: any value is a 400 `rest_invalid_param`.',
      }
  }
  return schema
}

const SAMPLES = [0, 1, '', 'x', '1', null, true, false, [], {}]

/** A parameter that exists only to be refused (a tag's `parent`): JSON Schema shows it as "anything". */
function refused(schema: z.ZodType, property: JsonSchema): boolean {
  const described = Object.keys(property).filter((keyword) => keyword !== 'description')
  return described.length === 0 && SAMPLES.every((sample) => !schema.safeParse(sample).success)
}

/**
 * What the route uses for each argument left out. Read from the schema itself rather than from its JSON
 * Schema, which drops the defaults of arguments that are transformed (`page` is text or a number, 1 by default).
 */
function defaultsOf(route: AnyRoute): Record<string, unknown> {
  const defaults: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(route.params.shape)) {
    try {
      const parsed = (schema as z.ZodType).safeParse(undefined)
      if (parsed.success && parsed.data !== undefined) defaults[name] = parsed.data
    } catch {
      // an asynchronous check: no default to read
    }
  }
  return defaults
}

function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((found) => found[1]!)
}

/** The JSON types an argument accepts, for WordPress's `type` (a list when several: `["integer", "string"]`). */
function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === 'string') return [schema.type]
  if (Array.isArray(schema.type)) return schema.type as string[]
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
  if (branches) return [...new Set(branches.flatMap(typesOf))]
  return []
}

/** The argument with the route's default, as published by both the index and `/doc`. */
function argumentSchema(
  property: JsonSchema,
  defaults: Record<string, unknown>,
  name: string,
): JsonSchema {
  return name in defaults ? { ...property, default: defaults[name] } : property
}

type Endpoint = {
  route: AnyRoute
  methods: readonly HttpMethod[]
  schema: ObjectSchema
  defaults: Record<string, unknown>
  /** The index's `args`: each argument's JSON Schema keywords and whether it is required. */
  args: Record<string, JsonSchema>
}
type Group = { path: string; endpoints: Endpoint[] }

function argsOf(
  schema: ObjectSchema,
  defaults: Record<string, unknown>,
): Record<string, JsonSchema> {
  const args: Record<string, JsonSchema> = {}
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const described = argumentSchema(property, defaults, name)
    const types = typesOf(described)
    const arg: JsonSchema = {
      required: (schema.required ?? []).includes(name) && !(name in defaults),
    }
    if (!('type' in described) && types.length) arg.type = types.length === 1 ? types[0] : types
    for (const keyword of ARG_KEYWORDS) if (keyword in described) arg[keyword] = described[keyword]
    args[name] = arg
  }
  return args
}

/** Computed once, on first use: the route table hands itself over before it is complete. */
function once<T>(compute: () => T): () => T {
  let value: T | undefined
  return () => (value ??= compute())
}

/** Routes grouped by path in table order, with each endpoint's arguments. */
function groupedRoutes(routes: AnyRoute[]): Group[] {
  const groups = new Map<string, Group>()
  for (const route of routes) {
    const group = groups.get(route.path) ?? { path: route.path, endpoints: [] }
    const schema = inputSchema(route)
    const defaults = defaultsOf(route)
    group.endpoints.push({
      route,
      methods: route.methods,
      schema,
      defaults,
      args: argsOf(schema, defaults),
    })
    groups.set(route.path, group)
  }
  return [...groups.values()]
}

/** A route's path as WordPress keys its index, a regular expression: `/events/(?P<id>\d+)`, `/events\.ics`. */
function patternOf(path: string): string {
  return path
    .split(/(\{\w+\})/)
    .map((piece) => {
      const name = /^\{(\w+)\}$/.exec(piece)?.[1]
      return name === undefined
        ? piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        : PATH_PATTERNS[name]!
    })
    .join('')
}

/** `GET /` of the namespace: WordPress's namespace index (docs/api.md §13), routes keyed by pattern. */
async function namespaceIndex(
  grouped: () => Group[],
  ctx: RestContext,
  params: { namespace?: string },
): Promise<RestResult> {
  const { namespace } = ctx.calendar
  if (params.namespace !== undefined && params.namespace !== namespace)
    throw new RestError(
      'rest_invalid_namespace',
      'The specified namespace could not be found.',
      404,
    )
  const routes: Record<string, unknown> = {}
  for (const group of grouped()) {
    const pattern = `/${namespace}${patternOf(group.path)}`
    routes[pattern] = {
      namespace,
      methods: [...new Set(group.endpoints.flatMap((endpoint) => endpoint.methods))],
      endpoints: group.endpoints.map((endpoint) => ({
        methods: endpoint.methods,
        args: endpoint.args,
      })),
      ...(pathParamsOf(group.path).length
        ? {}
        : { _links: { self: [{ href: `${ctx.root}${group.path}` }] } }),
    }
  }
  const apiRoot = ctx.root.slice(0, -namespace.length)
  return { body: { namespace, routes, _links: { up: [{ href: apiRoot }] } } }
}

/** JSON Schema of a field a developer added, from its Payload type. */
function customFieldSchema(field: CustomField): JsonSchema {
  const described = { description: `${field.label} (a field added to this collection).` }
  if (field.options) return { ...described, enum: field.options }
  if (field.type === 'number') return { ...described, type: 'number' }
  if (field.type === 'checkbox') return { ...described, type: 'boolean' }
  if (field.type === 'date') return { ...described, type: 'string', format: 'date-time' }
  if (['text', 'textarea', 'email', 'code'].includes(field.type))
    return { ...described, type: 'string' }
  return described
}

/** A path segment's value is text matched by `\d+` or `[^/]+`: of the accepted forms, the one it is. */
function pathParameterSchema(schema: JsonSchema): JsonSchema {
  const branches = (schema.anyOf ?? []) as JsonSchema[]
  for (const branch of branches) {
    if (branch.type === 'integer') return branch
    const nested = pathParameterSchema(branch)
    if (nested.type === 'integer') return nested
  }
  const { description: _description, ...rest } = schema
  return rest
}

const TAGS = [
  {
    name: 'Discovery',
    description: 'The namespace index, this document and its interactive reference (`/reference`).',
  },
  ...RESOURCES.map((resource) => ({ name: resource.title, description: resource.description })),
]

function tagOf(route: AnyRoute): string {
  return resourceOfPath(route.path)?.title ?? 'Discovery'
}

const errorContent = {
  'application/json': { schema: { $ref: componentRef(responseSchemas.get(ErrorBody)!.id) } },
}
const error = (...causes: string[]) => ({ description: causes.join(' '), content: errorContent })

/** The errors a route can answer, each with its codes (docs/api.md §11, docs/api.md §11). */
function errorResponses(route: AnyRoute, method: HttpMethod): Record<string, unknown> {
  const resource = resourceOfPath(route.path)
  const kind = resource?.key
  const item = pathParamsOf(route.path).length > 0
  const withBody = method !== 'GET'
  const codes = resource?.family === 'authored' ? errorCodes(resource) : undefined
  const responses: Record<string, unknown> = {}

  responses['400'] = error(
    '`rest_invalid_param`: a parameter is invalid (`data.params` maps each to the reason), including an unknown id or slug and a language the site does not offer;',
    '`rest_missing_callback_param`: required parameters are missing (`data.params` lists them).',
    ...(withBody
      ? ['`rest_invalid_json` / `rest_invalid_multipart`: the body cannot be read.']
      : []),
    ...(resource?.family === 'term' && (method === 'POST' || method === 'PUT' || method === 'PATCH')
      ? ['`term_exists`: the name is taken (`data.term_id`).']
      : []),
  )
  if (route.authorize) {
    responses['401'] = error(
      '`rest_forbidden`: sign in (`Authorization: JWT <token>` or `users API-Key <key>`).',
    )
    responses['403'] = error('`rest_forbidden`: the signed-in user may not do this.')
  } else if (method === 'GET' && item && kind === 'events') {
    const causes =
      '`event-no-longer-available` (in the trash), `event-not-accessible` (not published and not yours to read)'
    // A protected event's file holds its title and times rather than being refused.
    responses['403'] = error(
      route.produces
        ? `${causes}.`
        : `${causes}, \`event-password-protected\` (give \`password\`).`,
    )
  } else if (method === 'GET' && item && codes) {
    responses['403'] = error(`\`${codes.notAccessible}\`: not published and not yours to read.`)
  }

  const notFound = ['`rest_no_route`: a language root the site does not offer.']
  if (route.path === '')
    notFound.unshift('`rest_invalid_namespace`: `namespace` names another namespace;')
  if (method === 'GET' && !item && codes && !route.produces)
    notFound.unshift(`\`${codes.pastLastPage}\`: a page past the last one;`)
  if (kind === 'events' && codes && route.path.includes('{id}'))
    notFound.unshift(`\`${codes.notFound}\`: no event has this id;`)
  responses['404'] = error(...notFound)

  if (method === 'DELETE' && codes)
    responses['410'] = error(`\`${codes.inTrash}\`: already in the trash.`)
  if (withBody)
    responses['413'] = error('`rest_request_too_large`: the body is over the size limit.')
  responses['503'] = error('`rest_database_unavailable`: try again after `Retry-After` seconds.')
  return responses
}

function schemaRef(schema: z.ZodType | undefined): JsonSchema {
  if (!schema) return { type: 'object' }
  const named = responseSchemas.get(schema)
  if (named) return { $ref: componentRef(named.id) }
  const { $schema: _dialect, ...inline } = z.toJSONSchema(schema, {
    unrepresentable: 'any',
  }) as JsonSchema
  return inline
}

const HEADER = {
  etag: {
    description: 'Strong validator of the body; send it back in `If-None-Match` to get a 304.',
    schema: { type: 'string' },
  },
  cacheControl: {
    description:
      '`public, max-age=0, must-revalidate` for anonymous readers, `private, no-store` for signed-in ones.',
    schema: { type: 'string' },
  },
  total: {
    description: 'Items matching, over all pages.',
    schema: { type: 'integer', minimum: 0 },
  },
  totalPages: { description: 'Pages of items.', schema: { type: 'integer', minimum: 0 } },
  link: { description: 'RFC 8288 `next` and `prev` links.', schema: { type: 'string' } },
}

function successResponse(route: AnyRoute, method: HttpMethod) {
  const id = route.response && responseSchemas.get(route.response)?.id
  const list = Boolean(id?.endsWith('List'))
  const created = method === 'POST' && !pathParamsOf(route.path).length
  const headers = {
    'Cache-Control': HEADER.cacheControl,
    ...(method === 'GET' ? { ETag: HEADER.etag } : {}),
    ...(list
      ? { 'X-Total': HEADER.total, 'X-Total-Pages': HEADER.totalPages, Link: HEADER.link }
      : {}),
    ...(route.produces?.startsWith('text/csv') ? { 'X-Total': HEADER.total } : {}),
  }
  const description = created
    ? 'Created (venues and organizers: or the identical one that already existed).'
    : method === 'DELETE'
      ? 'The item as it was deleted (events, venues, organizers: now in the trash).'
      : 'Success.'
  const content = route.produces
    ? { [route.produces.split(';')[0]!]: { schema: { type: 'string' } } }
    : { 'application/json': { schema: schemaRef(route.response) } }
  return { [created ? '201' : '200']: { description, headers, content } }
}

/** Properties that may be objects or lists: sent as PHP brackets in form bodies (`venue[city]=Lyon`, `cost[]=0$`). */
function bracketEncoded(
  properties: Record<string, JsonSchema>,
): Record<string, { style: string; explode: boolean }> {
  const structured = (schema: JsonSchema): boolean =>
    schema.type === 'object' ||
    schema.type === 'array' ||
    (Array.isArray(schema.type) &&
      (schema.type.includes('object') || schema.type.includes('array'))) ||
    ((schema.anyOf ?? []) as JsonSchema[]).some(structured)
  return Object.fromEntries(
    Object.entries(properties)
      .filter(([, schema]) => structured(schema))
      .map(([name]) => [name, { style: 'deepObject', explode: true }]),
  )
}

function operationOf(calendar: CalendarRuntime, endpoint: Endpoint, method: HttpMethod) {
  const { route, schema, defaults } = endpoint
  const pathParams = pathParamsOf(route.path)
  const inBody = method === 'POST' || method === 'PUT' || method === 'PATCH'
  const custom = route.customFields ? calendar.customFields[route.customFields] : []
  const properties: Record<string, JsonSchema> = {
    ...Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, property]) => [
        name,
        argumentSchema(property, defaults, name),
      ]),
    ),
    ...Object.fromEntries(custom.map((field) => [field.name, customFieldSchema(field)])),
  }
  const required = (schema.required ?? []).filter((name) => !(name in defaults))
  const parameters = Object.entries(properties)
    .filter(([name]) => pathParams.includes(name) || !inBody || name === 'i18n_language')
    .map(([name, property]) => {
      const { description, ...rest } = property
      const inPath = pathParams.includes(name)
      return {
        name,
        in: inPath ? 'path' : 'query',
        required: inPath || required.includes(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: inPath ? pathParameterSchema(rest) : rest,
      }
    })
  const bodyProperties = Object.fromEntries(
    Object.entries(properties).filter(
      ([name]) => !pathParams.includes(name) && name !== 'i18n_language',
    ),
  )
  const bodyRequired = required.filter((name) => name in bodyProperties)
  const bodySchema = {
    type: 'object',
    properties: bodyProperties,
    ...(bodyRequired.length ? { required: bodyRequired } : {}),
  }
  const encoding = bracketEncoded(bodyProperties)
  return {
    tags: [tagOf(route)],
    operationId: operationIdOf(route.path, method),
    summary: route.summary,
    ...(route.authorize ? { security: [{ authorization: [] }] } : {}),
    parameters,
    ...(inBody
      ? {
          requestBody: {
            required: bodyRequired.length > 0,
            content: {
              'application/json': { schema: bodySchema },
              'application/x-www-form-urlencoded': {
                schema: bodySchema,
                ...(Object.keys(encoding).length ? { encoding } : {}),
              },
              'multipart/form-data': { schema: bodySchema },
            },
          },
        }
      : {}),
    responses: {
      ...successResponse(route, method),
      ...(method === 'GET'
        ? {
            '304': {
              description: 'Not modified: `If-None-Match` matched the ETag; no body.',
              headers: { ETag: HEADER.etag },
            },
          }
        : {}),
      ...errorResponses(route, method),
    },
  }
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/**
 * `GET /events/{id}` → `getEventsById`, `GET /events/by-slug/{slug}` → `getEventsBySlug`, `GET /` → `getIndex`,
 * `GET /events/{id}.ics` → `getEventsByIdIcs`.
 */
function operationIdOf(path: string, method: HttpMethod): string {
  const segments = path.split('/').filter(Boolean)
  const words = segments.flatMap((segment, i) => {
    const [name = '', extension] = segment.split('.')
    const parameter = /^\{(\w+)\}$/.exec(name)?.[1]
    const base = !parameter
      ? name.split('-')
      : segments[i - 1] === `by-${parameter}`
        ? []
        : ['by', parameter]
    return extension ? [...base, extension] : base
  })
  return method.toLowerCase() + (words.map(capitalized).join('') || 'Index')
}

type Paths = Record<string, Record<string, unknown>>

function paths(
  grouped: () => Group[],
  documentPaths: WeakMap<CalendarRuntime, Paths>,
  calendar: CalendarRuntime,
): Paths {
  let computed = documentPaths.get(calendar)
  if (!computed) {
    computed = {}
    for (const group of grouped()) {
      const operations: Record<string, unknown> = {}
      for (const endpoint of group.endpoints) {
        for (const method of endpoint.methods)
          operations[method.toLowerCase()] = operationOf(calendar, endpoint, method)
      }
      computed[group.path || '/'] = operations
    }
    documentPaths.set(calendar, computed)
  }
  return computed
}

const components = once(() => ({
  schemas: componentSchemas(),
  securitySchemes: {
    authorization: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description:
        '`JWT <token>` (from `POST /api/users/login`) or `users API-Key <key>`. Without it, requests are anonymous.',
    },
  },
}))

/** `GET /doc`: OpenAPI 3.1 generated from the schemas that validate requests (docs/api.md §13). */
async function openApiDocument(
  documentPaths: (calendar: CalendarRuntime) => Paths,
  ctx: RestContext,
): Promise<RestResult> {
  return {
    body: {
      openapi: '3.1.0',
      info: {
        title: 'Events Calendar REST API',
        version: '1.0.0',
        description:
          'Events, venues, organizers, categories and tags, in the languages the site offers (`i18n_language`, or the language roots `/{lang}/api/...`). Every GET answers with a strong ETag; errors are `{ code, message, data: { status } }`. Interactive reference: `reference`, next to this document.',
      },
      servers: [{ url: ctx.root }],
      security: [{}, { authorization: [] }],
      tags: TAGS,
      paths: documentPaths(ctx.calendar),
      components: components(),
    },
  }
}

/**
 * The namespace index and `/doc` of a route table. The table is handed over rather than imported,
 * since it holds these two routes itself; it is read on first use, once complete.
 */
export function discovery(routes: () => AnyRoute[]) {
  const grouped = once(() => groupedRoutes(routes()))
  // Per installation of the plugin: its developers' fields shape the document.
  const computed = new WeakMap<CalendarRuntime, Paths>()
  const documentPaths = (calendar: CalendarRuntime) => paths(grouped, computed, calendar)
  return {
    namespaceIndex: (ctx: RestContext, params: { namespace?: string }) =>
      namespaceIndex(grouped, ctx, params),
    openApiDocument: (ctx: RestContext) => openApiDocument(documentPaths, ctx),
  }
}
