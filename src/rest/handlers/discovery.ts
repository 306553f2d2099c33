import { RESOURCES, resourceOfPath } from '../../calendar/resources'
import type { CalendarRuntime, CustomField } from '../../options'
import { OBJECT_TYPES } from '../schemas/customFields'
import { apiRootOf, siteNameOf, type RestContext } from '../context'
import { offsetHours } from '../../calendar/dates/zone'
import { offsetZoneMinutes } from '../../calendar/dates/wallClock'
import { RestError } from '../../server/errors'
import type { AnyRoute, HttpMethod, RestResult } from '../route'
import { componentSchemas, type JsonSchema } from '../schemas/responseParts'
import { errorResponses, HEADER, successResponse } from './openApiResponses'
import {
  argumentSchema,
  groupedRoutes,
  once,
  pathParamsOf,
  type Endpoint,
  type Group,
} from './routeArguments'

const PATH_PATTERNS: Record<string, string> = { id: '(?P<id>\\d+)', slug: '(?P<slug>[^/]+)' }

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

/**
 * A table's routes as WordPress's indexes list them: keyed by pattern under their namespace (`''` for
 * the REST root's own), each with its methods and arguments, and a link to those without parameters.
 */
function routeEntries(groups: Group[], namespace: string, base: string): Record<string, unknown> {
  const routes: Record<string, unknown> = {}
  for (const group of groups) {
    routes[`/${namespace}${patternOf(group.path)}`] = {
      namespace,
      methods: [...new Set(group.endpoints.flatMap((endpoint) => endpoint.methods))],
      endpoints: group.endpoints.map((endpoint) => ({
        methods: endpoint.methods,
        args: endpoint.args,
      })),
      ...(pathParamsOf(group.path).length
        ? {}
        : { _links: { self: [{ href: `${base}${group.path}` }] } }),
    }
  }
  return routes
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
  const routes = routeEntries(grouped(), namespace, ctx.root)
  return { body: { namespace, routes, _links: { up: [{ href: apiRootOf(ctx) }] } } }
}

/**
 * `GET /api/`: WordPress's REST root index (docs/api.md §13), the site and the one namespace, with
 * the root's own route and the namespace's routes as its index lists them.
 */
async function restRootIndex(
  grouped: () => Group[],
  rootGroups: () => Group[],
  ctx: RestContext,
): Promise<RestResult> {
  const { namespace } = ctx.calendar
  const zone = ctx.settings.timezone
  return {
    body: {
      name: siteNameOf(ctx),
      description: '',
      url: ctx.origin,
      home: ctx.permalinkBase,
      gmt_offset: offsetHours(zone, ctx.now),
      timezone_string: offsetZoneMinutes(zone) === null ? zone : '',
      namespaces: [namespace],
      authentication: {},
      routes: {
        ...routeEntries(rootGroups(), '', apiRootOf(ctx)),
        ...routeEntries(grouped(), namespace, ctx.root),
      },
      _links: { help: [{ href: `${ctx.root}/reference` }] },
    },
  }
}

/** JSON Schema of a field a developer added, from its Payload type. */
function customFieldSchema(field: CustomField): JsonSchema {
  const described = { description: `${field.label} (a field added to this collection).` }
  if (field.hasMany) {
    const { description: _, ...item } = customFieldSchema({ ...field, hasMany: false })
    return { ...described, type: 'array', items: item }
  }
  if (field.options) return { ...described, enum: field.options }
  if (field.type === 'number') return { ...described, type: 'number' }
  if (field.type === 'checkbox') return { ...described, type: 'boolean' }
  if (field.type === 'date') return { ...described, type: 'string', format: 'date-time' }
  if (field.linksTo === 'one') return { ...described, type: 'integer', minimum: 1 }
  if (field.linksTo === 'many')
    return { ...described, type: 'array', items: { type: 'integer', minimum: 1 } }
  if (['text', 'textarea', 'email', 'code'].includes(field.type))
    return { ...described, type: 'string' }
  if (OBJECT_TYPES.has(field.type))
    return { ...described, type: 'object', properties: propertiesOf(field.fields ?? []) }
  if (field.type === 'array' && field.fields)
    return {
      ...described,
      type: 'array',
      items: { type: 'object', properties: propertiesOf(field.fields) },
    }
  if (field.type === 'blocks' && field.blocks?.length)
    return {
      ...described,
      type: 'array',
      items: {
        oneOf: field.blocks.map((block) => ({
          type: 'object',
          properties: { blockType: { const: block.slug }, ...propertiesOf(block.fields) },
          required: ['blockType'],
        })),
      },
    }
  return described
}

const propertiesOf = (fields: CustomField[]): Record<string, JsonSchema> =>
  Object.fromEntries(fields.map((inner) => [inner.name, customFieldSchema(inner)]))

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
  const custom = route.customFields
    ? calendar.customFields[route.customFields].filter((field) => !field.readOnly)
    : []
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
 * The namespace index, `/doc` and the REST root index of the route tables (the namespace's, the
 * root's). The tables are handed over rather than imported, since they hold these routes themselves;
 * they are read on first use, once complete.
 */
export function discovery(routes: () => AnyRoute[], rootRoutes: () => AnyRoute[]) {
  const grouped = once(() => groupedRoutes(routes()))
  const rootGroups = once(() => groupedRoutes(rootRoutes()))
  // Per installation of the plugin: its developers' fields shape the document.
  const computed = new WeakMap<CalendarRuntime, Paths>()
  const documentPaths = (calendar: CalendarRuntime) => paths(grouped, computed, calendar)
  return {
    namespaceIndex: (ctx: RestContext, params: { namespace?: string }) =>
      namespaceIndex(grouped, ctx, params),
    openApiDocument: (ctx: RestContext) => openApiDocument(documentPaths, ctx),
    restRootIndex: (ctx: RestContext) => restRootIndex(grouped, rootGroups, ctx),
  }
}
