/**
 * The namespace as a whole (docs/api.md §1, §13, §14): the index, the OpenAPI 3.1 document at
 * /doc (valid, typed by openapi-typescript, complete, and true to the answers), the reference page,
 * the per-language roots, ETags and Cache-Control, and CORS.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { DateTime } from 'luxon'
import { beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { LANGUAGES } from '../../src/i18n/languages'
import { ROUTES } from '../../src/rest/routes'
import * as shapes from '../../src/rest/schemas/responses'
import { asAdmin, BASE_URL, call, NS, type Reply, ROOT, unique, uploadImage } from '../support/api'
import { expectError, expectInvalidParam } from '../support/expectations'
import {
  createCategory,
  createEvent,
  createOrganizer,
  createTag,
  createVenue,
  translateEvent,
} from '../support/fixtures'

const NAMESPACE = 'cal/events/v1'
const CODES = LANGUAGES.map((language) => language.code)
const PATH_PATTERNS: Record<string, string> = { id: '(?P<id>\\d+)', slug: '(?P<slug>[^/]+)' }

/** `/events/{id}` → `/cal/events/v1/events/(?P<id>\d+)`, `/events.ics` → `/cal/events/v1/events\.ics`, as WordPress keys its index. */
function patternOf(routePath: string): string {
  return `/${NAMESPACE}${routePath.replace(/\./g, '\\.').replace(/\{(\w+)\}/g, (_, name: string) => PATH_PATTERNS[name]!)}`
}

function rootOf(language?: string): string {
  return `${BASE_URL}${language ? `/${language}` : ''}${NS}`
}

type Fixture = {
  tag: string
  eventId: number
  eventSlug: string
  venueId: number
  venueSlug: string
  organizerId: number
  organizerSlug: string
  categoryId: number
  tagId: number
}
let fixture: Fixture
let doc: any

beforeAll(async () => {
  const tag = unique('disc')
  const image = await uploadImage(tag)
  const parent = await createCategory({ name: `${tag} Arts` })
  const category = await createCategory({
    name: `${tag} Theatre`,
    parent: parent.id,
    description: 'Plays and more',
  })
  const eventTag = await createTag({ name: `${tag} outdoor` })
  const venue = await createVenue({
    name: `${tag} Hall`,
    address: '1 Quay Street',
    city: 'Lyon',
    country: 'France',
    zip: '69001',
    phone: '+33 1 23',
    website: 'https://hall.example',
    geoLat: 45.76,
    geoLng: 4.83,
    image: image.id,
  })
  const organizer = await createOrganizer({
    name: `${tag} Company`,
    email: 'company@example.org',
    phone: '+33 4 56',
    website: 'https://company.example',
  })
  const event = await createEvent({
    title: `${tag} Opening night`,
    start: '2031-05-14T17:00:00.000Z',
    end: '2031-05-14T21:00:00.000Z',
    timezone: 'Europe/Paris',
    venue: venue.id,
    organizers: [organizer.id],
    categories: [category.id],
    tags: [eventTag.id],
    image: image.id,
    cost: ['0', '30'],
    currencySymbol: '$',
    currencyPosition: 'postfix',
    excerpt: 'An evening of theatre.',
  })
  await translateEvent(event.id, 'fr', { title: `${tag} Soirée d’ouverture` })
  await translateEvent(event.id, 'de', { title: `${tag} Eröffnungsabend` })
  await translateEvent(event.id, 'ar', { title: `${tag} ليلة الافتتاح` })
  fixture = {
    tag,
    eventId: event.id,
    eventSlug: String(event.slug),
    venueId: venue.id,
    venueSlug: String(venue.slug),
    organizerId: organizer.id,
    organizerSlug: String(organizer.slug),
    categoryId: category.id,
    tagId: eventTag.id,
  }
  doc = (await call(`${NS}/doc`)).body
})

