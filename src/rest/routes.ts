import { listEvents, readEvent, readEventBySlug } from './handlers/events'
import { listLinked, readLinked, readLinkedBySlug } from './handlers/linked'
import { CATEGORIES, listTerms, readTerm, TAGS } from './handlers/terms'
import { defineRoute, type Route } from './route'
import { eventByIdParams, eventBySlugParams, eventListParams } from './schemas/events'
import { linkedByIdParams, linkedBySlugParams, linkedListParams } from './schemas/linked'
import { categoryListParams, tagListParams, termByIdParams } from './schemas/terms'

/** The namespace: every route, in upstream's registration order. The one place routes are declared. */
export const ROUTES: Route[] = [
  defineRoute({ methods: ['GET'], path: '/events', summary: 'List events', params: eventListParams, handler: listEvents }),
  defineRoute({
    methods: ['GET'],
    path: '/events/{id}',
    summary: 'Read an event',
    params: eventByIdParams,
    handler: (ctx, params) => readEvent(ctx, params.id, params),
  }),
  defineRoute({
    methods: ['GET'],
    path: '/events/by-slug/{slug}',
    summary: 'Read an event by slug',
    params: eventBySlugParams,
    handler: (ctx, params) => readEventBySlug(ctx, params.slug, params),
  }),
  ...(['venues', 'organizers'] as const).flatMap((kind) => [
    defineRoute({ methods: ['GET'], path: `/${kind}`, summary: `List ${kind}`, params: linkedListParams, handler: (ctx, params) => listLinked(ctx, kind, params) }),
    defineRoute({
      methods: ['GET'],
      path: `/${kind}/{id}`,
      summary: `Read a ${kind.slice(0, -1)}`,
      params: linkedByIdParams,
      handler: (ctx, params) => readLinked(ctx, kind, params.id, params),
    }),
    defineRoute({
      methods: ['GET'],
      path: `/${kind}/by-slug/{slug}`,
      summary: `Read a ${kind.slice(0, -1)} by slug`,
      params: linkedBySlugParams,
      handler: (ctx, params) => readLinkedBySlug(ctx, kind, params.slug, params),
    }),
  ]),
  defineRoute({ methods: ['GET'], path: '/categories', summary: 'List event categories', params: categoryListParams, handler: (ctx, params) => listTerms(ctx, CATEGORIES, params) }),
  defineRoute({ methods: ['GET'], path: '/categories/{id}', summary: 'Read an event category', params: termByIdParams, handler: (ctx, params) => readTerm(ctx, CATEGORIES, params.id) }),
  defineRoute({ methods: ['GET'], path: '/tags', summary: 'List event tags', params: tagListParams, handler: (ctx, params) => listTerms(ctx, TAGS, params) }),
  defineRoute({ methods: ['GET'], path: '/tags/{id}', summary: 'Read an event tag', params: termByIdParams, handler: (ctx, params) => readTerm(ctx, TAGS, params.id) }),
] as Route[]
