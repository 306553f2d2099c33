import {
  CATEGORIES,
  EVENTS,
  LINKED,
  TAGS,
  aNoun,
  type AuthoredResource,
  type ResourceKey,
  type TermResource,
} from '../calendar/resources'
import { listChanges } from './handlers/changes'
import { discovery } from './handlers/discovery'
import { eventFeed, eventFile, eventFileBySlug } from './handlers/ical'
import { listEvents, readEvent, readEventBySlug } from './handlers/events'
import { CSV_TYPE, exportEvents } from './handlers/eventsCsv'
import { listLinked, readLinked, readLinkedBySlug } from './handlers/linked'
import { createTerm, deleteTerm, updateTerm, validateTermWrite } from './handlers/termWrites'
import { listTerms, mayManageTerms, readTerm } from './handlers/terms'
import { prefetchImages } from '../operations/images'
import {
  createItem,
  mayWrite,
  trashItem,
  updateItem,
  validateWrite,
  writeTarget,
  type ItemBy,
  type WriteParams,
  type WriteTarget,
} from './handlers/writes'
import type { RestContext } from './context'
import { requestWindow, type EventWindowInput } from '../calendar/dates/resolve'
import { offsetHours } from '../calendar/dates/zone'
import type { ZodType } from 'zod'
import { defineRoute, type AnyRoute, type Route, type RouteParams } from './route'
import { changesParams } from './schemas/changes'
import { bySlugParams, indexParams } from './schemas/common'
import { eventByIdParams, eventFeedParams, eventListParams } from './schemas/events'
import { linkedByIdParams, linkedListParams } from './schemas/linked'
import {
  categoryCreateBody,
  categoryUpdateBody,
  tagCreateBody,
  tagUpdateBody,
  termDeleteParams,
} from './schemas/termWrite'
import { categoryListParams, tagListParams, termByIdParams } from './schemas/terms'
import { itemParams, writeSchemas } from './schemas/writeRoutes'
import {
  Category,
  CategoryList,
  ChangeList,
  Event,
  EventList,
  NamespaceIndex,
  OpenApiDocument,
  Organizer,
  OrganizerList,
  Tag,
  TagList,
  Venue,
  VenueList,
} from './schemas/responses'

const UPDATE = ['POST', 'PUT', 'PATCH'] as const
/** What the iCalendar routes answer (`/doc`); the answers add `charset=utf-8`. */
const CALENDAR_MEDIA = 'text/calendar'
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
/** What the routes of each resource answer (`/doc`), an item and a list: one entry per resource of the registry. */
const ANSWERS = {
  events: { item: Event, list: EventList },
  venues: { item: Venue, list: VenueList },
  organizers: { item: Organizer, list: OrganizerList },
  categories: { item: Category, list: CategoryList },
  tags: { item: Tag, list: TagList },
} satisfies Record<ResourceKey, { item: ZodType; list: ZodType }>
/** The parameters of each term resource's routes. */
const TERM_SCHEMAS = {
  categories: { list: categoryListParams, create: categoryCreateBody, update: categoryUpdateBody },
  tags: { list: tagListParams, create: tagCreateBody, update: tagUpdateBody },
} satisfies Record<TermResource['key'], unknown>

/** An event list reads the clock through its date window alone: the instants it resolves to (none with `include`). */
const windowClock = (ctx: RestContext, params: EventWindowInput & { include?: unknown }) =>
  params.include ? '' : JSON.stringify(requestWindow(params, ctx.settings.timezone, ctx.now).bounds)

const HOUR_MS = 3_600_000

