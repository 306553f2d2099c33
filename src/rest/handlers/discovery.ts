import { z } from 'zod'
import type { CustomField } from '../../options'
import type { RestContext } from '../context'
import { RestError } from '../http/errors'
import type { HttpMethod, RestResult, Route } from '../route'
import { ROUTES } from '../routes'

type JsonSchema = { [keyword: string]: unknown; properties?: Record<string, JsonSchema>; required?: string[] | boolean }

const PATH_PATTERNS: Record<string, string> = { id: '(?P<id>\\d+)', slug: '(?P<slug>[^/]+)' }
/** Keywords of an argument worth publishing (WordPress echoes only JSON-schema ones). */
const ARG_KEYWORDS = ['type', 'description', 'default', 'enum', 'items', 'format', 'minimum', 'maximum', 'anyOf', 'oneOf', 'pattern']

/** A route's parameters as JSON Schema (2020-12, which OpenAPI 3.1 uses), describing what is accepted. */
function inputSchema(route: Route): JsonSchema {
  return z.toJSONSchema(route.params, { io: 'input', unrepresentable: 'any' }) as JsonSchema
}

function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((found) => found[1]!)
}

function argsOf(schema: JsonSchema): Record<string, JsonSchema> {
  const args: Record<string, JsonSchema> = {}
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const arg: JsonSchema = { required: Array.isArray(schema.required) && schema.required.includes(name) && !('default' in property) }
    for (const keyword of ARG_KEYWORDS) if (keyword in property) arg[keyword] = property[keyword]
    args[name] = arg
  }
  return args
}

type Group = { path: string; endpoints: { methods: readonly HttpMethod[]; schema: JsonSchema; route: Route }[] }

/**
 * Computed once, on first use rather than at import: the route table imports this module, so it is
 * not complete yet while this module loads.
 */
function once<T>(compute: () => T): () => T {
  let value: T | undefined
  return () => (value ??= compute())
}

/** Routes grouped by path in table order, with each endpoint's arguments. */
const grouped = once((): Group[] => {
  const groups = new Map<string, Group>()
  for (const route of ROUTES) {
    const group = groups.get(route.path) ?? { path: route.path, endpoints: [] }
    group.endpoints.push({ methods: route.methods, schema: inputSchema(route), route })
    groups.set(route.path, group)
  }
  return [...groups.values()]
})

/** `GET /` of the namespace: WordPress's namespace index (upstream §2), routes keyed by pattern. */
export async function namespaceIndex(ctx: RestContext, params: { namespace?: string }): Promise<RestResult> {
  const { namespace } = ctx.calendar
  if (params.namespace !== undefined && params.namespace !== namespace) throw new RestError('rest_invalid_namespace', 'The specified namespace could not be found.', 404)
  const routes: Record<string, unknown> = {}
  for (const group of grouped()) {
    const pattern = `/${namespace}${group.path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_PATTERNS[name]!)}`
    routes[pattern] = {
      namespace,
      methods: [...new Set(group.endpoints.flatMap((endpoint) => endpoint.methods))],
      endpoints: group.endpoints.map((endpoint) => ({ methods: endpoint.methods, args: argsOf(endpoint.schema) })),
      ...(pathParamsOf(group.path).length ? {} : { _links: { self: [{ href: `${ctx.root}${group.path}` }] } }),
    }
  }
  const apiRoot = ctx.root.slice(0, -namespace.length)
  return { body: { namespace, routes, _links: { up: [{ href: apiRoot }] } } }
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    data: { type: 'object', required: ['status'], properties: { status: { type: 'integer' }, params: {} }, additionalProperties: true },
  },
}

/** JSON Schema of a field a developer added, from its Payload type. */
function customFieldSchema(field: CustomField): JsonSchema {
  const described = { description: `${field.label} (a field added to this collection).` }
  if (field.options) return { ...described, enum: field.options }
  if (field.type === 'number') return { ...described, type: 'number' }
  if (field.type === 'checkbox') return { ...described, type: 'boolean' }
  if (field.type === 'date') return { ...described, type: 'string', format: 'date-time' }
  if (['text', 'textarea', 'email', 'code'].includes(field.type)) return { ...described, type: 'string' }
  return described
}

function operationOf(ctx: RestContext, route: Route, method: HttpMethod, schema: JsonSchema) {
  const pathParams = pathParamsOf(route.path)
  const inBody = method === 'POST' || method === 'PUT' || method === 'PATCH'
  const custom = route.customFields ? ctx.calendar.customFields[route.customFields] : []
  const properties = { ...schema.properties, ...Object.fromEntries(custom.map((field) => [field.name, customFieldSchema(field)])) }
  const required = Array.isArray(schema.required) ? schema.required : []
  const parameters = Object.entries(properties)
    .filter(([name]) => pathParams.includes(name) || !inBody || name === 'i18n_language')
    .map(([name, property]) => ({
      name,
      in: pathParams.includes(name) ? 'path' : 'query',
      required: pathParams.includes(name) || (required.includes(name) && !('default' in property)),
      ...(typeof property.description === 'string' ? { description: property.description } : {}),
      schema: property,
    }))
  const bodyProperties = Object.fromEntries(Object.entries(properties).filter(([name]) => !pathParams.includes(name) && name !== 'i18n_language'))
  const bodySchema = { type: 'object', properties: bodyProperties, required: required.filter((name) => name in bodyProperties) }
  const success = method === 'POST' && !pathParams.length && route.path !== '' ? '201' : '200'
  return {
    operationId: `${method.toLowerCase()}${route.path.replace(/[^a-zA-Z]+(\w)/g, (_, c: string) => c.toUpperCase()) || 'Index'}`,
    summary: route.summary,
    parameters,
    ...(inBody
      ? { requestBody: { required: bodySchema.required.length > 0, content: { 'application/json': { schema: bodySchema }, 'application/x-www-form-urlencoded': { schema: bodySchema } } } }
      : {}),
    responses: {
      [success]: { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } },
      ...(method === 'GET' ? { '304': { description: 'Not modified (If-None-Match matched the ETag)' } } : {}),
      '4XX': { description: 'Invalid request, not allowed, or not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  }
}

/** The paths of the OpenAPI document, from the route table and the developers' fields of the config. */
let documentPaths: Record<string, Record<string, unknown>> | undefined
function paths(ctx: RestContext) {
  return (documentPaths ??= pathsOf(ctx))
}

function pathsOf(ctx: RestContext) {
  const byPath: Record<string, Record<string, unknown>> = {}
  for (const group of grouped()) {
    const operations: Record<string, unknown> = {}
    for (const { methods, schema, route } of group.endpoints) {
      for (const method of methods) operations[method.toLowerCase()] = operationOf(ctx, route, method, schema)
    }
    byPath[group.path || '/'] = operations
  }
  return byPath
}

/** `GET /doc`: OpenAPI 3.1 generated from the schemas that validate requests (contract §11). */
export async function openApiDocument(ctx: RestContext): Promise<RestResult> {
  return {
    body: {
      openapi: '3.1.0',
      info: { title: 'Events Calendar REST API', version: '1.0.0', description: 'Events, venues, organizers, categories and tags, in 23 languages.' },
      servers: [{ url: ctx.root }],
      paths: paths(ctx),
      components: { schemas: { Error: ERROR_SCHEMA } },
    },
  }
}