describe('the namespace index', () => {
  it('lists every route keyed by its pattern, with its methods, arguments and links', async () => {
    const reply = await call(NS)
    expect(reply.status).toBe(200)
    const index = reply.body
    expect(index.namespace).toBe(NAMESPACE)
    expect(index._links).toEqual({ up: [{ href: `${BASE_URL}/api/` }] })
    for (const route of ROUTES) {
      const entry = index.routes[patternOf(route.path)]
      expect(entry, patternOf(route.path)).toBeDefined()
      expect(entry.namespace).toBe(NAMESPACE)
      for (const method of route.methods)
        expect(entry.methods, `${method} ${route.path}`).toContain(method)
      expect(
        entry.endpoints.some((endpoint: { methods: string[] }) =>
          route.methods.every((method) => endpoint.methods.includes(method)),
        ),
      ).toBe(true)
      if (route.path.includes('{')) expect(entry._links, route.path).toBeUndefined()
      else expect(entry._links, route.path).toEqual({ self: [{ href: `${ROOT}${route.path}` }] })
    }
    expect(Object.keys(index.routes)).toEqual([
      ...new Set(ROUTES.map((route) => patternOf(route.path))),
    ])
    expect(index.routes[`/${NAMESPACE}/events/(?P<id>\\d+)`].methods).toEqual([
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
    ])
    expect(index.routes[`/${NAMESPACE}/events`].methods).toEqual(['GET', 'POST'])
  })

  it('describes each argument: required, type, default, enum, description', async () => {
    const { routes } = (await call(NS)).body
    const [ownIndex] = routes[`/${NAMESPACE}`].endpoints
    expect(ownIndex.args.context).toMatchObject({
      required: false,
      type: 'string',
      default: 'view',
      enum: ['view', 'edit'],
    })
    expect(ownIndex.args.namespace).toMatchObject({ required: false, type: 'string' })
    const [list, create] = routes[`/${NAMESPACE}/events`].endpoints
    expect(list.methods).toEqual(['GET'])
    expect(list.args.page).toMatchObject({
      required: false,
      default: 1,
      type: ['integer', 'string'],
      description: expect.any(String),
    })
    expect(list.args.per_page).toMatchObject({ required: false })
    expect(list.args.per_page).not.toHaveProperty('default')
    expect(list.args.start_date).toMatchObject({ required: false, type: ['string', 'number'] })
    expect(list.args.i18n_language).toMatchObject({ required: false, type: 'string', enum: CODES })
    expect(create.methods).toEqual(['POST'])
    for (const name of ['title', 'start_date', 'end_date'])
      expect(create.args[name], name).toMatchObject({ required: true })
    expect(create.args.title).toMatchObject({ type: 'string', minLength: 1 })
    expect(create.args.status).toMatchObject({
      required: false,
      type: 'string',
      enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'],
    })
    const [byId] = routes[`/${NAMESPACE}/events/(?P<id>\\d+)`].endpoints
    expect(byId.args.id).toMatchObject({ required: true })
    const [categories] = routes[`/${NAMESPACE}/categories`].endpoints
    expect(categories.args.hide_empty).toMatchObject({ required: false, default: true })
    expect(categories.args.orderby).toMatchObject({
      enum: ['id', 'name', 'slug', 'count', 'description', 'term_group'],
    })
  })

  it('honours its namespace argument', async () => {
    expect((await call(`${NS}?namespace=${encodeURIComponent(NAMESPACE)}`)).status).toBe(200)
    expectError(await call(`${NS}?namespace=other`), 404, 'rest_invalid_namespace')
  })

  it('links to the language root it was asked on', async () => {
    const index = (await call(`/fr${NS}`)).body
    expect(index.routes[`/${NAMESPACE}/events`]._links.self[0].href).toBe(`${rootOf('fr')}/events`)
  })
})