/** Create, update and trash of one kind of authored record, by id and by slug. */
function writeRoutes(resource: AuthoredResource): AnyRoute[] {
  const kind = resource.key
  const schemas = writeSchemas[kind]
  // How a write finds and checks what it acts on, by id or slug (neither: a create, of nothing stored).
  const located = (by?: ItemBy) => ({
    response: ANSWERS[kind].item,
    target: (ctx: RestContext, params: unknown) =>
      writeTarget(ctx, kind, params as WriteParams, by),
    validate: (ctx: RestContext, params: unknown, target: WriteTarget) =>
      validateWrite(ctx, kind, params as WriteParams, target, by),
  })
  // What a create and an update add: the developers' fields, and images fetched before the transaction.
  const edits = {
    customFields: kind,
    authorize: (ctx: RestContext, _params: unknown, target: WriteTarget) =>
      mayWrite(ctx, 'edit', target),
    prepare: (ctx: RestContext, params: unknown) => prefetchImages(ctx, params as WriteParams),
  }
  return [
    defineRoute({
      methods: ['POST'],
      path: `/${kind}`,
      summary: `Create ${aNoun(resource)}`,
      params: schemas.create,
      ...located(),
      ...edits,
      handler: (ctx, params) => createItem(ctx, kind, params as WriteParams),
    }),
    ...(['id', 'slug'] as const).flatMap((by) => {
      const path = by === 'id' ? `/${kind}/{id}` : `/${kind}/by-slug/{slug}`
      const bySlug = by === 'slug' ? ' by slug' : ''
      return [
        defineRoute({
          methods: UPDATE,
          path,
          summary: `Update ${aNoun(resource)}${bySlug}`,
          params: schemas.update[by],
          ...located(by),
          ...edits,
          handler: (ctx, params, target) =>
            updateItem(ctx, kind, params as WriteParams, target, by),
        }),
        defineRoute({
          methods: ['DELETE'],
          path,
          summary: `Trash ${aNoun(resource)}${bySlug}`,
          params: itemParams[by],
          ...located(by),
          authorize: (ctx, _params, target) => mayWrite(ctx, 'delete', target),
          handler: (ctx, _params, target) => trashItem(ctx, kind, target),
        }),
      ]
    }),
  ]
}

/** The writes of terms: their methods, whether they name one (`{id}`), and their summary (`%`: a term). */
const TERM_WRITES = {
  create: { methods: ['POST'], item: false, summary: 'Create %' },
  update: { methods: UPDATE, item: true, summary: 'Update %' },
  delete: { methods: ['DELETE'], item: true, summary: 'Delete % permanently' },
} as const

function termRoutes(terms: TermResource): AnyRoute[] {
  const schemas = TERM_SCHEMAS[terms.key]
  const base = `/${terms.key}`
  // What every write of terms checks, after the parameters' own checks.
  const managed = <P extends RouteParams>(
    write: keyof typeof TERM_WRITES,
    params: P,
    handler: Route<P>['handler'],
  ) => {
    const { methods, item, summary } = TERM_WRITES[write]
    return defineRoute<P>({
      methods,
      path: item ? `${base}/{id}` : base,
      summary: summary.replace('%', aNoun(terms)),
      params,
      response: ANSWERS[terms.key].item,
      ...(write === 'delete' ? {} : { customFields: terms.key }),
      validate: (ctx, input) =>
        validateTermWrite(ctx, terms, input as Parameters<typeof validateTermWrite>[2]),
      authorize: mayManageTerms,
      handler,
    })
  }
  return [
    defineRoute({
      methods: ['GET'],
      path: base,
      summary: `List ${terms.nouns}`,
      params: schemas.list,
      response: ANSWERS[terms.key].list,
      handler: (ctx, params) => listTerms(ctx, terms, params),
    }),
    managed('create', schemas.create, (ctx, params) => createTerm(ctx, terms, params)),
    defineRoute({
      methods: ['GET'],
      path: `${base}/{id}`,
      summary: `Read ${aNoun(terms)}`,
      params: termByIdParams,
      response: ANSWERS[terms.key].item,
      handler: (ctx, params) => readTerm(ctx, terms, params.id, { links: true }),
    }),
    managed('update', schemas.update, (ctx, params) => updateTerm(ctx, terms, params)),
    managed('delete', termDeleteParams, (ctx, params) => deleteTerm(ctx, terms, params.id)),
  ]
}

/** The discovery documents describe the tables they are handed, which include their own routes. */
const documents = discovery(
  () => ROUTES,
  () => [REST_ROOT],
)

/**
 * The REST root the namespace is served under (`/api/`, docs/api.md §13), WordPress's `/wp-json/`:
 * a table of its own, since its path is not the namespace's.
 */
export const REST_ROOT: AnyRoute = defineRoute({
  methods: ['GET'],
  path: '',
  summary: 'The REST root index: the site, its namespaces and their routes',
  params: indexParams.pick({ i18n_language: true, context: true }),
  handler: documents.restRootIndex,
  clock: (ctx) => String(offsetHours(ctx.settings.timezone, ctx.now)),
})

