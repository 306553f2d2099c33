import { listEvents, readEvent, readEventBySlug } from './handlers/events'
import { namespaceIndex, openApiDocument } from './handlers/discovery'
import { listLinked, readLinked, readLinkedBySlug } from './handlers/linked'
import { createTerm, deleteTerm, updateTerm, validateTermWrite } from './handlers/termWrites'
import { CATEGORIES, listTerms, mayManageTerms, readTerm, TAGS, type TermRoute } from './handlers/terms'
import { createItem, mayWrite, trashItem, updateItem, validateWrite, type WritableKind, type WriteParams } from './handlers/writes'
import { createLinked } from './operations/linked'
import { defineRoute, type Route } from './route'
import { indexParams } from './schemas/common'
import { eventByIdParams, eventBySlugParams, eventListParams } from './schemas/events'
import { linkedByIdParams, linkedBySlugParams, linkedListParams } from './schemas/linked'
import { categoryCreateBody, categoryUpdateBody, tagCreateBody, tagUpdateBody, termDeleteParams } from './schemas/termWrite'
import { categoryListParams, tagListParams, termByIdParams } from './schemas/terms'
import { itemParams, writeSchemas } from './schemas/writeRoutes'
import type { OrganizerInput, VenueInput } from './schemas/write'
import { Category, CategoryList, Event, EventList, NamespaceIndex, OpenApiDocument, Organizer, OrganizerList, Tag, TagList, Venue, VenueList } from './schemas/responses'

const SINGULAR: Record<WritableKind, string> = { events: 'event', venues: 'venue', organizers: 'organizer' }
const UPDATE = ['POST', 'PUT', 'PATCH'] as const
/** What the routes of each kind answer (`/doc`). */
const ITEM = { events: Event, venues: Venue, organizers: Organizer, category: Category, tag: Tag }
const LIST = { events: EventList, venues: VenueList, organizers: OrganizerList, category: CategoryList, tag: TagList }

/** Create, update and trash of one kind of authored record, by id and by slug. */
function writeRoutes(kind: WritableKind): Route[] {
  const singular = SINGULAR[kind]
  const schemas = writeSchemas[kind]
  const create = (ctx: Parameters<typeof createItem>[0], params: WriteParams) =>
    createItem(ctx, kind, params, kind === 'events' ? undefined : () => createLinked(ctx, kind, params as unknown as VenueInput | OrganizerInput))
  return [
    defineRoute({
      methods: ['POST'],
      path: `/${kind}`,
      summary: `Create ${singular === 'event' ? 'an' : 'a'} ${singular}`,
      params: schemas.create,
      response: ITEM[kind],
      customFields: kind,
      validate: (ctx, params) => validateWrite(ctx, kind, params as WriteParams),
      authorize: (ctx) => mayWrite(ctx, kind, {}, 'edit'),
      handler: (ctx, params) => create(ctx, params as WriteParams),
    }),
    ...(['id', 'slug'] as const).flatMap((by) => {
      const path = by === 'id' ? `/${kind}/{id}` : `/${kind}/by-slug/{slug}`
      return [
        defineRoute({
          methods: UPDATE,
          path,
          summary: `Update ${singular === 'event' ? 'an' : 'a'} ${singular}${by === 'slug' ? ' by slug' : ''}`,
          params: schemas.update[by],
          response: ITEM[kind],
          customFields: kind,
          validate: (ctx, params) => validateWrite(ctx, kind, params as WriteParams, by),
          authorize: (ctx, params) => mayWrite(ctx, kind, params as WriteParams, 'edit', by),
          handler: (ctx, params) => updateItem(ctx, kind, params as WriteParams, by),
        }),
        defineRoute({
          methods: ['DELETE'],
          path,
          summary: `Trash ${singular === 'event' ? 'an' : 'a'} ${singular}${by === 'slug' ? ' by slug' : ''}`,
          params: itemParams[by],
          response: ITEM[kind],
          validate: (ctx, params) => validateWrite(ctx, kind, params as WriteParams, by),
          authorize: (ctx, params) => mayWrite(ctx, kind, params as WriteParams, 'delete', by),
          handler: (ctx, params) => trashItem(ctx, kind, params as WriteParams, by),
        }),
      ]
    }),
  ]
}