describe('the REST root index', () => {
  it('is WordPress’s /wp-json/: the site, its one namespace and the namespace index’s routes', async () => {
    const settings = (await call('/api/globals/settings')).body
    const home = (settings.siteUrl || BASE_URL).replace(/\/+$/, '')
    const zone: string = settings.timezone || 'UTC'
    const reply = await call('/api/')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toContain('application/json')
    const root = reply.body
    expect(Object.keys(root)).toEqual([
      'name',
      'description',
      'url',
      'home',
      'gmt_offset',
      'timezone_string',
      'namespaces',
      'authentication',
      'routes',
      '_links',
    ])
    expect(root).toMatchObject({
      name: settings.siteName || new URL(home).host,
      description: '',
      url: BASE_URL,
      home,
      gmt_offset: DateTime.now().setZone(zone).offset / 60,
      timezone_string: /^UTC[+-]/.test(zone) ? '' : zone,
      namespaces: [NAMESPACE],
      authentication: {},
      _links: { help: [{ href: `${ROOT}/reference` }] },
    })
    const { routes: namespaceRoutes } = (await call(NS)).body
    const { '/': own, ...rest } = root.routes
    expect(rest).toEqual(namespaceRoutes)
    expect(Object.keys(root.routes)[0]).toBe('/')
    expect(own).toMatchObject({
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { required: false, default: 'view' } } }],
      _links: { self: [{ href: `${BASE_URL}/api/` }] },
    })
    expect((await call('/api')).body).toEqual(root)
  })

  it('is served on every language root, with that root’s links', async () => {
    const root = (await call('/fr/api/')).body
    expect(root.namespaces).toEqual([NAMESPACE])
    expect(root.routes['/']._links.self[0].href).toBe(`${BASE_URL}/fr/api/`)
    expect(root.routes[`/${NAMESPACE}/events`]._links.self[0].href).toBe(`${rootOf('fr')}/events`)
    expect(root._links.help[0].href).toBe(`${rootOf('fr')}/reference`)
    // Without a language's prefix it is a permalink's path (`/venue/api/`), here of nothing.
    const other = await call('/xx/api/')
    expect(other.status).toBe(404)
    expect(other.headers.get('content-type')).toContain('text/html')
  })

  it('answers HEAD, If-None-Match and CORS as the namespace does, other methods rest_no_route', async () => {
    const get = await call('/api/')
    const etag = get.headers.get('etag')
    expect(etag).toMatch(/^"[^"]+"$/)
    expect(etag).not.toBe((await call(NS)).headers.get('etag'))
    expect(get.headers.get('cache-control')).toContain('public')
    const head = await call('/api/', { method: 'HEAD' })
    expect({ status: head.status, body: head.body, etag: head.headers.get('etag') }).toEqual({
      status: 200,
      body: null,
      etag,
    })
    const fresh = await call('/api/', { headers: { 'If-None-Match': etag! } })
    expect(fresh.status).toBe(304)
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      expectError(await call('/api/', { method, json: {} }), 404, 'rest_no_route')
  })

  it('leaves Payload’s REST API under it as it was', async () => {
    const events = await call('/api/events?limit=1&depth=0')
    expect(events.status).toBe(200)
    expect(events.body).toMatchObject({ docs: expect.any(Array), totalDocs: expect.any(Number) })
  })
})

