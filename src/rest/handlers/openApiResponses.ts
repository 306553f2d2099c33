import { z } from 'zod'
import { errorCodes, resourceOfPath } from '../../calendar/resources'
import type { AnyRoute, HttpMethod } from '../route'
import { componentRef, responseSchemas, type JsonSchema } from '../schemas/responseParts'
import { ErrorBody } from '../schemas/responses'
import { pathParamsOf } from './routeArguments'

const errorContent = {
  'application/json': { schema: { $ref: componentRef(responseSchemas.get(ErrorBody)!.id) } },
}
const error = (...causes: string[]) => ({ description: causes.join(' '), content: errorContent })

/** The errors a route can answer, each with its codes (docs/api.md §11, docs/api.md §11). */
export function errorResponses(route: AnyRoute, method: HttpMethod): Record<string, unknown> {
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
      ? [
          '`rest_invalid_json` / `rest_invalid_multipart`: the body cannot be read;',
          '`rest_incomplete_body`: the body ended before it was complete.',
        ]
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

export const HEADER = {
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

export function successResponse(route: AnyRoute, method: HttpMethod) {
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