function termRoutes(terms: TermRoute, listParams: typeof categoryListParams | typeof tagListParams, createBody: typeof categoryCreateBody | typeof tagCreateBody, updateBody: typeof categoryUpdateBody | typeof tagUpdateBody): Route[] {
  const noun = terms.kind === 'category' ? 'event category' : 'event tag'
  return [
    defineRoute({ methods: ['GET'], path: `/${terms.route}`, summary: `List ${noun === 'event category' ? 'event categories' : 'event tags'}`, params: listParams, response: LIST[terms.kind], handler: (ctx, params) => listTerms(ctx, terms, params) }),
    defineRoute({
      methods: ['POST'],
      path: `/${terms.route}`,
      summary: `Create an ${noun}`,
      params: createBody,
      response: ITEM[terms.kind],
      validate: (ctx, params) => validateTermWrite(ctx, terms, params),
      authorize: mayManageTerms,
      handler: (ctx, params) => createTerm(ctx, terms, params),
    }),
    defineRoute({ methods: ['GET'], path: `/${terms.route}/{id}`, summary: `Read an ${noun}`, params: termByIdParams, response: ITEM[terms.kind], handler: (ctx, params) => readTerm(ctx, terms, params.id, { links: true }) }),
    defineRoute({
      methods: UPDATE,
      path: `/${terms.route}/{id}`,
      summary: `Update an ${noun}`,
      params: updateBody,
      response: ITEM[terms.kind],
      validate: (ctx, params) => validateTermWrite(ctx, terms, params),
      authorize: mayManageTerms,
      handler: (ctx, params) => updateTerm(ctx, terms, params),
    }),
    defineRoute({
      methods: ['DELETE'],
      path: `/${terms.route}/{id}`,
      summary: `Delete an ${noun} permanently`,
      params: termDeleteParams,
      response: ITEM[terms.kind],
      validate: (ctx, params) => validateTermWrite(ctx, terms, params),
      authorize: mayManageTerms,
      handler: (ctx, params) => deleteTerm(ctx, terms, params.id),
    }),
  ]
}

/** The namespace: every route, in upstream's registration order. The one place routes are declared. */
export const ROUTES: Route[] = [
  defineRoute({ methods: ['GET'], path: '', summary: 'The namespace index: its routes and their arguments', params: indexParams, response: NamespaceIndex, handler: namespaceIndex }),
  defineRoute({ methods: ['GET'], path: '/doc', summary: 'The OpenAPI 3.1 document of the namespace', params: indexParams.pick({ i18n_language: true }), response: OpenApiDocument, handler: openApiDocument }),
  defineRoute({ methods: ['GET'], path: '/events', summary: 'List events', params: eventListParams, response: EventList, handler: listEvents }),
  defineRoute({ methods: ['GET'], path: '/events/{id}', summary: 'Read an event', params: eventByIdParams, response: Event, handler: (ctx, params) => readEvent(ctx, params.id, params) }),
  defineRoute({ methods: ['GET'], path: '/events/by-slug/{slug}', summary: 'Read an event by slug', params: eventBySlugParams, response: Event, handler: (ctx, params) => readEventBySlug(ctx, params.slug, params) }),
  ...writeRoutes('events'),
  ...(['venues', 'organizers'] as const).flatMap((kind) => [
    defineRoute({ methods: ['GET'], path: `/${kind}`, summary: `List ${kind}`, params: linkedListParams, response: LIST[kind], handler: (ctx, params) => listLinked(ctx, kind, params) }),
    defineRoute({ methods: ['GET'], path: `/${kind}/{id}`, summary: `Read a ${SINGULAR[kind]}`, params: linkedByIdParams, response: ITEM[kind], handler: (ctx, params) => readLinked(ctx, kind, params.id, params) }),
    defineRoute({
      methods: ['GET'],
      path: `/${kind}/by-slug/{slug}`,
      summary: `Read a ${SINGULAR[kind]} by slug`,
      params: linkedBySlugParams,
      response: ITEM[kind],
      handler: (ctx, params) => readLinkedBySlug(ctx, kind, params.slug, params),
    }),
    ...writeRoutes(kind),
  ]),
  ...termRoutes(CATEGORIES, categoryListParams, categoryCreateBody, categoryUpdateBody),
  ...termRoutes(TAGS, tagListParams, tagCreateBody, tagUpdateBody),
] as Route[]