describe('the OpenAPI document at /doc', () => {
  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    expect(doc.openapi).toBe('3.1.0')
    const validator = new Validator()
    const result = await validator.validate(structuredClone(doc))
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    expect(() => validator.resolveRefs()).not.toThrow()
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []
    expect(refs.length).toBeGreaterThan(50)
    for (const ref of new Set(refs)) {
      const target = ref
        .slice('"$ref":"#/'.length, -1)
        .split('/')
        .reduce((node: any, key) => node?.[key], doc)
      expect(target, ref).toBeDefined()
    }
  })

  it('becomes TypeScript with openapi-typescript, and the types compile and fit the answers', async () => {
    const source = astToString(await openapiTS(structuredClone(doc)))
    expect(source).toContain('"/events/{id}"')
    const dir = mkdtempSync(path.join(tmpdir(), 'cal-openapi-'))
    try {
      writeFileSync(path.join(dir, 'api.ts'), source)
      writeFileSync(
        path.join(dir, 'use.ts'),
        `import type { components, paths } from './api'
type EventList = paths['/events']['get']['responses'][200]['content']['application/json']
export const details: EventList['events'][number]['start_date_details'] = { year: '2031', month: '05', day: '14', hour: '19', minutes: '00', seconds: '00' }
export const noVenue: components['schemas']['Event']['venue'] = []
export const noImage: components['schemas']['Event']['image'] = false
export const created: paths['/events']['post']['responses'][201]['content']['application/json']['id'] = 3
export const error: components['schemas']['Error'] = { code: 'rest_invalid_param', message: 'Invalid parameter(s): page', data: { status: 400, params: { page: 'Must be a positive integer.' }, details: { page: { code: 'rest_invalid_param', message: 'Must be a positive integer.', data: { param: 'page' } } } } }
export const query: paths['/events']['get']['parameters']['query'] = { per_page: 5, start_date: '2031-05-01', i18n_language: 'fr' }
`,
      )
      const program = ts.createProgram([path.join(dir, 'api.ts'), path.join(dir, 'use.ts')], {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
      })
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      expect(diagnostics).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it('documents every route and method of the table, with its success schema', () => {
    const components = doc.components.schemas
    for (const route of ROUTES) {
      const item = doc.paths[route.path || '/']
      expect(item, route.path).toBeDefined()
      for (const method of route.methods) {
        const operation = item[method.toLowerCase()]
        expect(operation, `${method} ${route.path}`).toBeDefined()
        expect(operation.summary).toBe(route.summary)
        const created = method === 'POST' && !route.path.includes('{')
        const success = operation.responses[created ? '201' : '200']
        expect(success, `${method} ${route.path}`).toBeDefined()
        if (route.produces) {
          // A body that is not JSON (`/events.csv`) is documented as text of its media type.
          expect(success.content, `${method} ${route.path}`).toEqual({
            [route.produces.split(';')[0]!]: { schema: { type: 'string' } },
          })
        } else {
          const ref: string = success.content['application/json'].schema.$ref
          expect(ref, `${method} ${route.path}`).toMatch(/^#\/components\/schemas\/\w+$/)
          expect(components[ref.split('/').pop()!]).toBeDefined()
        }
        expect(operation.responses['404'].content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/Error',
        })
        if (method === 'GET')
          expect(operation.responses['304'], `${method} ${route.path}`).toBeDefined()
        else expect(operation.responses['413'], `${method} ${route.path}`).toBeDefined()
        if (route.authorize)
          for (const status of ['401', '403'])
            expect(operation.responses[status].content['application/json'].schema.$ref).toBe(
              '#/components/schemas/Error',
            )
      }
    }
    const operations = Object.values(doc.paths).flatMap((item: any) => Object.values(item)) as {
      operationId: string
    }[]
    expect(operations.length).toBe(ROUTES.reduce((sum, route) => sum + route.methods.length, 0))
    const ids = operations.map((operation) => operation.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^(get|post|put|patch|delete)[A-Z][A-Za-z]*$/)
    expect(doc.paths['/events/{id}'].get.operationId).toBe('getEventsById')
  })

  it('documents parameters with their types, defaults and enums, and both body encodings', () => {
    const list = doc.paths['/events'].get
    const parameter = (operation: any, name: string) =>
      operation.parameters.find((p: { name: string }) => p.name === name)
    expect(parameter(list, 'per_page')).toMatchObject({
      in: 'query',
      required: false,
      description: expect.any(String),
    })
    expect(parameter(list, 'page').schema.default).toBe(1)
    expect(parameter(list, 'start_date')).toMatchObject({
      in: 'query',
      schema: { type: ['string', 'number'] },
    })
    expect(parameter(list, 'i18n_language').schema.enum).toEqual(CODES)
    expect(parameter(doc.paths['/events/{id}'].get, 'id')).toMatchObject({
      in: 'path',
      required: true,
      schema: { type: 'integer' },
    })
    expect(parameter(doc.paths['/events/by-slug/{slug}'].get, 'slug')).toMatchObject({
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })
    expect(parameter(doc.paths['/categories'].get, 'hide_empty').schema.default).toBe(true)
    expect(doc.paths['/tags'].get.parameters.map((p: { name: string }) => p.name)).not.toContain(
      'parent',
    )
    // A tag's `parent` is refused whatever its value (docs/api.md §6.1).
    expect(
      doc.paths['/tags'].post.requestBody.content['application/json'].schema.properties.parent.not,
    ).toEqual({})

    const create = doc.paths['/events'].post
    expect(Object.keys(create.requestBody.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ])
    const body = create.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['title', 'start_date', 'end_date'])
    expect(body.properties.venue.description).toMatch(/venue/i)
    expect(
      create.requestBody.content['application/x-www-form-urlencoded'].encoding.organizer,
    ).toEqual({ style: 'deepObject', explode: true })
    expect(create.responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Event',
    })
    expect(create.security).toEqual([{ authorization: [] }])
    const update = doc.paths['/events/{id}'].patch
    expect(update.requestBody.required).toBe(false)
    expect(update.requestBody.content['application/json'].schema.required).toBeUndefined()
    expect(update.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      ['query:i18n_language', 'path:id'],
    )
  })

  it('documents the errors each route can give', () => {
    const codes = (operation: any) => Object.keys(operation.responses).sort()
    expect(codes(doc.paths['/events'].get)).toEqual(['200', '304', '400', '404', '503'])
    expect(codes(doc.paths['/events/{id}'].get)).toEqual(['200', '304', '400', '403', '404', '503'])
    expect(codes(doc.paths['/events/{id}'].delete)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '410',
      '413',
      '503',
    ])
    expect(codes(doc.paths['/categories/{id}'].delete)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '503',
    ])
    expect(codes(doc.paths['/venues'].post)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '413',
      '503',
    ])
    expect(doc.paths['/events'].get.responses['400'].description).toMatch(
      /rest_invalid_param.*rest_missing_callback_param/s,
    )
    expect(doc.paths['/events'].get.responses['404'].description).toContain(
      'event-archive-page-not-found',
    )
    expect(doc.paths['/events/{id}'].get.responses['403'].description).toContain(
      'event-password-protected',
    )
    expect(doc.paths['/venues/{id}'].delete.responses['410'].description).toContain(
      'venue-is-in-trash',
    )
    expect(doc.paths['/'].get.responses['404'].description).toContain('rest_invalid_namespace')
    expect(doc.paths['/events'].get.responses['200'].headers).toHaveProperty('X-Total')
  })

  it('holds the named answer shapes in components.schemas', () => {
    const names = [
      'Event',
      'Venue',
      'Organizer',
      'Category',
      'Tag',
      'EmbeddedTerm',
      'Image',
      'ImageSize',
      'DateDetails',
      'CostDetails',
    ]
    const lists = [
      'EventList',
      'VenueList',
      'OrganizerList',
      'CategoryList',
      'TagList',
      'NamespaceIndex',
      'Error',
    ]
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([...names, ...lists]),
    )
    const schemas = doc.components.schemas
    expect(schemas.DateDetails.properties.month).toEqual({ type: 'string', pattern: '^\\d{2}$' })
    expect(schemas.Image.properties.sizes.additionalProperties).toEqual({
      $ref: '#/components/schemas/ImageSize',
    })
    expect(schemas.Event.properties.image.anyOf).toEqual([
      { $ref: '#/components/schemas/Image' },
      { type: 'boolean', const: false },
    ])
    expect(schemas.Event.properties.author.type).toBe('string')
    expect(schemas.Event.required).toContain('custom_fields')
    expect(schemas.Venue.required).toEqual([
      'id',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ])
    expect(schemas.Category.required).toContain('parent')
    expect(schemas.Tag.properties).not.toHaveProperty('parent')
    expect(schemas.CostDetails.properties).not.toHaveProperty('currency_position ')
  })

  it('has the namespace root of the request’s language as its server', async () => {
    expect(doc.servers[0].url).toBe(ROOT)
    const french = (await call(`/fr${NS}/doc`)).body
    expect(french.servers[0].url).toBe(rootOf('fr'))
    expect(french.paths).toEqual(doc.paths)
  })
})

