import { z } from 'zod'
import type { AnyRoute, HttpMethod } from '../route'
import type { JsonSchema } from '../schemas/responseParts'

export type ObjectSchema = JsonSchema & {
  properties?: Record<string, JsonSchema>
  required?: string[]
}

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

export function pathParamsOf(path: string): string[] {
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
export function argumentSchema(
  property: JsonSchema,
  defaults: Record<string, unknown>,
  name: string,
): JsonSchema {
  return name in defaults ? { ...property, default: defaults[name] } : property
}

export type Endpoint = {
  route: AnyRoute
  methods: readonly HttpMethod[]
  schema: ObjectSchema
  defaults: Record<string, unknown>
  /** The index's `args`: each argument's JSON Schema keywords and whether it is required. */
  args: Record<string, JsonSchema>
}
export type Group = { path: string; endpoints: Endpoint[] }

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
export function once<T>(compute: () => T): () => T {
  let value: T | undefined
  return () => (value ??= compute())
}

/** Routes grouped by path in table order, with each endpoint's arguments. */
export function groupedRoutes(routes: AnyRoute[]): Group[] {
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