/** The namespace: every route, in upstream's registration order. The one place routes are declared. */
export const ROUTES: AnyRoute[] = [
  defineRoute({
    methods: ['GET'],
    path: '',
    summary: 'The namespace index: its routes and their arguments',
    params: indexParams,
    response: NamespaceIndex,
    handler: documents.namespaceIndex,
  }),
  defineRoute({
    methods: ['GET'],
    path: '/doc',
    summary: 'The OpenAPI 3.1 document of the namespace',
    params: indexParams.pick({ i18n_language: true }),
    response: OpenApiDocument,
    handler: documents.openApiDocument,
  }),
  defineRoute({
    methods: ['GET'],
    path: `/${EVENTS.key}`,
    summary: `List ${EVENTS.nouns}`,
    params: eventListParams,
    response: ANSWERS.events.list,
    handler: listEvents,
    clock: windowClock,
  }),
  // iCalendar (docs/api.md §22). Ahead of `/events/by-slug/{slug}`, whose slug would otherwise take `x.ics`.
  defineRoute({
    methods: ['GET'],
    path: `/${EVENTS.key}.ics`,
    summary: `The ${EVENTS.nouns} of the list as an iCalendar feed`,
    params: eventFeedParams,
    produces: CALENDAR_MEDIA,
    handler: eventFeed,
    clock: windowClock,
  }),
  defineRoute({
    methods: ['GET'],
    path: `/${EVENTS.key}/{id}.ics`,
    summary: `${capitalized(aNoun(EVENTS))} as an iCalendar file (a series' first event: the series)`,
    params: eventByIdParams,
    produces: CALENDAR_MEDIA,
    handler: (ctx, params) => eventFile(ctx, params.id, params),
  }),
  defineRoute({
    methods: ['GET'],
    path: `/${EVENTS.key}/by-slug/{slug}.ics`,
    summary: `${capitalized(aNoun(EVENTS))} by slug as an iCalendar file`,
    params: bySlugParams,
    produces: CALENDAR_MEDIA,
    handler: (ctx, params) => eventFileBySlug(ctx, params.slug, params),
  }),
  defineRoute({
    methods: ['GET'],
    path: `/${EVENTS.key}.csv`,
    summary: `Export ${EVENTS.nouns} as CSV: what the list gives with the same parameters, every page, in the CSV import's columns`,
    params: eventListParams,
    produces: CSV_TYPE,
    handler: exportEvents,
    clock: windowClock,
  }),
  defineRoute({
    methods: ['GET'],
    path: `/${EVENTS.key}/{id}`,
    summary: `Read ${aNoun(EVENTS)}`,
    params: eventByIdParams,
    response: ANSWERS.events.item,
    handler: (ctx, params) => readEvent(ctx, params.id, params),
  }),
  defineRoute({
    methods: ['GET'],
    path: `/${EVENTS.key}/by-slug/{slug}`,
    summary: `Read ${aNoun(EVENTS)} by slug`,
    params: bySlugParams,
    response: ANSWERS.events.item,
    handler: (ctx, params) => readEventBySlug(ctx, params.slug, params),
  }),
  ...writeRoutes(EVENTS),
  ...LINKED.flatMap((resource) => [
    defineRoute({
      methods: ['GET'],
      path: `/${resource.key}`,
      summary: `List ${resource.nouns}`,
      params: linkedListParams,
      response: ANSWERS[resource.key].list,
      handler: (ctx, params) => listLinked(ctx, resource.key, params),
      clock: (ctx, params) => (params.only_with_upcoming ? ctx.now.toISOString() : ''),
    }),
    defineRoute({
      methods: ['GET'],
      path: `/${resource.key}/{id}`,
      summary: `Read ${aNoun(resource)}`,
      params: linkedByIdParams,
      response: ANSWERS[resource.key].item,
      handler: (ctx, params) => readLinked(ctx, resource.key, params.id, params),
    }),
    defineRoute({
      methods: ['GET'],
      path: `/${resource.key}/by-slug/{slug}`,
      summary: `Read ${aNoun(resource)} by slug`,
      params: bySlugParams,
      response: ANSWERS[resource.key].item,
      handler: (ctx, params) => readLinkedBySlug(ctx, resource.key, params.slug, params),
    }),
    ...writeRoutes(resource),
  ]),
  ...termRoutes(CATEGORIES),
  ...termRoutes(TAGS),
  defineRoute({
    methods: ['GET'],
    path: '/changes',
    summary: 'Items changed since a cursor: the change feed for mirrors',
    params: changesParams,
    response: ChangeList,
    handler: listChanges,
    // Cursors carry the hour they were issued and expire on an hour (handlers/changes.ts).
    clock: (ctx) => String(Math.floor(ctx.now.getTime() / HOUR_MS)),
  }),
]