/** Keys that the schema does not declare, anywhere in `value` (zod objects ignore them when parsing). */
function undeclaredKeys(value: unknown, schema: z.ZodType, at = '$'): string[] {
  const def = (schema as unknown as { def: Record<string, any> }).def
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return value === undefined || value === null ? [] : undeclaredKeys(value, def.innerType, at)
    case 'union': {
      const branch = (def.options as z.ZodType[]).find((option) => option.safeParse(value).success)
      return branch ? undeclaredKeys(value, branch, at) : []
    }
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((item, i) => undeclaredKeys(item, def.element, `${at}[${i}]`))
        : []
    case 'record':
      return Object.entries(value as object).flatMap(([key, item]) =>
        undeclaredKeys(item, def.valueType, `${at}.${key}`),
      )
    case 'object': {
      const loose = def.catchall?.def?.type === 'unknown'
      return Object.entries(value as object).flatMap(([key, item]) =>
        key in def.shape
          ? undeclaredKeys(item, def.shape[key], `${at}.${key}`)
          : loose
            ? []
            : [`${at}.${key}`],
      )
    }
    default:
      return []
  }
}

/** The answer has the documented shape: it parses, and carries no key the schema does not declare. */
function expectShape(reply: Reply, schema: z.ZodType): void {
  expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBeLessThan(300)
  const parsed = schema.safeParse(reply.body)
  expect(
    parsed.success ? [] : parsed.error.issues,
    JSON.stringify(reply.body).slice(0, 2000),
  ).toEqual([])
  expect(undeclaredKeys(reply.body, schema)).toEqual([])
}

describe('the documented shapes are the answers', () => {
  it('events: in lists every key in order, single reads with json_ld', async () => {
    const list = await call(`${NS}/events?include=${fixture.eventId}`)
    expectShape(list, shapes.EventList)
    const [event] = list.body.events
    const keys = Object.keys(shapes.Event.shape)
    expect(Object.keys(event)).toEqual(keys.filter((key) => key !== 'json_ld'))
    expect(event.venue.id).toBe(fixture.venueId)
    expect(event.image).toMatchObject({ id: expect.any(Number), sizes: expect.any(Object) })
    expect(event.cost).toBe('Free – 30$')
    const single = await call(`${NS}/events/${fixture.eventId}`)
    expectShape(single, shapes.Event)
    expect(Object.keys(single.body)).toEqual(keys)
    expectShape(await call(`${NS}/events/by-slug/${fixture.eventSlug}`), shapes.Event)
    const empty = await call(`${NS}/events?search=${unique('nothing')}`)
    expectShape(empty, shapes.EventList)
  })

  it('an event with nothing linked: venue [], image false, custom_fields []', async () => {
    const bare = await createEvent({ title: `${fixture.tag} Bare` })
    const reply = await call(`${NS}/events/${bare.id}`)
    expectShape(reply, shapes.Event)
    expect(reply.body).toMatchObject({
      venue: [],
      image: false,
      custom_fields: [],
      organizer: [],
      categories: [],
      tags: [],
    })
  })

  it('venues and organizers, alone and in lists', async () => {
    const venue = await call(`${NS}/venues/${fixture.venueId}`)
    expectShape(venue, shapes.Venue)
    expect(
      Object.keys(venue.body).every((key) => key in shapes.Venue.shape),
      Object.keys(venue.body).join(),
    ).toBe(true)
    expect(venue.body).toMatchObject({
      geo_lat: 45.76,
      city: 'Lyon',
      json_ld: { '@type': 'Place' },
    })
    expectShape(await call(`${NS}/venues/by-slug/${fixture.venueSlug}`), shapes.Venue)
    expectShape(await call(`${NS}/venues?search=${fixture.tag}`), shapes.VenueList)
    const organizer = await call(`${NS}/organizers/${fixture.organizerId}`)
    expectShape(organizer, shapes.Organizer)
    expect(
      Object.keys(organizer.body).every((key) => key in shapes.Organizer.shape),
      Object.keys(organizer.body).join(),
    ).toBe(true)
    expectShape(await call(`${NS}/organizers/by-slug/${fixture.organizerSlug}`), shapes.Organizer)
    expectShape(await call(`${NS}/organizers?search=${fixture.tag}`), shapes.OrganizerList)
  })

  it('categories and tags in their endpoint shape; the index; errors', async () => {
    const category = await call(`${NS}/categories/${fixture.categoryId}`)
    expectShape(category, shapes.Category)
    expect(category.body.urls.up).toBeDefined()
    expectShape(await call(`${NS}/categories?search=${fixture.tag}`), shapes.CategoryList)
    expectShape(await call(`${NS}/tags/${fixture.tagId}`), shapes.Tag)
    expectShape(await call(`${NS}/tags?search=${fixture.tag}`), shapes.TagList)
    expectShape(await call(NS), shapes.NamespaceIndex)
    expectShape(await call(`${NS}/doc`), shapes.OpenApiDocument)
    for (const path of ['/events?page=0', '/events', '/events/999999999', '/nowhere']) {
      const reply = await call(
        `${NS}${path}`,
        path === '/events' ? { method: 'POST', token: await asAdmin(), json: {} } : {},
      )
      expect(reply.status).toBeGreaterThanOrEqual(400)
      expect(shapes.ErrorBody.safeParse(reply.body).success, JSON.stringify(reply.body)).toBe(true)
      expect(undeclaredKeys(reply.body, shapes.ErrorBody)).toEqual([])
    }
  })

  it('writes answer the documented shapes too', async () => {
    const token = await asAdmin()
    const created = await call(`${NS}/categories`, {
      method: 'POST',
      token,
      json: { name: unique('Cat') },
    })
    expect(created.status).toBe(201)
    expectShape(created, shapes.Category)
    const deleted = await call(`${NS}/categories/${created.body.id}`, { method: 'DELETE', token })
    expectShape(deleted, shapes.Category)
    const organizer = await call(`${NS}/organizers`, {
      method: 'POST',
      token,
      json: { organizer: unique('Org') },
    })
    expect(organizer.status).toBe(201)
    expectShape(organizer, shapes.Organizer)
    const trashed = await call(`${NS}/organizers/${organizer.body.id}`, { method: 'DELETE', token })
    expectShape(trashed, shapes.Organizer)
    expect(trashed.body.status).toBe('trash')
  })
})

describe('the reference page', () => {
  it('is served with its assets, from this server, on every root', async () => {
    for (const root of [NS, `/fr${NS}`]) {
      const response = await fetch(`${BASE_URL}${root}/reference`)
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toMatch(/^text\/html/)
      const html = await response.text()
      expect(html).toContain('<div id="swagger-ui">')
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
      for (const [, asset] of html.matchAll(/(?:src|href)="(reference\/[^"]+)"/g)) {
        const file = await fetch(
          new URL(asset!.replace(/&amp;/g, '&'), `${BASE_URL}${root}/reference`),
        )
        expect(file.status, asset).toBe(200)
        expect(file.headers.get('Cache-Control')).toBe('public, max-age=86400, immutable')
      }
    }
    expect((await fetch(`${BASE_URL}${NS}/reference/package.json`)).status).toBe(404)
    expect(
      (await fetch(`${BASE_URL}${NS}/reference/`, { redirect: 'manual' })).headers.get('Location'),
    ).toBe(`${NS}/reference`)
  })
})

describe('per-language roots', () => {
  /** The same answer once the language roots are written alike (URLs keep the root they were asked on). */
  function normalised(reply: Reply, language: string): string {
    return JSON.stringify(reply.body.events).replaceAll(
      `${BASE_URL}/${language}/api/`,
      `${BASE_URL}/api/`,
    )
  }

  it('equal ?i18n_language=<lang> for all 23 languages', async () => {
    const query = `include=${fixture.eventId}`
    for (const language of CODES) {
      const viaRoot = await call(`/${language}${NS}/events?${query}`)
      const viaParameter = await call(`${NS}/events?${query}&i18n_language=${language}`)
      expect(viaRoot.status, language).toBe(200)
      expect(viaParameter.status, language).toBe(200)
      expect(normalised(viaRoot, language), language).toBe(normalised(viaParameter, language))
      expect(viaRoot.body.total).toBe(1)
      expect(
        viaRoot.body.rest_url.startsWith(`${rootOf(language)}/events/`),
        viaRoot.body.rest_url,
      ).toBe(true)
      expect(viaRoot.body.events[0].rest_url).toBe(`${rootOf(language)}/events/${fixture.eventId}`)
    }
    expect((await call(`/fr${NS}/events?${query}`)).body.events[0].title).toBe(
      `${fixture.tag} Soirée d’ouverture`,
    )
    expect((await call(`/ar${NS}/events?${query}`)).body.events[0].title).toBe(
      `${fixture.tag} ليلة الافتتاح`,
    )
    expect((await call(`/ja${NS}/events?${query}`)).body.events[0].title).toBe(
      `${fixture.tag} Opening night`,
    )
  })

  it('let an explicit i18n_language win over the root', async () => {
    const reply = await call(`/fr${NS}/events?include=${fixture.eventId}&i18n_language=de`)
    expect(reply.body.events[0].title).toBe(`${fixture.tag} Eröffnungsabend`)
    expect(normalised(reply, 'fr')).toBe(
      normalised(await call(`${NS}/events?include=${fixture.eventId}&i18n_language=de`), 'de'),
    )
  })

  it('refuse unknown languages: 400 as a parameter, 404 as a root', async () => {
    expectInvalidParam(await call(`${NS}/events?i18n_language=xx`), 'i18n_language')
    expectInvalidParam(await call(`/fr${NS}/events?i18n_language=xx`), 'i18n_language')
    const root = await call(`/xx${NS}/events`)
    expect(root.status).toBe(404)
    expect(root.body.code).toBe('rest_no_route')
  })
})

describe('ETag and Cache-Control', () => {
  function getPaths(): string[] {
    return [
      '',
      '/doc',
      `/events?include=${fixture.eventId}`,
      `/events.csv?include=${fixture.eventId}`,
      `/events/${fixture.eventId}`,
      `/events/by-slug/${fixture.eventSlug}`,
      `/events.ics?include=${fixture.eventId}`,
      `/events/${fixture.eventId}.ics`,
      `/events/by-slug/${fixture.eventSlug}.ics`,
      '/venues',
      `/venues/${fixture.venueId}`,
      `/venues/by-slug/${fixture.venueSlug}`,
      '/organizers',
      `/organizers/${fixture.organizerId}`,
      `/organizers/by-slug/${fixture.organizerSlug}`,
      '/categories?hide_empty=false',
      `/categories/${fixture.categoryId}`,
      '/tags?hide_empty=false',
      `/tags/${fixture.tagId}`,
      '/changes?since=now',
    ]
  }

  it('every GET has a strong ETag; If-None-Match answers 304 with no body', async () => {
    // Every GET route of the table is among the paths tried.
    const tried = getPaths().map((p) =>
      p
        .split('?')[0]!
        .replace(/\/\d+(\.ics)?$/, '/{id}$1')
        .replace(/\/by-slug\/[^/.]+(\.ics)?$/, '/by-slug/{slug}$1'),
    )
    for (const route of ROUTES.filter((r) => r.methods.includes('GET')))
      expect(tried).toContain(route.path)
    for (const path of getPaths()) {
      const first = await fetch(`${BASE_URL}${NS}${path}`)
      expect(first.status, path).toBe(200)
      const etag = first.headers.get('ETag')
      expect(etag, path).toMatch(/^"[^"]+"$/)
      expect(first.headers.get('Cache-Control'), path).toBe('public, max-age=0, must-revalidate')
      await first.arrayBuffer()
      const again = await fetch(`${BASE_URL}${NS}${path}`, { headers: { 'If-None-Match': etag! } })
      expect(again.status, path).toBe(304)
      expect(await again.text(), path).toBe('')
      expect(again.headers.get('ETag')).toBe(etag)
      const other = await fetch(`${BASE_URL}${NS}${path}`, {
        headers: { 'If-None-Match': '"something-else"' },
      })
      expect(other.status, path).toBe(200)
      await other.arrayBuffer()
    }
  })

  it('HEAD answers as GET without a body: status, ETag, totals, 304 and 404 alike', async () => {
    for (const path of [...getPaths(), '/fr/events']) {
      const url = path.startsWith('/fr/')
        ? `${BASE_URL}/fr${NS}${path.slice(3)}`
        : `${BASE_URL}${NS}${path}`
      const get = await fetch(url)
      await get.arrayBuffer()
      const head = await fetch(url, { method: 'HEAD' })
      expect(head.status, path).toBe(get.status)
      expect(await head.text(), path).toBe('')
      for (const name of [
        'ETag',
        'Content-Type',
        'Cache-Control',
        'X-Total',
        'X-Total-Pages',
        'Link',
      ])
        expect(head.headers.get(name), `${path} ${name}`).toBe(get.headers.get(name))
      const revalidated = await fetch(url, {
        method: 'HEAD',
        headers: { 'If-None-Match': get.headers.get('ETag')! },
      })
      expect(revalidated.status, path).toBe(304)
    }
    const missing = await fetch(`${BASE_URL}${NS}/events/2147483647`, { method: 'HEAD' })
    expect(missing.status).toBe(404)
    expect(await missing.text()).toBe('')
    const payloadRest = await fetch(`${BASE_URL}/api/events?limit=1`, { method: 'HEAD' })
    expect(payloadRest.status).toBe(200)
    expect(payloadRest.headers.get('Content-Type')).toMatch(/^application\/json/)
  })

  it('a change to the data changes the ETag: the old one gets a 200', async () => {
    const event = await createEvent({ title: `${fixture.tag} Rehearsal` })
    const paths = [`${NS}/events/${event.id}`, `${NS}/events?include=${event.id}`]
    const before = await Promise.all(paths.map(async (p) => (await call(p)).headers.get('ETag')!))
    const patched = await call(`/api/events/${event.id}`, {
      method: 'PATCH',
      token: await asAdmin(),
      json: { title: `${fixture.tag} Dress rehearsal` },
    })
    expect(patched.status).toBe(200)
    for (const [i, p] of paths.entries()) {
      const after = await fetch(`${BASE_URL}${p}`, { headers: { 'If-None-Match': before[i]! } })
      expect(after.status, p).toBe(200)
      const etag = after.headers.get('ETag')
      expect(etag).toMatch(/^"[^"]+"$/)
      expect(etag).not.toBe(before[i])
      expect(JSON.stringify(await after.json())).toContain('Dress rehearsal')
    }
  })

  it('signed-in answers are private, no-store (and still carry an ETag)', async () => {
    const reply = await call(`${NS}/events/${fixture.eventId}`, { token: await asAdmin() })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('Cache-Control')).toBe('private, no-store')
    expect(reply.headers.get('ETag')).toMatch(/^"[^"]+"$/)
    expect(reply.headers.get('Vary')).toMatch(/Authorization/)
  })
})

describe('CORS', () => {
  const origin = 'https://website.example'

  it('answers a preflight', async () => {
    // The namespace's lists, and the REST root index on both roots.
    for (const root of [`${NS}/events`, `/fr${NS}/events`, '/api/', '/fr/api/']) {
      const response = await fetch(`${BASE_URL}${root}`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization',
        },
      })
      expect(response.status, root).toBeGreaterThanOrEqual(200)
      expect(response.status, root).toBeLessThan(300)
      expect(response.headers.get('Access-Control-Allow-Origin'), root).toMatch(
        /^(\*|https:\/\/website\.example)$/,
      )
      expect(response.headers.get('Access-Control-Allow-Methods'), root).toMatch(/\bGET\b/)
      expect(response.headers.get('Access-Control-Allow-Methods'), root).toMatch(/\bPOST\b/)
      expect(response.headers.get('Access-Control-Allow-Headers')?.toLowerCase(), root).toContain(
        'authorization',
      )
    }
  })

  it('lets a page on another origin read the list headers and the ETag', async () => {
    const response = await fetch(`${BASE_URL}${NS}/events?include=${fixture.eventId}`, {
      headers: { Origin: origin },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Access-Control-Allow-Origin')).toMatch(
      /^(\*|https:\/\/website\.example)$/,
    )
    const exposed = (response.headers.get('Access-Control-Expose-Headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
    expect(exposed).toEqual(expect.arrayContaining(['x-total', 'x-total-pages', 'link', 'etag']))
    expect(response.headers.get('X-Total')).toBe('1')
  })
})
